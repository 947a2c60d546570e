import { z } from 'zod';
import { shortText } from './common.js';
import { PRICE_MODES, PRICE_TYPES, type PriceType } from './constants.js';
import { calendarDay } from './dates.js';

// The seed's shared Filters entity (001 §3) — one schema for every search flow (pricing, assortment,
// promotions, …), used by the server routes (body of POST, querystring of GET) and by the web client.
//
// Wire format (same names as the seed):
//  - POST bodies: JSON; lists are JSON arrays (`"sellersIds": [5, 7]`).
//  - GET querystrings: lists are COMMA LISTS (`sellersIds=5,7`). Repeated parameters
//    (`sellersIds=5&sellersIds=7`) are accepted too. Use `filtersToSearchParams` to build them.
//  - Booleans: `true|false|1|0` in querystrings, JSON booleans in bodies. Numbers may be strings.
//  - Empty values (`''`, `[]`) mean "no filter" and are dropped.
//
// Semantics (docs/metrics.md, "Filters"): every filter restricts the PIVOT's listings, except
// `sellersIds`/`sellers` which choose the competitors they are compared with.

// ───────────────────────────── pure helpers ─────────────────────────────

/** Characters allowed in a SKU token (seed 001 §5): letters, digits and _ @ . / # & + - */
const SKU_TOKEN = /^[\p{L}\p{N}_@./#&+-]+$/u;

/**
 * Splits SKU text pasted from a spreadsheet into product ids (seed 001 §5): splits on whitespace and
 * commas, drops empty tokens and tokens containing any character other than letters, digits and
 * `_ @ . / # & + -`. Duplicates are removed, order kept.
 */
export function parseSkus(text: string | null | undefined): string[] {
  if (!text) return [];
  const seen = new Set<string>(); // linear in the text: no list scan per token
  for (const token of text.split(/[\s,]+/u)) {
    if (token && SKU_TOKEN.test(token)) seen.add(token);
  }
  return [...seen];
}

/** Most SKUs one search may hold, and the longest SKU text (raw, before splitting) a request may send. */
export const SKUS_MAX = 5000;
export const SKUS_TEXT_MAX = 100_000;

/** The price range as sent (seed 001 §5): the minimum is floored and the maximum is ceiled. */
export function roundPriceRange<T extends { min?: number | null; max?: number | null }>(range: T): T {
  return {
    ...range,
    min: range.min === null || range.min === undefined ? range.min : Math.floor(range.min),
    max: range.max === null || range.max === undefined ? range.max : Math.ceil(range.max),
  };
}

// ───────────────────────────── wire preprocessors ─────────────────────────────

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** Comma list / repeated params / JSON array → array of trimmed non-empty items. */
function toList(v: unknown): unknown {
  if (v === undefined || v === null || v === '') return undefined;
  const items = Array.isArray(v) ? v : [v];
  return items
    .flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]))
    .map((x) => (typeof x === 'string' ? x.trim() : x))
    .filter((x) => x !== '' && x !== null && x !== undefined);
}

function toBool(v: unknown): unknown {
  if (v === '' || v === null || v === undefined) return undefined;
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  return v;
}

const id = z.coerce.number().int().positive().max(2_147_483_647);
/** Longest text of one comma-list item with its comma (ids have at most 10 digits; enum words are short). */
const LIST_ITEM_CHARS = 40;

/** A list in the wire format above (comma list or repeated param in GET; array in POST). */
export const listParam = <T extends z.ZodType>(item: T, max = 1000) =>
  z
    .preprocess(
      // A comma list longer than `max` items could possibly be is not split (it fails as a non-list):
      // the raw text is bounded before any work on it.
      (v) => (typeof v === 'string' && v.length > max * LIST_ITEM_CHARS ? v : toList(v)),
      z.array(item).max(max).optional(),
    )
    .optional();
/** A boolean flag in the wire format above. */
export const flagParam = () => z.preprocess(toBool, z.boolean().optional()).optional();
/** An optional number in the wire format above (`''` = absent). */
export const numberParam = (min: number, max: number, opts: { int?: boolean } = {}) => {
  const n = z.coerce.number().min(min).max(max); // bounds on the coerced value: they reach OpenAPI
  return z.preprocess(blankToUndefined, (opts.int ? n.int() : n).optional()).optional();
};

/** A calendar-checked day (dates.ts), cut to 10 characters (seed 001 §9); '' = absent. */
const dateParam = z.preprocess(blankToUndefined, calendarDay.optional()).optional();

// ───────────────────────────── the schema ─────────────────────────────

/** Price-index buckets (PRODUCT.md): cheapest ≤ 100 < in_range ≤ 100 + mpi_value < dearer. */
export const MPI_RANGES = ['cheapest', 'in_range', 'dearer'] as const;
export type MpiRange = (typeof MPI_RANGES)[number];
export const MPI_RANGE_LABELS: Record<MpiRange, string> = {
  cheapest: 'Más barato',
  in_range: 'En rango',
  dearer: 'Más caro',
};

/** Field labels used in validation messages (seed 001 §5 names 'Divisa', 'eCommerce', 'Clasificaciones'). */
export const FILTER_LABELS = {
  currency: 'Divisa',
  sellers: 'eCommerce',
  sellersIds: 'eCommerce',
  classificationsIds: 'Clasificaciones',
  categories: 'Categorías',
  brands: 'Marcas',
  SKUs: 'SKUs',
  metaSearch: 'Búsqueda',
  minPrice: 'Precio mínimo',
  maxPrice: 'Precio máximo',
  from_date: 'Desde',
  to_date: 'Hasta',
  pivot_id: 'Pivote',
  mpi_value: 'Rango de mercado',
} as const;

/**
 * The shape of the shared Filters entity, without cross-field checks (so that endpoint schemas can
 * `.extend()` it; wrap the result with `withFilterChecks`).
 */
export const filtersObject = z.object({
  /** v2_classification node ids; a node selects its whole subtree. */
  classificationsIds: listParam(id),
  /** v2_category_tree node ids (the sellers' own trees); a node selects its subtree. */
  categories: listParam(id),
  /** Brand ids (see /v2/navigation/dpm/brandFilterOptions/). */
  brands: listParam(id),
  /** true: only products of the license's own brands. */
  ownBrands: flagParam(),
  /** Competitor sellers picked in the filter panel (a subset of `sellers`). Outside the license → 403. */
  sellersIds: listParam(id, 200),
  /**
   * Seller product ids / SKUs. A string is split with `parseSkus` (whitespace and commas; invalid
   * tokens dropped); an array's items are split the same way. Matches products.product_id or sku.
   */
  SKUs: z
    // Bounded as sent (text length, list size) before any splitting, so the work is linear and small.
    .union([z.string().max(SKUS_TEXT_MAX), z.array(z.string().max(100)).max(SKUS_MAX)])
    .nullable()
    .optional()
    .transform((v) =>
      v === undefined || v === null ? undefined : (Array.isArray(v) ? v : [v]).flatMap(parseSkus),
    )
    .pipe(z.array(z.string().max(100)).max(SKUS_MAX).optional()),
  /** Free text: every word must appear in the product name, brand, sku, product id or EAN (accent-insensitive). */
  metaSearch: z.preprocess(blankToUndefined, shortText(200).optional()).optional(),
  /** Currency acronym prices are shown in (conversion through fx_rates). Outside the license → 403. */
  currency: z
    .preprocess(
      blankToUndefined,
      z
        .string()
        .max(10)
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{3}$/, 'divisa inválida')
        .optional(),
    )
    .optional(),
  /** The user's selected sellers (session preference). Competitors = sellersIds ∩ … see docs/metrics.md. */
  sellers: listParam(id, 200),
  /** Price range slider: bounds offered (settings) and the selected range, in `currency`. */
  minSetting: numberParam(0, 1e12),
  maxSetting: numberParam(0, 1e12),
  minPrice: numberParam(0, 1e12),
  maxPrice: numberParam(0, 1e12),
  /** Observation window (yyyy-MM-dd, America/Santiago days, inclusive). Default: the latest crawl. */
  from_date: dateParam,
  to_date: dateParam,
  /** Pivot seller; default the X-Pivot-Id header, else the user's pivot. Outside the license → 403. */
  pivot_id: numberParam(1, 2_147_483_647, { int: true }),
  /** Pivot's current price type(s). MATCH and STOCK_OUT are NOT price types: use `match`/`stockOut`. */
  price_type: listParam(z.enum(PRICE_TYPES), 4),
  /** Width of the market range of the price index (default per endpoint: DPM 10, navigation 5). */
  mpi_value: numberParam(0, 1000),
  /** Only products whose price index falls in these buckets. */
  mpi_range: listParam(z.enum(MPI_RANGES), 3),
  /** Detail/history screens: time axis by observation instead of by calendar. No effect on pricing. */
  non_linear: flagParam(),
  /** true: only pivot products out of stock (the STOCK_OUT option). */
  stockOut: flagParam(),
  /** true: only pivot products with at least one matched competitor listing (the MATCH option). */
  match: flagParam(),
  /** Which prices count in the effective price (docs/metrics.md). Default NORMAL_SALE_EXCLUSIVE_PRICE. */
  priceMode: z.preprocess(blankToUndefined, z.enum(PRICE_MODES).optional()).optional(),
});

export type Filters = z.output<typeof filtersObject>;
/** What a client may send (before coercion): strings for numbers, comma lists, … */
export type FiltersInput = z.input<typeof filtersObject>;

/** Cross-field checks of the Filters (price range order, date order); `field` names the culprit. */
export function checkFilters(
  f: Pick<Filters, 'minPrice' | 'maxPrice' | 'minSetting' | 'maxSetting' | 'from_date' | 'to_date'>,
): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  if (f.minPrice !== undefined && f.maxPrice !== undefined && f.minPrice > f.maxPrice)
    issues.push({ field: 'maxPrice', message: 'el precio máximo es menor que el mínimo' });
  if (f.minSetting !== undefined && f.maxSetting !== undefined && f.minSetting > f.maxSetting)
    issues.push({ field: 'maxSetting', message: 'el máximo del rango es menor que el mínimo' });
  if (f.from_date && f.to_date && f.from_date > f.to_date)
    issues.push({ field: 'to_date', message: 'la fecha final es anterior a la inicial' });
  return issues;
}

/** Adds the cross-field checks to Filters or to an endpoint schema that extends `filtersObject`. */
export function withFilterChecks<T extends z.ZodType<Partial<Filters>>>(schema: T) {
  return schema.superRefine((f, ctx) => {
    for (const i of checkFilters(f)) ctx.addIssue({ code: 'custom', path: [i.field], message: i.message });
  });
}

/** The shared Filters entity (seed 001 §3). */
export const filtersSchema = withFilterChecks(filtersObject);

/** Builds querystring parameters for a GET endpoint: lists as comma lists, absent/empty values dropped. */
export function filtersToSearchParams(query: Record<string, unknown>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length) params.set(key, value.join(','));
    } else params.set(key, String(value));
  }
  return params;
}

// ───────────────────────────── search flow (seed 001 §4, §5) ─────────────────────────────

/** Options of the pricing price-type selector: the four price types plus the MATCH and STOCK_OUT flags. */
export const PRICING_TYPE_OPTIONS = [...PRICE_TYPES, 'MATCH', 'STOCK_OUT'] as const;
export type PricingTypeOption = (typeof PRICING_TYPE_OPTIONS)[number];

/** The price-range state of a screen (seed 001 §4: pending, ready and active flags). */
export interface PriceRangeState {
  pending: boolean;
  ready: boolean;
  /** The user narrowed the range: only then is it sent. */
  active: boolean;
  minSetting?: number;
  maxSetting?: number;
  minPrice?: number;
  maxPrice?: number;
}

/** The filter panel's selection: the Filters, with SKUs as pasted text and price-type options. */
export type FilterSelection = Omit<FiltersInput, 'price_type' | 'SKUs'> & {
  price_type?: readonly PricingTypeOption[] | null;
  SKUs?: string | readonly string[] | null;
};

/**
 * "Check the price range" step of the search flow: the range is active when it is ready and the
 * selection is narrower than the settings; the selection is clamped into the settings.
 */
export function checkPriceRange(state: PriceRangeState): PriceRangeState {
  if (!state.ready || state.minSetting === undefined || state.maxSetting === undefined) {
    return { ...state, active: false };
  }
  const min = Math.max(state.minSetting, Math.min(state.minPrice ?? state.minSetting, state.maxSetting));
  const max = Math.min(state.maxSetting, Math.max(state.maxPrice ?? state.maxSetting, min));
  return { ...state, minPrice: min, maxPrice: max, active: min > state.minSetting || max < state.maxSetting };
}

/**
 * The request filters of a pricing call from the panel's selection (seed 001 §5):
 *  - SKUs text is split with `parseSkus`;
 *  - the price range (minSetting/maxSetting/minPrice/maxPrice) is sent only when the range is active,
 *    with minima floored and maxima ceiled; otherwise those four keys are absent;
 *  - MATCH and STOCK_OUT are sent as the flags `match: true` / `stockOut: true`, never in price_type;
 *  - empty lists and strings are dropped.
 */
export function buildPricingQuery(selection: FilterSelection, priceRange: PriceRangeState): FiltersInput {
  const { price_type, SKUs, minPrice: _a, maxPrice: _b, minSetting: _c, maxSetting: _d, ...rest } = selection;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  const skus = typeof SKUs === 'string' ? parseSkus(SKUs) : (SKUs ?? []).flatMap((s) => parseSkus(s));
  if (skus.length) out.SKUs = skus;
  const types = price_type ?? [];
  const realTypes = types.filter((t): t is PriceType => (PRICE_TYPES as readonly string[]).includes(t));
  if (realTypes.length) out.price_type = realTypes;
  if (types.includes('MATCH')) out.match = true;
  if (types.includes('STOCK_OUT')) out.stockOut = true;
  if (priceRange.active) {
    const price = roundPriceRange({ min: priceRange.minPrice, max: priceRange.maxPrice });
    const setting = roundPriceRange({ min: priceRange.minSetting, max: priceRange.maxSetting });
    if (price.min !== undefined) out.minPrice = price.min;
    if (price.max !== undefined) out.maxPrice = price.max;
    if (setting.min !== undefined) out.minSetting = setting.min;
    if (setting.max !== undefined) out.maxSetting = setting.max;
  }
  return out as FiltersInput;
}

/** Which required fields a search flow checks (seed 001 §5). */
export type SearchKind = 'pricing' | 'assortment' | 'promotions';

export interface FilterError {
  field: string;
  label: string;
  message: string;
}

export type FilterValidation = { valid: true; filters: Filters } | { valid: false; errors: FilterError[] };

const labelOf = (field: string) => (FILTER_LABELS as Record<string, string>)[field] ?? field;

/**
 * Validates request filters before a search (seed 001 §4 step 1, §5): the schema and cross-field
 * checks, plus required fields — pricing and assortment need a currency ('Divisa') and sellers
 * ('eCommerce', from `sellers` or `sellersIds`); promotions also need classifications ('Clasificaciones').
 */
export function validateFilters(input: FiltersInput, kind: SearchKind = 'pricing'): FilterValidation {
  const parsed = filtersSchema.safeParse(input);
  const errors: FilterError[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'filters');
      if (!errors.some((e) => e.field === field))
        errors.push({ field, label: labelOf(field), message: issue.message });
    }
    return { valid: false, errors };
  }
  const f = parsed.data;
  const required = (field: string, ok: boolean) => {
    if (!ok) errors.push({ field, label: labelOf(field), message: `${labelOf(field)}: campo requerido` });
  };
  required('currency', !!f.currency);
  required('sellers', !!(f.sellers?.length || f.sellersIds?.length));
  if (kind === 'promotions') required('classificationsIds', !!f.classificationsIds?.length);
  return errors.length ? { valid: false, errors } : { valid: true, filters: f };
}

/** Effects of a search, injected by the screen's store (so that the flow is testable). */
export interface SearchEffects<R> {
  setError(errors: FilterError[]): void;
  clearItems(): void;
  /** Returns the checked state (see `checkPriceRange`); the screen stores it. */
  checkPriceRange(): PriceRangeState;
  setFilters(query: FiltersInput): void;
  request(query: FiltersInput): Promise<R>;
}

/**
 * The search flow of assortment and pricing (seed 001 §4): 1. compute and validate the filters;
 * 2. invalid → set the error and send no request; 3. valid → clear the items, check the price range,
 * set the filters and request the items.
 */
export async function runSearch<R>(
  selection: FilterSelection,
  kind: SearchKind,
  effects: SearchEffects<R>,
): Promise<{ ok: true; result: R } | { ok: false; errors: FilterError[] }> {
  const draft = buildPricingQuery(selection, { pending: false, ready: false, active: false });
  const validation = validateFilters(draft, kind);
  if (!validation.valid) {
    effects.setError(validation.errors);
    return { ok: false, errors: validation.errors };
  }
  effects.clearItems();
  const priceRange = effects.checkPriceRange();
  const query = buildPricingQuery(selection, priceRange);
  effects.setFilters(query);
  return { ok: true, result: await effects.request(query) };
}
