import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  formatDate,
  formatNumber,
  formatPercent,
  formatPrice,
  MESSAGES,
  productDisplayName,
  type QmItem,
  RANKING_LABELS,
} from '@vigia/domain';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  EmptyState,
  NumberCell,
  ProductThumb,
  SkeletonRows,
  SortableHeadCell,
} from '../../../components/data/DataTable.js';
import { PriceCell } from '../../../components/data/PriceCell.js';
import { PriceFreshness } from '../../../components/data/PriceFreshness.js';
import { PriceTypeChip } from '../../../components/data/PriceTypeChip.js';
import { PositionFigure } from '../../../components/data/position.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { type CompetitorSort, rowTone, sortCompetitors } from '../competitors.js';
import { qmiPath } from '../links.js';

const COLUMNS = 8;

function signedPrice(value: number | null, currency: string): string {
  if (value === null) return '—';
  if (value === 0) return formatPrice(0, currency);
  return `${value > 0 ? '+' : '-'}${formatPrice(Math.abs(value), currency)}`;
}

function signedPercent(value: number | null): string {
  if (value === null) return '';
  return `${value > 0 ? '+' : value < 0 ? '-' : ''}${formatPercent(Math.abs(value))}`;
}

function AvailabilityChip({ text }: { text: string }) {
  const ok = text === MESSAGES.available;
  return (
    <Chip
      size="small"
      label={text}
      color={ok ? 'success' : 'default'}
      variant={ok ? 'outlined' : 'filled'}
      sx={{ height: 22, fontSize: 12, fontWeight: 600 }}
    />
  );
}

export interface CompetitorsTableProps {
  items: QmItem[] | null;
  currency: string;
  loading?: boolean;
}

/**
 * 'Competidores': every seller's listing of the product, my own first in the ranking order. Historical
 * rows are grey; the cheapest price is in the accent colour and the dearest in red (seed 001 §4).
 */
export function CompetitorsTable({ items, currency, loading }: CompetitorsTableProps) {
  const [sort, setSort] = useState<CompetitorSort>({ by: 'position', dir: 'asc' });
  const rows = useMemo(() => (items ? sortCompetitors(items, sort) : []), [items, sort]);
  const onSort = (next: CompetitorSort) => setSort(next);

  return (
    <ScrollTable label="Competidores">
      <Table aria-label="Competidores" sx={{ minWidth: 900 }}>
        <TableHead>
          <TableRow>
            <SortableHeadCell
              column="position"
              label="#"
              sort={sort}
              onSort={onSort}
              align="right"
              width={48}
            />
            <SortableHeadCell column="seller" firstDir="asc" label="eCommerce" sort={sort} onSort={onSort} />
            <TableCell>Producto</TableCell>
            <TableCell align="right">Precio</TableCell>
            <TableCell align="right">Precio anterior</TableCell>
            <SortableHeadCell
              column="difference"
              label="Diferencia"
              sort={sort}
              onSort={onSort}
              align="right"
            />
            <TableCell>Disponibilidad</TableCell>
            <SortableHeadCell
              column="last_seen"
              label="Última vez visto"
              sort={sort}
              onSort={onSort}
              align="right"
            />
          </TableRow>
        </TableHead>
        <TableBody>
          {loading ? (
            <SkeletonRows rows={4} columns={COLUMNS} />
          ) : rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={COLUMNS} sx={{ borderBottom: 0 }}>
                <EmptyState
                  title="Este producto aún no tiene competidores"
                  hint="Cuando encontremos el mismo producto en los eCommerce que comparas, aparecerá aquí. Revisa también los competidores seleccionados en la barra superior."
                />
              </TableCell>
            </TableRow>
          ) : (
            rows.map((item) => {
              const tone = rowTone(item);
              const grey = item.historical;
              const name = productDisplayName(item.name);
              return (
                <TableRow
                  key={item.id}
                  hover
                  sx={{
                    ...(item.is_pivot && { bgcolor: 'rgba(106, 27, 154, 0.05)' }),
                    '& > td': { color: grey ? 'text.disabled' : undefined },
                  }}
                >
                  <NumberCell>{item.position !== null ? formatNumber(item.position) : '—'}</NumberCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                      <Box
                        component="span"
                        aria-hidden
                        sx={{
                          width: 10,
                          height: 10,
                          borderRadius: '50%',
                          bgcolor: item.seller_color,
                          flexShrink: 0,
                          opacity: grey ? 0.5 : 1,
                        }}
                      />
                      <Box
                        sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.25 }}
                      >
                        <Typography
                          variant="body2"
                          component="span"
                          sx={{ fontWeight: 600, color: 'inherit' }}
                        >
                          {item.seller_name}
                        </Typography>
                        {item.is_pivot && (
                          <Chip
                            size="small"
                            label={RANKING_LABELS.own}
                            color="primary"
                            sx={{ height: 18, fontSize: 10.5, '& .MuiChip-label': { px: 0.75 } }}
                          />
                        )}
                      </Box>
                    </Box>
                  </TableCell>
                  <TableCell sx={{ minWidth: 200, maxWidth: 360 }}>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25, opacity: grey ? 0.7 : 1 }}>
                      <ProductThumb src={item.thumbnail} alt={name} size={36} />
                      <Box sx={{ minWidth: 0 }}>
                        <Link
                          component={RouterLink}
                          to={qmiPath(item.product_id, item.seller_id)}
                          underline="hover"
                          title={`${name} — ver el detalle de esta publicación`}
                          sx={{
                            color: grey ? 'text.disabled' : undefined,
                            display: '-webkit-box',
                            WebkitLineClamp: 2,
                            WebkitBoxOrient: 'vertical',
                            overflow: 'hidden',
                            fontSize: 13,
                            lineHeight: 1.35,
                          }}
                        >
                          {name}
                        </Link>
                      </Box>
                      {item.url && (
                        <Tooltip title="Abrir la publicación en una pestaña nueva">
                          <IconButton
                            size="small"
                            component="a"
                            href={item.url}
                            target="_blank"
                            rel="noopener noreferrer"
                            aria-label={`Abrir la publicación de ${item.seller_name} en una pestaña nueva`}
                            sx={{ ml: 'auto', flexShrink: 0 }}
                          >
                            <OpenInNewIcon sx={{ fontSize: 18 }} />
                          </IconButton>
                        </Tooltip>
                      )}
                    </Box>
                  </TableCell>
                  <TableCell align="right">
                    <PriceCell value={item.min_price} currency={currency} tone={tone}>
                      <PriceTypeChip type={item.price_type} />
                    </PriceCell>
                  </TableCell>
                  <NumberCell>{formatPrice(item.previous_price, currency)}</NumberCell>
                  <NumberCell>
                    {item.is_pivot ? (
                      '—'
                    ) : (
                      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end' }}>
                        {/* their price − mine: below 0 they are cheaper (I am dearer, ▲), above 0 I am cheaper (▼) */}
                        <PositionFigure
                          kind={
                            grey || item.difference === null || item.difference === 0
                              ? 'neutral'
                              : item.difference < 0
                                ? 'dearer'
                                : 'cheaper'
                          }
                          label={
                            grey || !item.difference
                              ? undefined
                              : item.difference < 0
                                ? 'Más barato que tú'
                                : 'Más caro que tú'
                          }
                        >
                          {signedPrice(item.difference, currency)}
                        </PositionFigure>
                        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                          {signedPercent(item.difference_percent)}
                        </Typography>
                      </Box>
                    )}
                  </NumberCell>
                  <TableCell>
                    <AvailabilityChip text={item.availability} />
                  </TableCell>
                  <NumberCell>
                    {formatDate(item.last_seen)}
                    <Box>
                      <PriceFreshness lastSeen={item.last_seen} />
                    </Box>
                  </NumberCell>
                </TableRow>
              );
            })
          )}
        </TableBody>
      </Table>
    </ScrollTable>
  );
}
