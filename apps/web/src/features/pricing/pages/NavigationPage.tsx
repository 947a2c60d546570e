import { Box, Stack, Tab, Tabs } from '@mui/material';
import {
  PRICING_PRICE_RANGE_MPI_VALUE,
  PRICING_SORT_FIELDS,
  type PricingSortField,
  SORT_DIRECTIONS,
  type SortDirection,
} from '@vigia/domain';
import { useSearchParams } from 'react-router';
import type { SortState } from '../../../components/data/DataTable.js';
import { oneOf, useDropUnknownParams } from '../../../components/data/url-state.js';
import { FilterPanel } from '../../../components/filters/index.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { useNavigationItems, useNavigationKpi } from '../api/queries.js';
import { Comparator } from '../components/Comparator.js';
import { NavigationTable } from '../components/NavigationTable.js';
import { PricingKpis } from '../components/PricingKpis.js';
import { NAVIGATION_TEXT } from '../lib/texts.js';
import { usePricingSearch } from '../lib/use-pricing-search.js';
import { useSellerColumns } from '../lib/use-seller-columns.js';

const PAGE_SIZE = 25;

function readSort(params: URLSearchParams): SortState<PricingSortField> {
  const by = params.get('sort_by') ?? '';
  const dir = params.get('sort') ?? '';
  return {
    by: (PRICING_SORT_FIELDS as readonly string[]).includes(by) ? (by as PricingSortField) : 'index',
    dir: (SORT_DIRECTIONS as readonly string[]).includes(dir) ? (dir as SortDirection) : 'desc',
  };
}

/**
 * Navigation by e-commerce (seed 001 §2): my products against each selected competitor, with KPI cards,
 * 'Cargar más' by cursor, sorting by name / my price / index / difference; and the per-e-commerce
 * comparator. View, competitor and sort live in the URL next to the filters.
 */
export default function NavigationPage() {
  const [params, setParams] = useSearchParams();
  const { search, scope, currency, priceRange, preparing } = usePricingSearch({
    mpiValue: PRICING_PRICE_RANGE_MPI_VALUE,
  });
  useDropUnknownParams([
    oneOf('view', ['comparator', 'products']),
    oneOf('sort_by', PRICING_SORT_FIELDS),
    oneOf('sort', SORT_DIRECTIONS),
    { key: 'vs', ok: (raw) => /^[1-9]\d{0,9}$/.test(raw) },
  ]);
  const view = params.get('view') === 'comparator' ? 'comparator' : 'products';
  const versusId = Number(params.get('vs')) || null;
  const sort = readSort(params);
  const sellers = useSellerColumns(scope.filters);

  const kpi = useNavigationKpi(scope);
  const items = useNavigationItems(view === 'products' ? scope : { ...scope, filters: null }, {
    sort: sort.dir,
    sort_by: sort.by,
    page_size: PAGE_SIZE,
  });
  const blocked = !preparing && !scope.filters;

  const patch = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    setParams(next, { replace: true });
  };
  // A new sort makes a new query key: the list starts again from the first page (cursor reset).
  const onSort = (next: SortState<PricingSortField>) => patch({ sort_by: next.by, sort: next.dir });

  return (
    <Box>
      <PageHeader description={NAVIGATION_TEXT.description} />
      <Stack spacing={2}>
        <FilterPanel
          search={search}
          priceRange={priceRange}
          skusNotFound={kpi.data?.skus_not_found}
          busy={kpi.isFetching || items.isFetching}
        />
        {!blocked && (
          <>
            <PricingKpis
              data={kpi.data}
              loading={preparing || kpi.isPending}
              error={kpi.error}
              onRetry={() => void kpi.refetch()}
            />
            <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
              <Tabs
                value={view}
                onChange={(_, v: string) => patch({ view: v === 'comparator' ? 'comparator' : null })}
                aria-label="Vista"
                textColor="primary"
                indicatorColor="secondary"
              >
                <Tab
                  value="products"
                  label={NAVIGATION_TEXT.tabs.products}
                  id="nav-tab-products"
                  aria-controls="nav-panel"
                />
                <Tab
                  value="comparator"
                  label={NAVIGATION_TEXT.tabs.comparator}
                  id="nav-tab-comparator"
                  aria-controls="nav-panel"
                />
              </Tabs>
            </Box>
            <Box role="tabpanel" id="nav-panel" aria-labelledby={`nav-tab-${view}`}>
              {view === 'products' ? (
                <NavigationTable
                  query={items}
                  sellers={sellers}
                  sort={sort}
                  onSort={onSort}
                  currency={currency}
                  label="Precios por eCommerce"
                />
              ) : (
                <Comparator
                  scope={scope}
                  sellers={sellers}
                  currency={currency}
                  versusId={versusId}
                  onVersus={(id) => patch({ vs: id === null ? null : String(id) })}
                  sort={sort}
                  onSort={onSort}
                />
              )}
            </Box>
          </>
        )}
      </Stack>
    </Box>
  );
}
