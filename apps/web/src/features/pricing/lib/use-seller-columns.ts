import type { Filters } from '@vigia/domain';
import { useMemo } from 'react';
import { useLicense } from '../../../lib/license.js';
import type { SellerColumn } from '../components/DpmItemsTable.js';

/** The competitor columns of a search: the filters' competitors, named and coloured from the license. */
export function useSellerColumns(filters: Filters | null): SellerColumn[] {
  const { sellers } = useLicense();
  const ids = filters?.sellersIds?.length ? filters.sellersIds : (filters?.sellers ?? []);
  const key = ids.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for ids
  return useMemo(() => {
    const byId = new Map(sellers.map((s) => [s.id, s]));
    return ids
      .map((id) => {
        const s = byId.get(id);
        return { id, name: s?.name ?? `eCommerce ${id}`, color: s?.color };
      })
      .sort((a, b) => a.name.localeCompare(b.name, 'es'));
  }, [key, sellers]);
}
