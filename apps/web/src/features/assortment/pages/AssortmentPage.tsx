import { Box, Stack } from '@mui/material';
import { type AssortmentRow, type AssortmentStockEvent, formatDate, NO_BRAND_NAME } from '@vigia/domain';
import { useLocation, useSearchParams } from 'react-router';
import { type FilterField, FilterPanel } from '../../../components/filters/index.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { useAssortment } from '../api/queries.js';
import { type AssortmentKind, type DrillDown, downloadAssortment } from '../api/requests.js';
import { AssortmentChart } from '../components/AssortmentChart.js';
import { AssortmentTable } from '../components/AssortmentTable.js';
import { ProductsPanel } from '../components/ProductsPanel.js';
import { ASSORTMENT_SCREENS, ASSORTMENT_TEXT } from '../lib/texts.js';
import { useAssortmentSearch } from '../lib/use-assortment-search.js';

// Filters assortment applies (the daily roll-up keeps listings by seller, classification and brand).
const FIELDS: readonly FilterField[] = [
  'classificationsIds',
  'brands',
  'ownBrands',
  'sellersIds',
  'currency',
  'dates',
];

/** The screen of a path ('/app/assortment-by-stock' → 'stock'). */
export function assortmentKindOf(pathname: string): AssortmentKind {
  const found = (Object.entries(ASSORTMENT_SCREENS) as [AssortmentKind, { path: string }][]).find(([, s]) =>
    pathname.replace(/\/+$/, '').endsWith(`/${s.path}`),
  );
  return found?.[0] ?? 'brand';
}

// The open drill-down lives in the URL (row, and the stock tab), like the filters.
const ROW_KEY = 'row';
const STOCK_KEY = 'stock';

/**
 * Surtido por marca / por eCommerce / cambio de disponibilidad (seed 001 §2): filters → chart → table
 * with the summary row first → the products behind a row.
 */
export default function AssortmentPage() {
  const { pathname } = useLocation();
  const kind = assortmentKindOf(pathname);
  const screen = ASSORTMENT_SCREENS[kind];
  const [params, setParams] = useSearchParams();
  const { search, scope, currency, preparing } = useAssortmentSearch({ resetKeys: [ROW_KEY, STOCK_KEY] });
  const result = useAssortment(kind, scope);
  const blocked = !preparing && !scope.filters;
  const rows = kind === 'brand' ? result.data?.brands : result.data?.sellers;
  const rowKey = params.get(ROW_KEY);
  const stock =
    (params.get(STOCK_KEY) as AssortmentStockEvent | null) ?? (kind === 'stock' ? 'went_out' : null);
  const keyOf = (r: AssortmentRow) => (r.summary ? 'summary' : `${r.id ?? 'none'}`);
  const openRow = rows?.find((r) => keyOf(r) === rowKey) ?? null;

  const open = (r: AssortmentRow, st?: AssortmentStockEvent) => {
    const next = new URLSearchParams(params);
    next.set(ROW_KEY, keyOf(r));
    if (st) next.set(STOCK_KEY, st);
    else next.delete(STOCK_KEY);
    setParams(next);
  };
  const close = () => {
    const next = new URLSearchParams(params);
    next.delete(ROW_KEY);
    next.delete(STOCK_KEY);
    setParams(next);
  };
  const drill: DrillDown | null = openRow
    ? {
        ...(openRow.summary
          ? {}
          : kind === 'brand'
            ? { brand: openRow.id === null ? NO_BRAND_NAME : openRow.name }
            : { seller_id: openRow.id as number }),
        ...(kind === 'stock' ? { stock: stock ?? 'went_out' } : {}),
      }
    : null;
  const d = result.data;

  return (
    <Box>
      <PageHeader description={screen.description} />
      <Stack spacing={2}>
        <FilterPanel search={search} fields={FIELDS} busy={result.isFetching} />
        {!blocked && (
          <>
            <AssortmentChart
              kind={kind}
              rows={rows}
              loading={preparing || result.isPending}
              error={result.error}
              onRetry={() => void result.refetch()}
            />
            <AssortmentTable
              key={`${kind}:${search.urlKey}`}
              kind={kind}
              rows={rows}
              currency={d?.currency ?? currency}
              loading={preparing || result.isPending}
              error={result.error}
              onRetry={() => void result.refetch()}
              onOpen={open}
              selected={openRow ? keyOf(openRow) : null}
              onDownload={() => scope.filters && void downloadAssortment(kind, scope.filters, scope.pivotId)}
              caption={
                d
                  ? ASSORTMENT_TEXT.period(
                      formatDate(d.from_date),
                      formatDate(d.to_date),
                      formatDate(d.previous_from_date),
                      formatDate(d.previous_to_date),
                    )
                  : undefined
              }
            />
            {openRow && drill && (
              <ProductsPanel
                key={`${kind}:${keyOf(openRow)}:${search.urlKey}`}
                kind={kind}
                scope={scope}
                title={openRow.name}
                drill={drill}
                currency={currency}
                onStock={(st) => open(openRow, st)}
                onClose={close}
              />
            )}
          </>
        )}
      </Stack>
    </Box>
  );
}
