import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import {
  Box,
  Chip,
  Link,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { type BrandComparatorResponse, formatDate, formatNumber } from '@vigia/domain';
import { useSearchParams } from 'react-router';
import { ChartContainer, LineChart } from '../../../components/charts/index.js';
import { EmptyState, NumberCell, TableBodyState } from '../../../components/data/DataTable.js';
import { bandText, indexKind, PositionFigure, SellerLabel } from '../../../components/data/position.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { knownWhenLoaded, useDropUnknownParams } from '../../../components/data/url-state.js';
import { type FilterField, FilterPanel } from '../../../components/filters/index.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { useBrandComparatorSearch } from '../api/brand-comparator.js';

const BRAND_KEY = 'brand';

const FIELDS: readonly FilterField[] = [
  'classificationsIds',
  'brands',
  'ownBrands',
  'sellersIds',
  'currency',
  'priceMode',
  'dates',
];

type Item = BrandComparatorResponse['items'][number];

/**
 * An index in the position colours and arrows the pricing screens use (▼ cheaper than the market band,
 * ▲ dearer: components/data/position.tsx), with its change over the period.
 */
function IndexCell({ value, change, mpi }: { value: number | null; change?: number | null; mpi: number }) {
  if (value === null) return <NumberCell sx={{ color: 'text.disabled' }}>—</NumberCell>;
  const kind = indexKind(value, mpi);
  return (
    <NumberCell>
      <span data-bucket={kind}>
        <PositionFigure kind={kind}>{formatNumber(value, 1)}</PositionFigure>
      </span>
      {change !== undefined && change !== null && change !== 0 && (
        <Box
          component="span"
          title="Cambio en puntos de índice desde el inicio del período"
          sx={{
            ml: 0.75,
            fontSize: 12,
            color: 'text.secondary',
            display: 'inline-flex',
            alignItems: 'center',
          }}
        >
          {change > 0 ? (
            <ArrowUpwardIcon sx={{ fontSize: 13 }} />
          ) : (
            <ArrowDownwardIcon sx={{ fontSize: 13 }} />
          )}
          {formatNumber(Math.abs(change), 1)}
        </Box>
      )}
    </NumberCell>
  );
}

/**
 * Comparador de precios de marca (issue 14): for the brands picked (own brands first), the pivot's price
 * index against each competitor over the same matched products (100 = same price; above = I am dearer),
 * with its trend over the period.
 */
export default function BrandComparatorPage() {
  const { search, query, preparing } = useBrandComparatorSearch();
  // the brand whose trend is shown lives in the URL with the filters (a reload or Back keeps it)
  const [params, setParams] = useSearchParams();
  const picked = Number(params.get(BRAND_KEY) ?? Number.NaN);
  const setPicked = (id: number) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set(BRAND_KEY, String(id));
        return next;
      },
      { replace: true },
    );
  const data = query.data;
  // a brand that is not a row of the answer (judged once it is in) is dropped with a notice (issue 31 item 8)
  useDropUnknownParams([
    knownWhenLoaded(BRAND_KEY, data && !query.isFetching ? data.items.map((i) => String(i.brand_id)) : null),
  ]);
  const blocked = !preparing && !search.filters;
  const selected: Item | undefined = data?.items.find((i) => i.brand_id === picked) ?? data?.items[0];
  const columns = 3 + (data?.competitors.length ?? 3);
  const loading = preparing || query.isPending;

  return (
    <Box>
      <PageHeader description="El índice de precios de tus marcas frente a cada competidor, sobre los mismos productos con match (100 = mismo precio; sobre 100, estás más caro), y cómo cambió en el período." />
      <Stack spacing={2}>
        <FilterPanel search={search} fields={FIELDS} busy={query.isFetching} />
        {!blocked && (
          <>
            <Paper variant="outlined">
              <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 1.5 }}>
                {data
                  ? `Índice al ${formatDate(data.to_date)} (en rango de mercado: índice de 100 a ${formatNumber(100 + data.mpi_value)}, ${bandText(data.mpi_value)} sobre el mercado; bajo 100, más barato); las flechas muestran el cambio desde el ${formatDate(data.trend_days[0])}. Elige una marca para ver su tendencia.`
                  : ' '}
              </Typography>
              <ScrollTable label="Comparador de precios de marca">
                <Table size="small" aria-label="Comparador de precios de marca">
                  <TableHead>
                    <TableRow>
                      <TableCell>Marca</TableCell>
                      <TableCell align="right">Productos</TableCell>
                      <TableCell align="right">Índice vs mercado</TableCell>
                      {data?.competitors.map((c) => (
                        <TableCell key={c.id} align="right" sx={{ whiteSpace: 'nowrap' }}>
                          <SellerLabel name={c.name} color={c.color} />
                        </TableCell>
                      ))}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    <TableBodyState
                      columns={columns}
                      loading={loading}
                      error={
                        query.isError && {
                          message: 'No se pudo cargar el comparador.',
                          onRetry: () => void query.refetch(),
                        }
                      }
                      empty={
                        !data?.items.length && (
                          <EmptyState
                            title="No hay productos de marca con match para estos filtros."
                            hint="Elige marcas en el filtro, más eCommerce o menos clasificaciones."
                          />
                        )
                      }
                      rows={() =>
                        data?.items.map((item) => (
                          <TableRow
                            key={item.brand_id}
                            hover
                            selected={selected?.brand_id === item.brand_id}
                            onClick={() => setPicked(item.brand_id)}
                            sx={{ cursor: 'pointer' }}
                            data-testid="brand-comparator-row"
                          >
                            <TableCell sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                              {/* the row is clickable; the name is the keyboard's way to pick the brand */}
                              <Link
                                component="button"
                                type="button"
                                underline="hover"
                                aria-pressed={selected?.brand_id === item.brand_id}
                                onClick={(e) => {
                                  e.stopPropagation();
                                  setPicked(item.brand_id);
                                }}
                                sx={{ color: 'text.primary', fontWeight: 600, textAlign: 'left' }}
                              >
                                {item.name}
                              </Link>
                              {item.own && (
                                <Chip
                                  size="small"
                                  label="Propia"
                                  color="secondary"
                                  variant="outlined"
                                  sx={{ ml: 1, height: 20 }}
                                />
                              )}
                            </TableCell>
                            <NumberCell>{formatNumber(item.products)}</NumberCell>
                            <IndexCell value={item.average_index} mpi={data.mpi_value} />
                            {data.competitors.map((c) => {
                              const cell = item.sellers.find((s) => s.seller_id === c.id);
                              return (
                                <IndexCell
                                  key={c.id}
                                  value={cell?.average_index ?? null}
                                  change={cell?.change}
                                  mpi={data.mpi_value}
                                />
                              );
                            })}
                          </TableRow>
                        ))
                      }
                    />
                  </TableBody>
                </Table>
              </ScrollTable>
            </Paper>
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
                {selected
                  ? `Tendencia del índice de ${selected.name} por competidor`
                  : 'Tendencia del índice'}
              </Typography>
              <ChartContainer
                status={loading ? 'pending' : query.isError ? 'error' : 'ready'}
                empty={!selected || selected.sellers.every((s) => s.trend.every((v) => v === null))}
                emptyText="No hay precios comparables en el período para esta marca."
                onRetry={() => void query.refetch()}
              >
                {data && selected && (
                  <LineChart
                    labels={data.trend_days.map((d) => formatDate(d))}
                    series={selected.sellers.map((s) => {
                      const c = data.competitors.find((x) => x.id === s.seller_id);
                      return {
                        id: s.seller_id,
                        label: c?.name ?? String(s.seller_id),
                        color: c?.color,
                        data: s.trend,
                      };
                    })}
                    formatValue={(v) => formatNumber(v, 1)}
                    ariaLabel={`Índice de precios de ${selected.name} frente a cada competidor en el período`}
                  />
                )}
              </ChartContainer>
            </Paper>
          </>
        )}
      </Stack>
    </Box>
  );
}
