import type { DpmGroupsResponse, Filters, PricingSortField, SortDirection } from '@vigia/domain';
import type { settingsKey } from '../../../lib/settings.js';

// Query keys of the pricing screens. Each key carries the user's settings (pivot, currency, selected
// sellers) and the validated filters, so a change in the top bar or a new search re-runs the request.

export type SettingsKey = ReturnType<typeof settingsKey>;
export type DpmGroupKind = DpmGroupsResponse['group'];

export interface ItemsPaging {
  sort: SortDirection;
  sort_by: PricingSortField;
  page_size: number;
  cursor?: string;
}

/** Restriction of the DPM items to one group's products. */
export interface GroupRestriction {
  group: DpmGroupKind;
  id: number;
}

export const pricingKeys = {
  all: ['pricing'] as const,
  dpm: () => ['pricing', 'dpm'] as const,
  dpmKpi: (s: SettingsKey, f: Filters) => ['pricing', 'dpm', 'kpi', s, f] as const,
  dpmGroups: (group: DpmGroupKind, s: SettingsKey, f: Filters) =>
    ['pricing', 'dpm', 'groups', group, s, f] as const,
  dpmItems: (r: GroupRestriction, s: SettingsKey, f: Filters, p: ItemsPaging) =>
    ['pricing', 'dpm', 'items', r.group, r.id, s, f, p] as const,
  navigation: () => ['pricing', 'navigation'] as const,
  navigationKpi: (s: SettingsKey, f: Filters) => ['pricing', 'navigation', 'kpi', s, f] as const,
  navigationItems: (s: SettingsKey, f: Filters, p: Omit<ItemsPaging, 'cursor'>) =>
    ['pricing', 'navigation', 'items', s, f, p] as const,
  comparatorSummary: (s: SettingsKey, f: Filters) => ['pricing', 'navigation', 'summary', s, f] as const,
  comparatorItems: (sellerId: number, s: SettingsKey, f: Filters, p: Omit<ItemsPaging, 'cursor'>) =>
    ['pricing', 'navigation', 'comparator', sellerId, s, f, p] as const,
  priceRange: (s: SettingsKey, f: Filters) => ['pricing', 'price-range', s, f] as const,
};
