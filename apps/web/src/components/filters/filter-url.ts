import {
  FILTER_LABELS,
  type FilterError,
  type FilterSelection,
  isCalendarDate as isCalendarDay,
  MPI_RANGES,
  type MpiRange,
  PRICE_MODES,
  PRICING_TYPE_OPTIONS,
  type PriceMode,
  type PriceRangeState,
  type PricingTypeOption,
  parseSkus,
} from '@vigia/domain';

// Filters live in the URL (ARCHITECTURE.md "Web"): a view can be shared and reloaded. The query string
// holds the panel's selection with the Filters' own names (lists as comma lists, like the GET wire
// format), the price range only when it is active. Screen-specific parameters (sort, page size, tab…)
// share the query string; the functions below touch only the filter keys.

/** Query-string keys that belong to the filter panel. */
export const FILTER_URL_KEYS = [
  'classificationsIds',
  'categories',
  'brands',
  'ownBrands',
  'sellersIds',
  'SKUs',
  'metaSearch',
  'currency',
  'from_date',
  'to_date',
  'price_type',
  'mpi_range',
  'priceMode',
  'minPrice',
  'maxPrice',
  'minSetting',
  'maxSetting',
] as const;

/** The part of the Filters the panel edits (settings — pivot, sellers — come from the top bar). */
export interface PanelSelection {
  classificationsIds: number[];
  categories: number[];
  brands: number[];
  ownBrands: boolean;
  /** Competitors picked in the panel; empty = the user's selected sellers (top bar). */
  sellersIds: number[];
  /** As typed or pasted; split with parseSkus when sent. */
  SKUs: string;
  metaSearch: string;
  /** Empty = the user's currency (top bar). */
  currency: string;
  from_date: string;
  to_date: string;
  price_type: PricingTypeOption[];
  mpi_range: MpiRange[];
  /** Empty = the screen's default price mode. */
  priceMode: PriceMode | '';
}

export const EMPTY_SELECTION: PanelSelection = {
  classificationsIds: [],
  categories: [],
  brands: [],
  ownBrands: false,
  sellersIds: [],
  SKUs: '',
  metaSearch: '',
  currency: '',
  from_date: '',
  to_date: '',
  price_type: [],
  mpi_range: [],
  priceMode: '',
};

/** The price range as the URL carries it: present only when active. */
export interface UrlPriceRange {
  minPrice: number;
  maxPrice: number;
  minSetting?: number;
  maxSetting?: number;
}

export interface UrlFilters {
  selection: PanelSelection;
  priceRange: UrlPriceRange | null;
}

const ids = (v: string | null): number[] =>
  (v ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);

const oneOf = <T extends string>(allowed: readonly T[], v: string | null): T[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s): s is T => (allowed as readonly string[]).includes(s));

const num = (v: string | null): number | undefined => {
  if (v === null || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/**
 * Reads the panel's selection from a query string. Unknown values are dropped, except dates, which are
 * kept as written so that validation can mark them (a shared link with a bad date shows the error).
 */
export function readUrlFilters(params: URLSearchParams): UrlFilters {
  const priceTypes = oneOf(PRICING_TYPE_OPTIONS, params.get('price_type'));
  // The flags may also arrive in the request form (match=true / stockOut=true).
  if (params.get('match') === 'true' && !priceTypes.includes('MATCH')) priceTypes.push('MATCH');
  if (params.get('stockOut') === 'true' && !priceTypes.includes('STOCK_OUT')) priceTypes.push('STOCK_OUT');
  const mode = params.get('priceMode') ?? '';
  const selection: PanelSelection = {
    classificationsIds: ids(params.get('classificationsIds')),
    categories: ids(params.get('categories')),
    brands: ids(params.get('brands')),
    ownBrands: params.get('ownBrands') === 'true' || params.get('ownBrands') === '1',
    sellersIds: ids(params.get('sellersIds')),
    SKUs: parseSkus(params.get('SKUs') ?? '').join('\n'),
    metaSearch: (params.get('metaSearch') ?? '').slice(0, 200),
    currency: (params.get('currency') ?? '').trim().toUpperCase().slice(0, 3),
    from_date: (params.get('from_date') ?? '').slice(0, 10),
    to_date: (params.get('to_date') ?? '').slice(0, 10),
    price_type: priceTypes,
    mpi_range: oneOf(MPI_RANGES, params.get('mpi_range')),
    priceMode: (PRICE_MODES as readonly string[]).includes(mode) ? (mode as PriceMode) : '',
  };
  const minPrice = num(params.get('minPrice'));
  const maxPrice = num(params.get('maxPrice'));
  const priceRange =
    minPrice !== undefined && maxPrice !== undefined
      ? {
          minPrice,
          maxPrice,
          minSetting: num(params.get('minSetting')),
          maxSetting: num(params.get('maxSetting')),
        }
      : null;
  return { selection, priceRange };
}

/**
 * Writes the selection into a copy of `current`: filter keys are replaced (empty ones removed), other
 * keys are kept except those in `drop` (e.g. the cursor, which a new search resets).
 */
export function writeUrlFilters(
  current: URLSearchParams,
  filters: UrlFilters,
  drop: readonly string[] = [],
): URLSearchParams {
  const next = new URLSearchParams();
  const owned = new Set<string>([...FILTER_URL_KEYS, 'match', 'stockOut', ...drop]);
  for (const [k, v] of current) if (!owned.has(k)) next.append(k, v);
  const s = filters.selection;
  const set = (k: string, v: string) => {
    if (v !== '') next.set(k, v);
  };
  set('classificationsIds', s.classificationsIds.join(','));
  set('categories', s.categories.join(','));
  set('brands', s.brands.join(','));
  if (s.ownBrands) next.set('ownBrands', 'true');
  set('sellersIds', s.sellersIds.join(','));
  set('SKUs', parseSkus(s.SKUs).join(','));
  set('metaSearch', s.metaSearch.trim());
  set('currency', s.currency);
  set('from_date', s.from_date);
  set('to_date', s.to_date);
  set('price_type', s.price_type.join(','));
  set('mpi_range', s.mpi_range.join(','));
  set('priceMode', s.priceMode);
  const r = filters.priceRange;
  if (r) {
    next.set('minPrice', String(Math.floor(r.minPrice)));
    next.set('maxPrice', String(Math.ceil(r.maxPrice)));
    if (r.minSetting !== undefined) next.set('minSetting', String(Math.floor(r.minSetting)));
    if (r.maxSetting !== undefined) next.set('maxSetting', String(Math.ceil(r.maxSetting)));
  }
  return next;
}

/** Removes every filter key (the 'Limpiar' button), keeping the screen's own parameters minus `drop`. */
export function clearUrlFilters(current: URLSearchParams, drop: readonly string[] = []): URLSearchParams {
  return writeUrlFilters(current, { selection: EMPTY_SELECTION, priceRange: null }, drop);
}

/** How many filters of a selection are set (for the panel's badge). */
export function countActiveFilters(f: UrlFilters): number {
  const s = f.selection;
  return (
    [
      s.classificationsIds.length,
      s.categories.length,
      s.brands.length,
      s.ownBrands,
      s.sellersIds.length,
      parseSkus(s.SKUs).length,
      s.metaSearch.trim(),
      s.currency,
      s.from_date,
      s.to_date,
      s.price_type.length,
      s.mpi_range.length,
      s.priceMode,
    ].filter(Boolean).length + (f.priceRange ? 1 : 0)
  );
}

/** The defaults the panel falls back to, from the user's settings and the screen. */
export interface SelectionDefaults {
  currency: string;
  sellers: readonly number[];
  pivotId: number | null;
  priceMode: PriceMode;
  mpiValue?: number;
}

/**
 * The FilterSelection of a search (input of buildPricingQuery / validateFilters): the panel's choice
 * completed with the settings. The competitors are the panel's pick, else the top bar's; both `sellers`
 * and `sellersIds` carry them, so that an emptied list fails validation as 'eCommerce'.
 */
export function toFilterSelection(s: PanelSelection, d: SelectionDefaults): FilterSelection {
  const competitors = s.sellersIds.length ? s.sellersIds : [...d.sellers];
  return {
    classificationsIds: s.classificationsIds,
    categories: s.categories,
    brands: s.brands,
    ownBrands: s.ownBrands || undefined,
    sellersIds: competitors,
    sellers: competitors,
    SKUs: s.SKUs,
    metaSearch: s.metaSearch,
    currency: s.currency || d.currency,
    from_date: s.from_date,
    to_date: s.to_date,
    pivot_id: d.pivotId ?? undefined,
    price_type: s.price_type,
    mpi_range: s.mpi_range,
    mpi_value: d.mpiValue,
    priceMode: s.priceMode || d.priceMode,
  };
}

/** The price-range state (seed 001 §4) of a screen from the URL and the scores the server offers. */
export function priceRangeState(
  url: UrlPriceRange | null,
  scores: { min: number; max: number } | null | undefined,
  pending: boolean,
): PriceRangeState {
  if (!scores) {
    // Not loaded (yet): a range from a shared link is still honoured.
    return url
      ? {
          pending,
          ready: true,
          active: true,
          ...url,
          minSetting: url.minSetting ?? url.minPrice,
          maxSetting: url.maxSetting ?? url.maxPrice,
        }
      : { pending, ready: false, active: false };
  }
  const minSetting = Math.floor(scores.min);
  const maxSetting = Math.ceil(scores.max);
  if (!url)
    return {
      pending,
      ready: true,
      active: false,
      minSetting,
      maxSetting,
      minPrice: minSetting,
      maxPrice: maxSetting,
    };
  return {
    pending,
    ready: true,
    active: true,
    minSetting,
    maxSetting,
    minPrice: url.minPrice,
    maxPrice: url.maxPrice,
  };
}

/** True for a real calendar day written exactly yyyy-MM-dd (2025-02-30 is not). */
export function isCalendarDate(value: string): boolean {
  return value.length === 10 && isCalendarDay(value);
}

/**
 * Dates that are not real days (a hand-edited or old link). The shared schema only checks the
 * yyyy-MM-dd shape; a day like 2025-13-45 must not reach the server either.
 */
export function dateErrors(s: Pick<PanelSelection, 'from_date' | 'to_date'>): FilterError[] {
  const out: FilterError[] = [];
  for (const field of ['from_date', 'to_date'] as const) {
    const v = s[field];
    if (v && !isCalendarDate(v))
      out.push({ field, label: FILTER_LABELS[field], message: `${FILTER_LABELS[field]}: fecha inválida` });
  }
  return out;
}
