import {
  FILTER_LABELS,
  filtersObject,
  formatDate,
  isCalendarDate,
  MPI_RANGE_LABELS,
  type PriceMode,
  type PricingTypeOption,
  parseSkus,
} from '@vigia/domain';
import { FILTER_TEXT, PRICE_MODE_LABELS, PRICE_TYPE_OPTION_LABELS } from './labels.js';

// The Filters keys, once: every key comes from the shared zod schema (packages/domain filters.ts) and is
// classified here exactly once — filled from the settings, the price range, a flag the panel shows as a
// price-type option, or a field of the panel's selection. Each panel field has one codec (how the URL
// carries it, how it is read — through the schema's own field —, counted and summarised); URL reading and
// writing, the active-filter count and the collapsed panel's summary loop over the codecs. A key added to
// the schema is a compile error here until it is classified (PanelKey gains it, FIELD_CODECS lacks it).

/** Every key of the shared Filters entity. */
export type FilterKey = keyof typeof filtersObject.shape;
/** Every Filters key, in the schema's order. */
export const FILTER_KEYS = Object.keys(filtersObject.shape) as FilterKey[];

/** Keys the screen fills from the settings (top bar, the screen's mpi_value); never in the URL. */
export const SETTINGS_KEYS = [
  'sellers',
  'pivot_id',
  'mpi_value',
  'non_linear',
] as const satisfies readonly FilterKey[];
/** The price range: in the URL only while active; the panel keeps it apart from the selection. */
export const PRICE_RANGE_KEYS = [
  'minPrice',
  'maxPrice',
  'minSetting',
  'maxSetting',
] as const satisfies readonly FilterKey[];
/** Request flags that the panel offers as options of its price-type selector. */
export const PRICE_TYPE_FLAGS = { match: 'MATCH', stockOut: 'STOCK_OUT' } as const satisfies Partial<
  Record<FilterKey, PricingTypeOption>
>;

type SettingsKey = (typeof SETTINGS_KEYS)[number];
export type PriceRangeKey = (typeof PRICE_RANGE_KEYS)[number];
type FlagKey = keyof typeof PRICE_TYPE_FLAGS;
/** The Filters keys the panel's selection holds. */
export type PanelKey = Exclude<FilterKey, SettingsKey | PriceRangeKey | FlagKey>;

/** Query-string keys that belong to the filter panel: every Filters key but the settings. */
export const FILTER_URL_KEYS: readonly FilterKey[] = FILTER_KEYS.filter(
  (k) => !(SETTINGS_KEYS as readonly string[]).includes(k),
);

/** A value read from a URL: what could be used, and the parts (as written) that could not. */
export interface ReadResult<V> {
  value: V;
  rejected: string[];
}

export interface FieldCodec<V> {
  /** Spanish name of the field (notices, summary). */
  label: string;
  /** The value of an unset field. */
  empty: V;
  /** Reads the URL's raw value through the schema's own field. */
  read(raw: string): ReadResult<V>;
  /** The URL's value ('' = the key is left out). */
  write(value: V): string;
  /** Counts as an applied filter (the panel's badge). */
  isActive(value: V): boolean;
  /** Short text for the collapsed panel; only called when active. */
  summary(value: V): string;
}

/** The schema's own parser of one Filters field (wire format: comma lists, 'true'/'1', numbers as text). */
export function filtersObjectField(key: FilterKey) {
  return filtersObject.shape[key];
}

/** Parses the whole raw value with the schema's field; undefined when the schema rejects it. */
function parseField(key: FilterKey, raw: string): { ok: boolean; data: unknown } {
  const r = filtersObjectField(key).safeParse(raw);
  return { ok: r.success, data: r.success ? r.data : undefined };
}

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

/** A list: every comma item is read on its own with the schema's field (a list of one), bad items dropped. */
function listCodec<T extends string | number>(
  key: FilterKey,
  label: string,
  summary: (items: T[]) => string,
  extra: readonly T[] = [],
): FieldCodec<T[]> {
  /** One item: an extra option as written, else what the schema makes of a list of one. */
  const readItem = (item: string): T | undefined => {
    if ((extra as readonly string[]).includes(item)) return item as T;
    const r = parseField(key, item);
    return r.ok && Array.isArray(r.data) && r.data.length === 1 ? (r.data[0] as T) : undefined;
  };
  return {
    label,
    empty: [],
    read(raw) {
      const value: T[] = [];
      const rejected: string[] = [];
      for (const item of raw.split(',').map((s) => s.trim())) {
        if (!item) continue;
        const parsed = readItem(item);
        if (parsed === undefined) rejected.push(item);
        else if (!value.includes(parsed)) value.push(parsed);
      }
      return { value, rejected };
    },
    write: (v) => v.join(','),
    isActive: (v) => v.length > 0,
    summary,
  };
}

const idList = (key: FilterKey, label: string, one: string, many: string) =>
  listCodec<number>(key, label, (v) => plural(v.length, one, many));

/** A single value the schema parses whole; `check` adds what the schema's shape check cannot see. */
function valueCodec<V>(
  key: FilterKey,
  label: string,
  empty: V,
  opts: {
    check?: (v: V) => boolean;
    write?: (v: V) => string;
    summary: (v: V) => string;
  },
): FieldCodec<V> {
  return {
    label,
    empty,
    read(raw) {
      if (raw.trim() === '') return { value: empty, rejected: [] };
      const r = parseField(key, raw);
      const v = r.data as V | undefined;
      if (!r.ok || v === undefined || (opts.check && !opts.check(v)))
        return { value: empty, rejected: [raw] };
      return { value: v, rejected: [] };
    },
    write: opts.write ?? ((v) => (v === empty ? '' : String(v))),
    isActive: (v) => v !== empty,
    summary: opts.summary,
  };
}

/** A day yyyy-MM-dd that exists in the calendar (the schema checks only the shape). */
const dateCodec = (key: 'from_date' | 'to_date') =>
  valueCodec<string>(key, FILTER_LABELS[key], '', {
    check: (v) => isCalendarDate(v),
    summary: (v) => `${FILTER_LABELS[key]} ${formatDate(v)}`,
  });

/** SKUs as pasted: the URL carries the understood tokens; the others are reported. */
const skusCodec: FieldCodec<string> = {
  label: FILTER_LABELS.SKUs,
  empty: '',
  read(raw) {
    const tokens = raw.split(/[\s,]+/u).filter(Boolean);
    const value = parseSkus(raw);
    return { value: value.join('\n'), rejected: tokens.filter((t) => !value.includes(t)) };
  },
  write: (v) => parseSkus(v).join(','),
  isActive: (v) => parseSkus(v).length > 0,
  summary: (v) => plural(parseSkus(v).length, 'SKU', 'SKUs'),
};

/**
 * The panel's fields, one codec each, in the order the summary lists them. Typed per key: the selection's
 * value types follow from here (PanelSelection).
 */
export const FIELD_CODECS = {
  classificationsIds: idList(
    'classificationsIds',
    FILTER_LABELS.classificationsIds,
    'clasificación',
    'clasificaciones',
  ),
  categories: idList('categories', FILTER_LABELS.categories, 'categoría', 'categorías'),
  brands: idList('brands', FILTER_LABELS.brands, 'marca', 'marcas'),
  ownBrands: valueCodec<boolean>('ownBrands', FILTER_TEXT.ownBrands, false, {
    write: (v) => (v ? 'true' : ''),
    summary: () => FILTER_TEXT.ownBrands,
  }),
  sellersIds: idList('sellersIds', FILTER_LABELS.sellersIds, 'eCommerce', 'eCommerce'),
  SKUs: skusCodec,
  metaSearch: valueCodec<string>('metaSearch', FILTER_LABELS.metaSearch, '', {
    write: (v) => v.trim(),
    summary: (v) => `“${v.trim()}”`,
  }),
  price_type: listCodec<PricingTypeOption>(
    'price_type',
    FILTER_TEXT.priceType,
    (v) => v.map((t) => PRICE_TYPE_OPTION_LABELS[t]).join(', '),
    Object.values(PRICE_TYPE_FLAGS),
  ),
  mpi_range: listCodec<keyof typeof MPI_RANGE_LABELS>('mpi_range', FILTER_TEXT.priceIndex, (v) =>
    v.map((r) => MPI_RANGE_LABELS[r]).join(', '),
  ),
  currency: valueCodec<string>('currency', FILTER_LABELS.currency, '', { summary: (v) => v }),
  priceMode: valueCodec<PriceMode | ''>('priceMode', FILTER_TEXT.priceMode, '', {
    summary: (v) => (v ? PRICE_MODE_LABELS[v] : ''),
  }),
  from_date: dateCodec('from_date'),
  to_date: dateCodec('to_date'),
} satisfies { [K in PanelKey]: FieldCodec<unknown> };

type CodecValue<C> = C extends FieldCodec<infer V> ? V : never;

/** The part of the Filters the panel edits (settings — pivot, sellers — come from the top bar). */
export type PanelSelection = { -readonly [K in PanelKey]: CodecValue<(typeof FIELD_CODECS)[K]> };

/** The panel's fields, in the codecs' order. */
export const PANEL_KEYS = Object.keys(FIELD_CODECS) as PanelKey[];

export function codecOf<K extends PanelKey>(key: K): FieldCodec<PanelSelection[K]> {
  return FIELD_CODECS[key] as unknown as FieldCodec<PanelSelection[K]>;
}

export const EMPTY_SELECTION: PanelSelection = Object.fromEntries(
  PANEL_KEYS.map((k) => [k, codecOf(k).empty]),
) as PanelSelection;
