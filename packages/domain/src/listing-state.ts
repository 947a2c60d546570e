import { DEFAULT_TIMEZONE } from './constants.js';
import type { AvailabilityText } from './detail.js';
import { isoDateInZone } from './format.js';
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
