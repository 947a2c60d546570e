import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  breadcrumb,
  formatDate,
  formatPrice,
  MESSAGES,
  PRODUCT_LIST_OBSERVATIONS,
  type ProductListItem,
} from '@vigia/domain';
import type { ReactNode } from 'react';
import {
  NumberCell,
  ProductLink,
  ProductThumb,
  SkeletonRows,
  SortableHeadCell,
  type SortState,
} from '../../../components/data/DataTable.js';
import { PriceFreshness } from '../../../components/data/PriceFreshness.js';
import { PriceTypeChip } from '../../../components/data/PriceTypeChip.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import type { ProductListSort } from '../api/queries.js';

export const PRODUCT_LIST_COLUMNS = 8;

const OBSERVATION_COLORS: Record<string, 'default' | 'secondary' | 'success' | 'warning' | 'error' | 'info'> =
  {
    stock_out: 'default',
    promotion: 'secondary',
    new: 'info',
    price_up: 'error',
    price_down: 'success',
    unpublished: 'warning',
  };

function Mono({ children }: { children: ReactNode }) {
  return (
    <Typography
      variant="body2"
      component="span"
      sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', fontSize: 13 }}
    >
      {children || '—'}
    </Typography>
  );
}

export interface ProductListTableProps {
  rows: ProductListItem[];
  loading: boolean;
  skeletonRows: number;
  sort: SortState<ProductListSort>;
  onSort: (sort: SortState<ProductListSort>) => void;
  /** shown in place of the rows (empty and error states) */
  message?: ReactNode;
}

/** The product list table: one row per listing with the seed's Product list item fields. */
export function ProductListTable({
  rows,
  loading,
  skeletonRows,
  sort,
  onSort,
  message,
}: ProductListTableProps) {
  return (
    <ScrollTable label="Lista de productos">
      <Table aria-label="Lista de productos" sx={{ minWidth: 1060 }}>
        <TableHead>
          <TableRow>
            <SortableHeadCell column="name" firstDir="asc" label="Producto" sort={sort} onSort={onSort} />
            <TableCell>SKU / EAN</TableCell>
            <SortableHeadCell column="seller" firstDir="asc" label="eCommerce" sort={sort} onSort={onSort} />
            <SortableHeadCell column="price" label="Precio" sort={sort} onSort={onSort} align="right" />
            <TableCell>Tipo de precio</TableCell>
            <TableCell>Disponibilidad</TableCell>
            <TableCell>Categorías</TableCell>
            <SortableHeadCell
              column="updated"
              label="Actualizado"
              sort={sort}
              onSort={onSort}
              align="right"
            />
          </TableRow>
        </TableHead>
        <TableBody>
          {loading ? (
            <SkeletonRows rows={skeletonRows} columns={PRODUCT_LIST_COLUMNS} />
          ) : message ? (
            <TableRow>
              <TableCell colSpan={PRODUCT_LIST_COLUMNS} sx={{ borderBottom: 0 }}>
                {message}
              </TableCell>
            </TableRow>
          ) : (
            rows.map((item) => {
              const crumbs = breadcrumb(item.categories);
              const onPromo =
                item.normal_price !== null && item.price !== null && item.price < item.normal_price;
              const tag = item.observation.tag;
              return (
                <TableRow
                  key={item.id}
                  hover
                  sx={{ '& > td': { color: item.stock_out ? 'text.secondary' : undefined } }}
                >
                  <TableCell sx={{ minWidth: 220 }}>
                    <Box sx={{ display: 'flex', gap: 1.25, alignItems: 'center' }}>
                      <ProductThumb src={item.image} alt="" size={44} />
                      <Box sx={{ minWidth: 0 }}>
                        <ProductLink id={item.id} name={item.name} maxWidth={320} />
                        <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }}>
                          {item.brand ?? 'Sin marca'}
                        </Typography>
                        {tag && (
                          <Chip
                            size="small"
                            label={item.observation.text ?? PRODUCT_LIST_OBSERVATIONS[tag]}
                            color={OBSERVATION_COLORS[tag] ?? 'default'}
                            variant="outlined"
                            sx={{ height: 18, fontSize: 10.5, mt: 0.5, '& .MuiChip-label': { px: 0.75 } }}
                          />
                        )}
                      </Box>
                    </Box>
                  </TableCell>
                  <TableCell>
                    <Mono>{item.sku}</Mono>
                    <Typography
                      variant="caption"
                      component="div"
                      sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}
                    >
                      {item.ean ? `EAN ${item.ean}` : 'Sin EAN'}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{item.seller_name}</TableCell>
                  <NumberCell>
                    <Box component="span" sx={{ fontWeight: 600 }}>
                      {formatPrice(item.price, item.currency)}
                    </Box>
                    {onPromo && (
                      <Typography
                        variant="caption"
                        component="div"
                        sx={{ color: 'text.secondary', textDecoration: 'line-through' }}
                        aria-label={`Precio normal ${formatPrice(item.normal_price, item.currency)}`}
                      >
                        {formatPrice(item.normal_price, item.currency)}
                      </Typography>
                    )}
                    <Box>
                      <PriceFreshness lastSeen={item.extracted} />
                    </Box>
                  </NumberCell>
                  <TableCell>
                    <PriceTypeChip type={item.price_type} />
                    {item.sale_duration_in_weeks !== null && item.sale_duration_in_weeks > 0 && (
                      <Typography
                        variant="caption"
                        component="div"
                        sx={{ color: 'text.secondary', mt: 0.25 }}
                      >
                        {item.sale_duration_in_weeks === 1
                          ? '1 semana'
                          : `${item.sale_duration_in_weeks} semanas`}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      label={item.stock_out ? MESSAGES.unavailableStockOut : MESSAGES.available}
                      color={item.stock_out ? 'default' : 'success'}
                      variant={item.stock_out ? 'filled' : 'outlined'}
                      sx={{ height: 22, fontSize: 12 }}
                    />
                  </TableCell>
                  <TableCell sx={{ minWidth: 150, maxWidth: 220 }}>
                    {crumbs ? (
                      <Tooltip title={crumbs}>
                        <Typography
                          variant="caption"
                          component="span"
                          sx={{
                            display: '-webkit-box',
                            WebkitLineClamp: 2,
                            WebkitBoxOrient: 'vertical',
                            overflow: 'hidden',
                            color: 'text.secondary',
                          }}
                        >
                          {item.plp ? (
                            <Link
                              href={item.plp}
                              target="_blank"
                              rel="noopener noreferrer"
                              underline="hover"
                              color="inherit"
                            >
                              {crumbs}
                            </Link>
                          ) : (
                            crumbs
                          )}
                        </Typography>
                      </Tooltip>
                    ) : (
                      '—'
                    )}
                  </TableCell>
                  <NumberCell>
                    {formatDate(item.updated)}
                    <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }}>
                      {item.day_name_spa}
                    </Typography>
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
