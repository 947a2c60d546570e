import { BREADCRUMB_SEPARATOR, DEFAULT_TIMEZONE, NO_NAME_PRODUCT } from './constants.js';
import type { PriceVariation, VariationArrow } from './detail.js';
import { cutDate, formatNumber, isoDateInZone } from './format.js';
import { rankingPosition, samePrice } from './metrics/pricing.js';

// Derived values of the product detail, product list and dashboard (seed 001 §3, §4, §9).
// One implementation, used by the server when it builds answers and by the web when it renders them.
// Definitions: docs/metrics.md ("Product detail").

// ───────────────────────────── names, breadcrumbs ─────────────────────────────

/** Seed 001 §3: a product with no name is shown as 'Producto registrado sin nombre'. */
export function productDisplayName(name: string | null | undefined): string {
  const n = (name ?? '').trim();
  return n === '' ? NO_NAME_PRODUCT : n;
}

/** Seed 001 §9: category breadcrumbs are joined with ' > ' (empty names skipped). */
export function breadcrumb(
  categories: readonly ({ name: string | null | undefined } | string)[] | null | undefined,
): string {
  return (categories ?? [])
    .map((c) => (typeof c === 'string' ? c : (c.name ?? '')).trim())
    .filter(Boolean)
    .join(BREADCRUMB_SEPARATOR);
}

// ───────────────────────────── price variation ─────────────────────────────

/** Seed 001 §9: 100 × (1 − current / previous); null when either is missing or previous is 0. */
export function priceVariationValue(
  current: number | null | undefined,
  previous: number | null | undefined,
): number | null {
  if (current === null || current === undefined || previous === null || previous === undefined) return null;
  if (!Number.isFinite(current) || !Number.isFinite(previous) || previous === 0) return null;
  // rounded to 1e-9 so that float noise does not cross the 10 % display threshold (1100 after 1000 → −10)
  return Math.round(100 * (1 - current / previous) * 1e9) / 1e9;
}

/**
 * Seed 001 §9: signed percentage, one decimal when |v| > 10, else three; es-CL decimal comma.
 * 12.5 → '+12,5%', -3.3333 → '-3,333%', 0 → '0,000%', null → '—'.
 * With `decimals` (assortment's variations of counts and values, issue 31 item 12: "+1,438%" of a count
 * read as false precision) always that many, and a value that rounds to zero reads '0%'.
 */
export function formatVariation(v: number | null | undefined, decimals?: number): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  const abs = Math.abs(v);
  const places = decimals ?? (abs > 10 ? 1 : 3);
  const text = formatNumber(abs, places);
  // a value that rounds to zero reads as zero, without a sign
  if (Number(text.replace(/\./g, '').replace(',', '.')) === 0)
    return decimals === undefined ? `${formatNumber(0, places)}%` : '0%';
  return `${v < 0 ? '-' : '+'}${text}%`;
}

/** A variation as shown with `decimals`: 0 when it reads '0%' (its arrow then is none). */
export function shownVariation(v: number | null | undefined, decimals: number): number | null {
  if (v === null || v === undefined || Number.isNaN(v)) return null;
  const f = 10 ** decimals;
  return Math.round(v * f) / f || 0;
}

/** Seed 001 §9: a negative value shows a down arrow, a positive one an up arrow, zero (or none) no arrow. */
export function variationArrow(v: number | null | undefined): VariationArrow {
  if (v === null || v === undefined || Number.isNaN(v) || v === 0) return 'none';
  return v < 0 ? 'down' : 'up';
}

/** The price variation of a listing: value, arrow and text (seed 001 §3 pivotPriceVariation). */
export function priceVariation(
  current: number | null | undefined,
  previous: number | null | undefined,
): PriceVariation {
  const variation = priceVariationValue(current, previous);
  return { variation, arrow: variationArrow(variation), text: formatVariation(variation) };
}

/**
 * Change of a figure against the previous period, in % (the assortment's variations of products, total
 * and average value): 100 × (current − previous) / previous. It is the price variation with the other
 * sign — a figure that grew is positive and shows an up arrow, as those screens mean it — and is computed
 * from priceVariationValue so that both share one ratio and one sign rule. null when previous is 0.
 */
export function periodChange(
  current: number | null | undefined,
  previous: number | null | undefined,
): number | null {
  const v = priceVariationValue(current, previous);
  return v === null ? null : 0 - v;
}

/** periodChange as the assortment answers it: three decimals (formatVariation shows three when |v| ≤ 10). */
export function periodChangeRounded(
  current: number | null | undefined,
  previous: number | null | undefined,
): number | null {
  const v = periodChange(current, previous);
  return v === null ? null : Math.round(v * 1000) / 1000;
}

// ───────────────────────────── ranking ─────────────────────────────

export interface Priced {
  min_price: number | null;
}

/**
 * Seed 001 §9: sellers sorted by min_price ascending. Items without a price go last. Ties (samePrice,
 * the one tie tolerance) keep the pivot first (a pivot as cheap as a competitor ranks ahead of it), then the given order. Stable.
 */
export function sortByMinPrice<T extends Priced>(items: readonly T[], isPivot?: (item: T) => boolean): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => {
      const pa = a.item.min_price;
      const pb = b.item.min_price;
      if (pa === null && pb === null) return a.i - b.i;
      if (pa === null) return 1;
      if (pb === null) return -1;
      if (!samePrice(pa, pb)) return pa - pb;
      if (isPivot) {
        const da = isPivot(a.item) ? 0 : 1;
        const db = isPivot(b.item) ? 0 : 1;
        if (da !== db) return da - db;
      }
      return a.i - b.i;
    })
    .map((x) => x.item);
}

/**
 * Seed 001 §9: the pivot position is its 1-based index in the sorted order — 1 + the number of sellers
 * strictly cheaper (rankingPosition, the one ranking rule); 1 when nobody else has a price; null when the
 * pivot is absent or has no price.
 */
export function pivotPosition<T extends Priced>(
  items: readonly T[],
  isPivot: (item: T) => boolean,
): number | null {
  const pivot = items.find(isPivot);
  if (!pivot || pivot.min_price === null) return null;
  const others = items.filter((x) => !isPivot(x)).map((x) => x.min_price);
  return rankingPosition(pivot.min_price, others) ?? 1;
}

/** 1-based positions of a day's (or a moment's) prices; nulls get null. Ties: the pivot index first. */
export function rankPositions(prices: readonly (number | null)[], pivotIndex = -1): (number | null)[] {
  const items = prices.map((min_price, i) => ({ min_price, i }));
  const sorted = sortByMinPrice(items, (x) => x.i === pivotIndex);
  const out: (number | null)[] = prices.map(() => null);
  sorted.forEach((x, k) => {
    if (x.min_price !== null) out[x.i] = k + 1;
  });
  return out;
}

export interface PriceExtremes<T> {
  cheaper: T | null;
  expensive: T | null;
}

/** Seed 001 §3 "Pricing item": the cheapest and the dearest priced items (first one on ties). */
export function priceExtremes<T extends Priced>(items: readonly T[]): PriceExtremes<T> {
  let cheaper: T | null = null;
  let expensive: T | null = null;
  for (const it of items) {
    if (it.min_price === null) continue;
    if (!cheaper || it.min_price < (cheaper.min_price as number)) cheaper = it;
    if (!expensive || it.min_price > (expensive.min_price as number)) expensive = it;
  }
  return { cheaper, expensive };
}

/**
 * Seed 001 §4: the cheapest price is highlighted in the accent colour, the most expensive in red, the
 * rest in white. With one distinct price nobody is 'dearest'.
 */
export function priceHighlight(
  price: number | null | undefined,
  cheaper: number | null | undefined,
  expensive: number | null | undefined,
): 'cheapest' | 'dearest' | 'none' {
  if (price === null || price === undefined) return 'none';
  if (cheaper !== null && cheaper !== undefined && price === cheaper) return 'cheapest';
  if (expensive !== null && expensive !== undefined && price === expensive) return 'dearest';
  return 'none';
}

// ───────────────────────────── price history ─────────────────────────────

const isOut = (stockOut: boolean | number | null | undefined) => stockOut === true || stockOut === 1;

export type HistoryMarker = 'triangle' | 'circle' | 'square' | 'star';

/** Seed 001 §4: triangle if stock out, circle for NORMAL, square for SALE, star for other types. */
export function historyMarker(point: {
  price_type?: string | null;
  stock_out?: boolean | number | null;
}): HistoryMarker {
  if (isOut(point.stock_out)) return 'triangle';
  const t = (point.price_type ?? 'NORMAL').toUpperCase();
  if (t === 'NORMAL') return 'circle';
  if (t === 'SALE') return 'square';
  return 'star';
}

/** yyyy-MM-dd + n days (calendar arithmetic, no timezone). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${cutDate(day)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Days from `from` to `to` inclusive (0 when to < from). */
export function daysInclusive(from: string, to: string): number {
  const a = Date.parse(`${cutDate(from)}T00:00:00Z`);
  const b = Date.parse(`${cutDate(to)}T00:00:00Z`);
  return b < a ? 0 : Math.round((b - a) / 86_400_000) + 1;
}

/** yyyy-MM-dd minus n calendar months, clamped to the month's last day (03-31 − 1 month = 02-28/29). */
export function minusMonths(day: string, n: number): string {
  const [y, m, d] = cutDate(day).split('-').map(Number);
  const total = y * 12 + (m - 1) - n;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12; // 0-based
  const last = new Date(Date.UTC(ny, nm + 1, 0)).getUTCDate();
  const nd = Math.min(d, last);
  return `${String(ny).padStart(4, '0')}-${String(nm + 1).padStart(2, '0')}-${String(nd).padStart(2, '0')}`;
}

/** Seed 001 §7: the default history period runs from one month ago to today (America/Santiago). */
export function defaultHistoryPeriod(
  now: Date = new Date(),
  timeZone = DEFAULT_TIMEZONE,
): { from: string; to: string } {
  const to = isoDateInZone(now, timeZone);
  return { from: minusMonths(to, 1), to };
}

const SPANISH_DAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'] as const;

/** Spanish weekday of a yyyy-MM-dd day, or of an instant's day in `timeZone`. */
export function dayNameSpa(value: string | Date, timeZone = DEFAULT_TIMEZONE): string {
  const day =
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : isoDateInZone(value, timeZone);
  return SPANISH_DAYS[new Date(`${day}T12:00:00Z`).getUTCDay()];
}

// ───────────────────────────── product detail enrichment ─────────────────────────────

export interface EnrichableItem extends Priced {
  is_pivot: boolean;
  previous_price: number | null;
}

export interface DetailEnrichment {
  pivotPriceVariation: PriceVariation;
  min_price: number | null;
  pivotPreviousPrice: number | null;
  pivotQmItemPosition: number | null;
  qmitemsQuantity: number;
}

/**
 * Seed 001 §3: the product detail is enriched with pivotPriceVariation, min_price (the pivot's),
 * pivotPreviousPrice, pivotQmItemPosition (1-based, sellers by min_price ascending) and qmitemsQuantity
 * (number of qm_items, the pivot's included). `items` may be in any order.
 */
export function enrichDetail(items: readonly EnrichableItem[]): DetailEnrichment {
  const pivot = items.find((x) => x.is_pivot) ?? null;
  return {
    pivotPriceVariation: priceVariation(pivot?.min_price, pivot?.previous_price),
    min_price: pivot?.min_price ?? null,
    pivotPreviousPrice: pivot?.previous_price ?? null,
    pivotQmItemPosition: pivotPosition(items, (x) => x.is_pivot),
    qmitemsQuantity: items.length,
  };
}

// ───────────────────────────── product list pagination ─────────────────────────────

export type ProductListPageAction =
  /** every item of the page is loaded (or all items are): only the page changes */
  | { kind: 'page'; page: number; pageSize: number }
  /** page size larger than the loaded count: back to the first page (index 0, 'page 1') and reload */
  | { kind: 'reset'; page: 0; pageSize: number }
  /** the page goes beyond the loaded items: fetch it */
  | { kind: 'fetch'; page: number; pageSize: number };

/**
 * Seed 001 §4 product list pagination (0-based `page` as tables use it):
 *  - if all items are loaded (loaded ≥ total), only the page changes;
 *  - a page size larger than the loaded count resets to page 1 (index 0) and reloads (fetch API page 1);
 *  - moving beyond the loaded items triggers a fetch.
 */
export function productListPageAction(
  state: { loaded: number; totalItems: number; pageSize: number },
  request: { page: number; pageSize: number },
): ProductListPageAction {
  const { page, pageSize } = request;
  if (state.loaded >= state.totalItems) return { kind: 'page', page, pageSize };
  if (pageSize !== state.pageSize && pageSize > state.loaded) return { kind: 'reset', page: 0, pageSize };
  if ((page + 1) * pageSize > state.loaded) return { kind: 'fetch', page, pageSize };
  return { kind: 'page', page, pageSize };
}

// ───────────────────────────── dashboard helpers ─────────────────────────────

/** Width of a discount bucket of the mode discount, in percentage points. */
export const DISCOUNT_BUCKET = 5;

/**
 * A figure rounded to 2 decimals for an answer (prices in cents, percentages, indexes): the one rounding
 * of every response (docs/metrics.md "One implementation per formula"); null stays null.
 */
export function round2(v: number): number;
export function round2(v: number | null | undefined): number | null;
export function round2(v: number | null | undefined): number | null {
  return v === null || v === undefined ? null : Math.round(v * 100) / 100;
}

/**
 * The promotion price an aggregate counts (averages, price distributions): a promotion priced at 0 (or
 * below) has none, as it has no discount. SQL: vigia_promo_price (migration 310).
 */
export function promotionPrice(promo: number | null | undefined): number | null {
  return promo !== null && promo !== undefined && promo > 0 ? promo : null;
}

/** Discount % of a promoted price: 100 × (normal − promo) / normal; null unless 0 < promo < normal. */
export function discountPercent(
  normal: number | null | undefined,
  promo: number | null | undefined,
): number | null {
  if (normal === null || normal === undefined || promo === null || promo === undefined) return null;
  const d = discountPercentOrNaN(normal, promo);
  return Number.isNaN(d) ? null : d;
}

/**
 * discountPercent of two known prices, NaN where it has none: the form for hot loops over typed columns
 * (one return type, inlined by the engine; promotions distribution.ts typeChart).
 */
export function discountPercentOrNaN(normal: number, promo: number): number {
  if (!(normal > 0) || !(promo > 0) || promo >= normal) return Number.NaN;
  return (100 * (normal - promo)) / normal;
}

/** Bucket of a discount %: the nearest multiple of DISCOUNT_BUCKET (22.4 → 20, 22.5 → 25). */
export function discountBucket(percent: number): number {
  return Math.round(percent / DISCOUNT_BUCKET) * DISCOUNT_BUCKET;
}

/** The mode of a bucket histogram (ties → the smaller bucket); null when empty. */
export function modeOfBuckets(counts: readonly { bucket: number; n: number }[]): number | null {
  let best: number | null = null;
  let bestCount = 0;
  for (const { bucket, n } of counts) {
    if (n <= 0) continue;
    if (n > bestCount || (n === bestCount && best !== null && bucket < best)) {
      best = bucket;
      bestCount = n;
    }
  }
  return best;
}

/** Change of a card: value − previous; null when either is missing. */
export function cardChange(value: number | null, previous: number | null): number | null {
  return value === null || previous === null ? null : value - previous;
}
