import { Box, Stack } from '@mui/material';
import { DPM_DEFAULTS } from '@vigia/domain';
import { useLocation } from 'react-router';
import { FilterPanel } from '../../../components/filters/index.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import type { DpmGroupKind } from '../api/keys.js';
import { useDpmGroups, useDpmKpi } from '../api/queries.js';
import { DpmGroupsTable } from '../components/DpmGroupsTable.js';
import { PricingKpis } from '../components/PricingKpis.js';
import { DPM_SCREENS } from '../lib/texts.js';
import { usePricingSearch } from '../lib/use-pricing-search.js';
import { useSellerColumns } from '../lib/use-seller-columns.js';

/** The DPM group of a path ('/app/dpm-by-classification' → 'classification'). */
export function dpmGroupOf(pathname: string): DpmGroupKind {
  const found = (Object.entries(DPM_SCREENS) as [DpmGroupKind, { path: string }][]).find(([, s]) =>
    pathname.replace(/\/+$/, '').endsWith(`/${s.path}`),
  );
  return found?.[0] ?? 'brand';
}

/**
 * DPM (dynamic price monitoring) by brand, by classification or by e-commerce (seed 001 §2): filters →
 * KPI cards and the index split → the groups, each opening its products.
 */
export default function DpmPage({ group: groupProp }: { group?: DpmGroupKind }) {
  const { pathname } = useLocation();
  const group = groupProp ?? dpmGroupOf(pathname);
  const screen = DPM_SCREENS[group];
  const { search, scope, currency, priceRange, preparing } = usePricingSearch({
    mpiValue: DPM_DEFAULTS.dpmValue,
  });
  const kpi = useDpmKpi(scope);
  const groups = useDpmGroups(group, scope);
  const sellers = useSellerColumns(scope.filters);
  const blocked = !preparing && !scope.filters; // invalid filters: nothing was requested

  return (
    <Box>
      <PageHeader description={screen.description} />
      <Stack spacing={2}>
        <FilterPanel
          search={search}
          priceRange={priceRange}
          skusNotFound={kpi.data?.skus_not_found}
          busy={kpi.isFetching || groups.isFetching}
        />
        {!blocked && (
          <>
            <PricingKpis
              data={kpi.data}
              loading={preparing || kpi.isPending}
              error={kpi.error}
              onRetry={() => void kpi.refetch()}
            />
            <DpmGroupsTable
              key={`${group}:${search.urlKey}`}
              group={group}
              data={groups.data}
              loading={preparing || groups.isPending}
              error={groups.error}
              onRetry={() => {
                void groups.refetch();
                if (kpi.isError) void kpi.refetch();
              }}
              scope={scope}
              currency={currency}
              sellers={sellers}
              selectedClassifications={search.url.selection.classificationsIds}
            />
          </>
        )}
      </Stack>
    </Box>
  );
}
