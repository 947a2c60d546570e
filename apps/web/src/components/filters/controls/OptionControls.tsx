import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { licenseQueries, useLicense, useLicenseBrands } from '../../../lib/license.js';
import { FILTER_TEXT } from '../labels.js';
import { type FieldOption, OptionsField } from '../OptionsField.js';
import { flattenTree } from '../tree-options.js';
import type { FilterPanelState } from '../use-filter-panel.js';

// The multi-select filters: each loads its own options (only when the screen shows it).

export function ClassificationsControl({ panel }: { panel: FilterPanelState }) {
  const classifications = useQuery(licenseQueries.classificationTree());
  const options = useMemo<FieldOption[]>(
    () =>
      flattenTree(classifications.data ?? []).map((o) => ({
        id: o.id,
        label: o.name,
        depth: o.depth,
        path: o.path,
        ancestors: o.ancestors,
      })),
    [classifications.data],
  );
  return (
    <OptionsField
      id={panel.idOf('classifications')}
      label={FILTER_TEXT.classifications}
      tree
      options={options}
      loading={classifications.isPending}
      value={panel.draft.classificationsIds}
      onChange={(v) => panel.setField('classificationsIds', v)}
      error={panel.errors.classificationsIds}
      placeholder="Todas"
    />
  );
}

export function CategoriesControl({ panel }: { panel: FilterPanelState }) {
  const license = useLicense();
  const categories = useQuery(licenseQueries.categoryTree());
  const options = useMemo<FieldOption[]>(() => {
    const sellerName = new Map(license.sellers.map((s) => [s.id, s.name]));
    const roots = [...(categories.data ?? [])].sort(
      (a, b) =>
        (sellerName.get(a.seller_id) ?? '').localeCompare(sellerName.get(b.seller_id) ?? '', 'es') ||
        a.name.localeCompare(b.name, 'es'),
    );
    return flattenTree(roots, (r) => sellerName.get(r.seller_id) ?? `eCommerce ${r.seller_id}`).map((o) => ({
      id: o.id,
      label: o.name,
      depth: o.depth,
      path: `${o.group} · ${o.path}`,
      ancestors: o.ancestors,
      group: o.group,
    }));
  }, [categories.data, license.sellers]);
  return (
    <OptionsField
      id={panel.idOf('categories')}
      label={FILTER_TEXT.categories}
      tree
      options={options}
      loading={categories.isPending}
      value={panel.draft.categories}
      onChange={(v) => panel.setField('categories', v)}
      error={panel.errors.categories}
      placeholder="Todas"
    />
  );
}

/** Brands sold by the pivot and the competitors shown in the panel; the license's own brands first. */
export function BrandsControl({ panel }: { panel: FilterPanelState }) {
  const { pivotId } = panel.search.defaults;
  const sellers = useMemo(
    () => (pivotId ? [pivotId, ...panel.competitors] : [...panel.competitors]),
    [pivotId, panel.competitors],
  );
  const brands = useLicenseBrands(sellers);
  const options = useMemo<FieldOption[]>(
    () =>
      [...(brands.data ?? [])]
        .sort((a, b) => Number(b.own) - Number(a.own) || a.name.localeCompare(b.name, 'es'))
        .map((b) => ({ id: b.id, label: b.name, badge: b.own ? 'Propia' : undefined })),
    [brands.data],
  );
  return (
    <OptionsField
      id={panel.idOf('brands')}
      label={FILTER_TEXT.brands}
      options={options}
      loading={brands.isFetching}
      value={panel.draft.brands}
      onChange={(v) => panel.setField('brands', v)}
      error={panel.errors.brands}
      placeholder="Todas"
    />
  );
}

/** The competitors (the license's sellers but the pivot), grouped by country. */
export function SellersControl({ panel }: { panel: FilterPanelState }) {
  const license = useLicense();
  const { pivotId } = panel.search.defaults;
  const countryName = useMemo(() => {
    const m = new Map<string, string>();
    for (const c of license.sellersByCountries)
      m.set(c.country, `${c.country_flag} ${c.country_name}`.trim());
    return m;
  }, [license.sellersByCountries]);
  const options = useMemo<FieldOption[]>(
    () =>
      license.sellers
        .filter((s) => s.id !== pivotId)
        .map((s) => ({ id: s.id, label: s.name, group: countryName.get(s.country) ?? s.country }))
        .sort((a, b) => (a.group ?? '').localeCompare(b.group ?? '') || a.label.localeCompare(b.label, 'es')),
    [license.sellers, pivotId, countryName],
  );
  return (
    <OptionsField
      id={panel.idOf('sellers')}
      label={FILTER_TEXT.sellers}
      options={options}
      loading={!license.loaded}
      value={panel.competitors}
      onChange={panel.setCompetitors}
      error={panel.errors.sellersIds}
      placeholder="Elige al menos un eCommerce"
    />
  );
}
