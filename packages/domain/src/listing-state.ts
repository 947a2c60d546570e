import { DEFAULT_TIMEZONE } from './constants.js';
import type { AvailabilityText } from './detail.js';
import { formatDateTime, isoDateInZone } from './format.js';
import { MESSAGES } from './messages.js';

// Listing-state rules (seed 001 §4, docs/metrics.md "Listing state"): when a listing was last seen and
// whether it is historical (shown grey) or available. One definition, used by the pricing engine, the
// product detail, the product list and the web. The SQL form of "last seen" is vigia_last_seen()
// (migrations/050_market_formulas.sql), checked against lastSeenAt by apps/server/src/market/formulas.test.ts.

/**
 * When a listing was last seen: a published one at greatest(its last_seen, its seller's last crawl)
 * (a crawl that found it unchanged does not rewrite the listing); an unpublished one at its last_seen.
 */
export function lastSeenAt(published: boolean, lastSeen: number, crawl: number | null | undefined): number {
  return published && crawl != null && !Number.isNaN(crawl) ? Math.max(lastSeen, crawl) : lastSeen;
}

/** Historical (grey, seed 001 §4): out of stock, or last seen before the start of today (epoch ms). */
export function isHistoricalAt(
  l: { published: boolean; lastSeen: number; stockOut: boolean },
  crawl: number | null | undefined,
  todayTs: number,
): boolean {
  return l.stockOut || lastSeenAt(l.published, l.lastSeen, crawl) < todayTs;
}

const isOut = (stockOut: boolean | number | null | undefined) => stockOut === true || stockOut === 1;

/**
 * Seed 001 §4 competitor availability: 'No Disponible' if stock_out; 'No disponible' if last seen
 * before today in Santiago time; otherwise 'Disponible'.
 */
export function availabilityText(
  item: { stock_out: boolean | number | null | undefined; last_seen: string | Date | null | undefined },
  now: Date = new Date(),
  timeZone = DEFAULT_TIMEZONE,
): AvailabilityText {
  if (isOut(item.stock_out)) return MESSAGES.unavailableStockOut;
  if (seenBeforeToday(item.last_seen, now, timeZone)) return MESSAGES.unavailableNotSeen;
  return MESSAGES.available;
}

/** True when an instant falls on a calendar day before today's (both in `timeZone`). No date → true. */
export function seenBeforeToday(
  lastSeen: string | Date | null | undefined,
  now: Date = new Date(),
  timeZone = DEFAULT_TIMEZONE,
): boolean {
  if (lastSeen === null || lastSeen === undefined || lastSeen === '') return true;
  const seenDay =
    typeof lastSeen === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(lastSeen)
      ? lastSeen
      : isoDateInZone(lastSeen, timeZone);
  return seenDay < isoDateInZone(now, timeZone);
}

/** Seed 001 §4: items from a day seen before, or out of stock, are shown as historical (grey). */
export function isHistorical(
  item: { stock_out: boolean | number | null | undefined; last_seen: string | Date | null | undefined },
  now: Date = new Date(),
  timeZone = DEFAULT_TIMEZONE,
): boolean {
  return isOut(item.stock_out) || seenBeforeToday(item.last_seen, now, timeZone);
}

/** "actualizado hace 3 h", "… hace 5 min", "… hace 2 días" from an instant (null: no instant). */
export function updatedAgo(
  instant: string | Date | number | null | undefined,
  now: number = Date.now(),
): string | null {
  if (instant === null || instant === undefined || instant === '') return null;
  const s = Math.max(0, Math.round((now - new Date(instant).getTime()) / 1000));
  if (s < 60) return 'actualizado hace instantes';
  const m = Math.round(s / 60);
  if (m < 60) return `actualizado hace ${m} min`;
  const h = Math.round(m / 60);
  if (h < 48) return `actualizado hace ${h} h`;
  return `actualizado hace ${Math.round(h / 24)} días`;
}

export interface PriceFreshness {
  /** "actualizado hace 3 h" ('sin observaciones' without an instant) */
  text: string;
  /** not seen today in the market zone: the price is the last trusted one, not today's (flagged) */
  stale: boolean;
  /** "Último dato confiable: 27-11-2026 10:15" (tooltip) */
  title: string;
}

/**
 * How fresh a listing's price is (issue 28), from when it was last seen (`last_seen` of the analysis
 * screens: the last observation Vigía trusted — a reading the crawler doubted is never ingested, so it
 * moves neither the price nor this instant). Stale by the seed's historical rule: not seen today.
 */
export function priceFreshness(
  lastSeen: string | Date | null | undefined,
  now: Date = new Date(),
  timeZone = DEFAULT_TIMEZONE,
): PriceFreshness {
  const text = updatedAgo(lastSeen, now.getTime());
  if (text === null) return { text: 'sin observaciones', stale: true, title: 'Sin observaciones' };
  const stale = seenBeforeToday(lastSeen, now, timeZone);
  const at = formatDateTime(lastSeen, timeZone);
  return {
    text,
    stale,
    title: stale ? `Precio desactualizado: último dato confiable del ${at}` : `Último dato confiable: ${at}`,
  };
}
