import {
  FILTER_LABELS,
  type FilterError,
  type FilterSelection,
  formatPrice,
  isCalendarDate as isCalendarDay,
  type PriceMode,
  type PriceRangeState,
  parseSkus,
} from '@vigia/domain';
import {
  codecOf,
  EMPTY_SELECTION,
  FILTER_URL_KEYS,
  type FilterKey,
  filtersObjectField,
  PANEL_KEYS,
  type PanelKey,
  type PanelSelection,
  PRICE_RANGE_KEYS,
  PRICE_TYPE_FLAGS,
} from './filter-fields.js';
import { FILTER_TEXT } from './labels.js';

export { EMPTY_SELECTION, FILTER_URL_KEYS, type PanelSelection };

// Filters live in the URL (ARCHITECTURE.md "Web"): a view can be shared and reloaded. The query string
// holds the panel's selection with the Filters' own names (lists as comma lists, like the GET wire
// format), the price range only when it is active. Screen-specific parameters (sort, page size, tab…)
// share the query string; the functions below touch only the filter keys (filter-fields.ts lists them,
// from the shared schema).
//
// A link may carry values the app cannot use (a hand-edited date, a seller or currency outside the
// license): they are dropped — never sent, never a crash — and reported (`dropped`, see droppedNotice).

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

/** A URL value that was dropped: unreadable (not a valid value) or outside the user's license. */
export interface DroppedValue {
  key: FilterKey | 'priceRange';
  label: string;
  value: string;
  reason: 'invalid' | 'unlicensed';
}

export interface ReadUrlFilters extends UrlFilters {
  dropped: DroppedValue[];
}

const invalid = (key: DroppedValue['key'], label: string, value: string): DroppedValue => ({
  key,
  label,
  value,
  reason: 'invalid',
});

/** The price range of a URL: both ends readable numbers in order, else none (and reported). */
function readPriceRange(params: URLSearchParams, dropped: DroppedValue[]): UrlPriceRange | null {
  const read = (key: 'minPrice' | 'maxPrice' | 'minSetting' | 'maxSetting') => {
    const raw = params.get(key);
    if (raw === null || raw.trim() === '') return undefined;
    const r = filtersObjectField(key).safeParse(raw);
    if (r.success && typeof r.data === 'number') return r.data;
    dropped.push(
      invalid('priceRange', FILTER_TEXT.priceRange, `${FILTER_LABELS[key as 'minPrice'] ?? key} ${raw}`),
    );
    return null;
  };
  const minPrice = read('minPrice');
  const maxPrice = read('maxPrice');
  const minSetting = read('minSetting');
  const maxSetting = read('maxSetting');
  if (minPrice === null || maxPrice === null) return null;
  if (minPrice === undefined || maxPrice === undefined) return null;
  if (minPrice > maxPrice) {
    dropped.push(invalid('priceRange', FILTER_TEXT.priceRange, `${minPrice} – ${maxPrice}`));
    return null;
  }
  return { minPrice, maxPrice, minSetting: minSetting ?? undefined, maxSetting: maxSetting ?? undefined };
}

/**
 * Reads the panel's selection from a query string. Every value is read with the shared schema's own
 * field (plus a calendar check for dates); what cannot be read is dropped and listed in `dropped`.
 */
export function readUrlFilters(params: URLSearchParams): ReadUrlFilters {
  const dropped: DroppedValue[] = [];
  const selection = { ...EMPTY_SELECTION } as Record<PanelKey, unknown>;
  for (const key of PANEL_KEYS) {
    const raw = params.get(key);
    if (raw === null) continue;
    const codec = codecOf(key);
    const { value, rejected } = codec.read(raw);
    selection[key] = value;
    for (const r of rejected) dropped.push(invalid(key, codec.label, r));
  }
  // The flags may also arrive in the request form (match=true / stockOut=true).
  const priceTypes = selection.price_type as PanelSelection['price_type'];
  for (const [flag, option] of Object.entries(PRICE_TYPE_FLAGS)) {
    const raw = params.get(flag);
    if (raw === null) continue;
    const r = filtersObjectField(flag as FilterKey).safeParse(raw);
    if (!r.success) dropped.push(invalid(flag as FilterKey, FILTER_TEXT.priceType, raw));
    else if (r.data === true && !priceTypes.includes(option)) priceTypes.push(option);
  }
  return { selection: selection as PanelSelection, priceRange: readPriceRange(params, dropped), dropped };
}

/** What the user's license allows in a URL (the server answers 403 to anything else). */
export interface LicenseAllowance {
  sellers: readonly number[];
  currencies: readonly string[];
  /**
   * Every classification of the licensed subtrees (the license's tree, flattened); null while unknown
   * (not loaded, or failed: the server then decides).
   */
  classifications?: ReadonlySet<number> | null;
}

/** Drops competitors, classifications and a currency outside the license, reporting them. */
export function dropUnlicensed(f: ReadUrlFilters, allowed: LicenseAllowance): ReadUrlFilters {
  const dropped = [...f.dropped];
  const s = f.selection;
  const keep = (key: 'sellersIds' | 'classificationsIds', ok: (id: number) => boolean) =>
    s[key].filter((id) => {
      if (!ok(id)) dropped.push({ key, label: FILTER_LABELS[key], value: String(id), reason: 'unlicensed' });
      return ok(id);
    });
  const sellersIds = keep('sellersIds', (id) => allowed.sellers.includes(id));
  const tree = allowed.classifications;
  // a classification outside the license was a 403 from the server, which sent the user to Inicio
  // ('Funcionalidad no permitida.') where every other bad value is dropped with a notice (issue 31 item 8)
  const classificationsIds = tree ? keep('classificationsIds', (id) => tree.has(id)) : s.classificationsIds;
  let currency = s.currency;
  if (currency && !allowed.currencies.includes(currency)) {
    dropped.push({ key: 'currency', label: FILTER_LABELS.currency, value: currency, reason: 'unlicensed' });
    currency = '';
  }
  if (dropped.length === f.dropped.length) return f;
  return { ...f, selection: { ...s, sellersIds, classificationsIds, currency }, dropped };
}

/** Every id of a nested tree (the license's classifications). */
export function treeIds(nodes: readonly { id: number; children: readonly unknown[] }[]): Set<number> {
  const out = new Set<number>();
  const walk = (list: readonly { id: number; children: readonly unknown[] }[]) => {
    for (const n of list) {
      out.add(n.id);
      walk(n.children as typeof list);
    }
  };
  walk(nodes);
  return out;
}

/** The Spanish notice for dropped URL values (shown in the snackbar). */
export function droppedNotice(dropped: readonly DroppedValue[]): string {
  // One part per field and reason: 'eCommerce «1», «999» (fuera de tu licencia)'.
  const groups: { head: string; reason: DroppedValue['reason']; values: string[] }[] = [];
  for (const d of dropped) {
    const g = groups.find((x) => x.head === d.label && x.reason === d.reason);
    if (g) g.values.push(d.value);
    else groups.push({ head: d.label, reason: d.reason, values: [d.value] });
  }
  const parts = groups.map(
    (g) =>
      `${g.head} ${g.values.map((v) => `«${v}»`).join(', ')} (${g.reason === 'invalid' ? 'valor no válido' : 'fuera de tu licencia'})`,
  );
  return `Se quitaron filtros de la dirección que no se pueden usar: ${parts.join('; ')}.`;
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
  const owned = new Set<string>([...FILTER_URL_KEYS, ...drop]);
  for (const [k, v] of current) if (!owned.has(k)) next.append(k, v);
  for (const key of PANEL_KEYS) {
    const v = codecOf(key).write(filters.selection[key]);
    if (v !== '') next.set(key, v);
  }
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

/** How many filters of a selection are set (for the panel's badge): active fields plus the price range. */
export function countActiveFilters(f: UrlFilters): number {
  return PANEL_KEYS.filter((k) => codecOf(k).isActive(f.selection[k])).length + (f.priceRange ? 1 : 0);
}

/** Short texts of the applied filters (the collapsed panel), in `currency` for the price range. */
export function summarizeFilters(f: UrlFilters, currency: string): string[] {
  const out: string[] = [];
  for (const key of PANEL_KEYS) {
    const codec = codecOf(key);
    const v = f.selection[key];
    if (codec.isActive(v)) out.push(codec.summary(v));
  }
  const r = f.priceRange;
  if (r) out.push(`${formatPrice(r.minPrice, currency)} – ${formatPrice(r.maxPrice, currency)}`);
  return out;
}

/** «a», «b», «c», «d», «e» y 3 más. */
function quoted(list: readonly string[]): string {
  const shown = list
    .slice(0, 5)
    .map((t) => `«${t}»`)
    .join(', ');
  return list.length > 5 ? `${shown} y ${list.length - 5} más` : shown;
}

/**
 * What the SKU field says under the pasted text: how many SKUs will be searched, which tokens are not
 * understood (and so not searched) and — from the last answer (`notFound`, the server's skus_not_found)
 * — which of the SKUs still in the field matched no product. Undefined for an empty field.
 */
export function skuFeedback(text: string, notFound: readonly string[] = []): string | undefined {
  const tokens = text.split(/[\s,]+/u).filter(Boolean);
  if (tokens.length === 0) return undefined;
  const understood = parseSkus(text);
  const bad = [...new Set(tokens.filter((t) => !understood.includes(t)))];
  const missing = notFound.filter((s) => understood.includes(s));
  const parts = [understood.length === 1 ? '1 SKU por buscar' : `${understood.length} SKUs por buscar`];
  if (bad.length)
    parts.push(
      `no se ${bad.length === 1 ? 'entiende' : 'entienden'} (solo letras, números y _ @ . / # & + -): ${quoted(bad)}`,
    );
  if (missing.length) parts.push(`No encontrados: ${quoted(missing)}`);
  return parts.join(' · ');
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
  const out: Record<string, unknown> = {};
  for (const key of PANEL_KEYS) out[key] = codecOf(key).isActive(s[key]) ? s[key] : undefined;
  const competitors = s.sellersIds.length ? s.sellersIds : [...d.sellers];
  return {
    ...out,
    sellersIds: competitors,
    sellers: competitors,
    currency: s.currency || d.currency,
    pivot_id: d.pivotId ?? undefined,
    mpi_value: d.mpiValue,
    priceMode: s.priceMode || d.priceMode,
  } as FilterSelection;
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

/** The panel control a validation error belongs to: a panel field, or the price range. */
export type FilterControl = PanelKey | 'priceRange';

/** The control of an error's field: the competitors for `sellers`, price-type for its flags, … */
export function controlOf(field: string): FilterControl {
  if (field === 'sellers') return 'sellersIds';
  if ((PRICE_RANGE_KEYS as readonly string[]).includes(field)) return 'priceRange';
  if (field in PRICE_TYPE_FLAGS) return 'price_type';
  return field as FilterControl;
}

/** A Spanish sentence for an error (zod's own defaults are English). */
export function errorText(e: FilterError): string {
  const english = /^(invalid|too |expected|unrecognized|number must|string must|array must)/i.test(e.message);
  const message = english ? 'valor no válido' : e.message;
  return message.startsWith(e.label) ? message : `${e.label}: ${message}`;
}

/** Errors per control, first message wins. */
export function errorsByControl(
  errors: readonly FilterError[] | null | undefined,
): Partial<Record<FilterControl, string>> {
  const out: Partial<Record<FilterControl, string>> = {};
  for (const e of errors ?? []) {
    const c = controlOf(e.field);
    out[c] ??= errorText(e);
  }
  return out;
}
