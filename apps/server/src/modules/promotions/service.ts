import {
  addDays,
  type Filters,
  PROMOTION_KIND_PRICE_TYPE,
  PROMOTION_KINDS,
  PROMOTION_MAX_DAYS,
  PROMOTION_SEARCH_TYPE_DAYS,
  type PromotionClassification,
  type PromotionItem,
  type PromotionPrices,
  type PromotionWeek,
  round2,
  share,
} from '@vigia/domain';
import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import { badRequest, forbidden } from '../../lib/errors.js';
import { requesterOf } from '../../lib/scope.js';
import { resolveCurrency, resolvePeriod, resolvePivot, resolveSellers, today } from '../../market/index.js';
import { dayZone } from '../ingest/index.js';
import {
  type ScopeValues,
  selectScopeFacts,
  type TypeDaysRow,
  type TypePricesRow,
  type WeekRow,
} from './queries.js';

export { niceStep } from './distribution.js';

// A promotions request's scope (license-checked) and the shaping of answers. Definitions:
// docs/metrics.md "Promotions".

export interface SellerOut {
  id: number;
  name: string;
  color: string;
}

export interface PromoScope {
  values: ScopeValues;
  currency: string;
  sellers: SellerOut[];
  /** Asked classifications, in the order asked. */
  classes: { id: number; name: string }[];
}

const DEFAULT_COLOR = '#9e9e9e';
/**
 * The window: `from_date`..`to_date` (inclusive market days; the market core's resolvePeriod). Without
 * `from_date` it starts 90 days before `to_date` (promotion search type 3: an expiration date 90 days
 * before today); without `to_date` it ends today.
 */
export function windowOf(f: Pick<Filters, 'from_date' | 'to_date'>, now?: Date, zone?: string) {
  return resolvePeriod(
    { from: f.from_date, to: f.to_date },
    { from: 'from_date', to: 'to_date' },
    { maxDays: PROMOTION_MAX_DAYS, defaultFrom: (to) => addDays(to, -PROMOTION_SEARCH_TYPE_DAYS), now, zone },
  );
}

/**
 * Resolves the scope of a promotions call: sellers = the pivot and the competitors (`sellersIds`, else
 * `sellers`, else every licensed seller), currency and classifications checked against the license
 * (403 outside it); the classifications are required (400 'Clasificaciones' when none).
 */
export async function resolvePromoScope(
  req: FastifyRequest,
  pool: pg.Pool,
  f: Filters,
  classIds: number[] | undefined = f.classificationsIds,
): Promise<PromoScope> {
  const who = requesterOf(req);
  const { principal } = who;
  const pivot = resolvePivot(who, f.pivot_id ?? null);
  const fromSession = f.sellers?.length ? resolveSellers(who, f.sellers, pivot) : null;
  const competitors = f.sellersIds?.length
    ? resolveSellers(who, f.sellersIds, pivot)
    : (fromSession ?? resolveSellers(who, null, pivot));
  const currency = resolveCurrency(who, f.currency);
  if (!classIds?.length)
    throw badRequest('classificationsIds: Clasificaciones es un campo requerido', 'classificationsIds');
  const asked = [...new Set(classIds)];
  // the days of the listing-days: the organisation's zone once the roll-up's rows of it are ready
  const zone = await dayZone(pool, principal.marketZone);
  // the window's errors come after the classifications' (as when each was its own query)
  let window: { from: string; to: string } | Error;
  try {
    window = windowOf(f, undefined, zone);
  } catch (err) {
    window = err as Error;
  }
  const sellerIds = [pivot, ...competitors.filter((s) => s !== pivot)];
  const facts = await selectScopeFacts(pool, {
    asked,
    roots: principal.license.classifications,
    day: window instanceof Error ? today(undefined, zone) : window.to,
    sellers: sellerIds,
  });
  if (facts.outside.length)
    throw forbidden(
      `Clasificación no incluida en la licencia: ${facts.outside.join(', ')}`,
      'classification_not_licensed',
    );
  const { leaves, classes, names, unknown, rates } = facts;
  if (unknown.length)
    throw badRequest(
      `classificationsIds: clasificación inexistente: ${unknown.join(', ')}`,
      'classificationsIds',
    );
  if (window instanceof Error) throw window;
  const { from, to } = window;
  const target = rates.get(currency);
  if (!target) throw badRequest(`currency: no hay tipo de cambio para ${currency}`, 'currency');
  const curs = [...rates.keys()];
  const sellers = facts.sellers.map((s) => ({ ...s, color: s.color ?? DEFAULT_COLOR }));
  return {
    currency,
    sellers,
    classes: asked.map((id) => ({ id, name: names.get(id) ?? '' })),
    values: {
      sellers: sellers.map((s) => s.id),
      asked,
      leaves,
      classes,
      from,
      to,
      curs,
      factors: curs.map((c) => rates.get(c)! / target),
      currency,
      targetClp: target,
      zone,
    },
  };
}

/** A share % of an answer: domain `share` (100 × num / den; null when den is 0), rounded to 2 decimals. */
const pct = (num: number, den: number) => round2(share(num, den));

export function pricesOut(
  r: { normal: number | null; promotion: number | null; discount: number | null } | undefined,
): PromotionPrices {
  return {
    normal: round2(r?.normal ?? null),
    promotion: round2(r?.promotion ?? null),
    discount: round2(r?.discount ?? null),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Spike weeks of a series of weekly percentages (docs/metrics.md): with at least 4 weeks that have a
 * value, a week is a spike when its percentage exceeds the series' median by 3 points or more and by at
 * least 3 robust standard deviations (1.4826 × the median absolute deviation).
 */
export function spikeFlags(values: (number | null)[]): boolean[] {
  const known = values.filter((v): v is number => v !== null);
  if (known.length < 4) return values.map(() => false);
  const m = median(known);
  const mad = median(known.map((v) => Math.abs(v - m)));
  const threshold = m + Math.max(3, 3 * 1.4826 * mad);
  return values.map((v) => v !== null && v >= threshold);
}

/** Every Monday from the window's first week to its last (weeks without rows still show). */
export function weeksOf(from: string, to: string): { week: string; from: string; to: string }[] {
  const dow = (new Date(`${from}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
  const out: { week: string; from: string; to: string }[] = [];
  for (let w = addDays(from, -dow); w <= to; w = addDays(w, 7)) {
    const end = addDays(w, 6);
    out.push({ week: w, from: w < from ? from : w, to: end > to ? to : end });
  }
  return out;
}

function grid<T extends { seller_id: number; cls: number }>(rows: T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = `${r.seller_id}:${r.cls}`;
    const list = m.get(k) ?? [];
    list.push(r);
    m.set(k, list);
  }
  return m;
}

function itemsOf(
  scope: PromoScope,
  build: (sellerId: number, cls: number) => Omit<PromotionClassification, 'id' | 'name'>,
): PromotionItem[] {
  return scope.sellers.map((seller) => ({
    seller,
    classifications: scope.classes.map((c) => ({ id: c.id, name: c.name, ...build(seller.id, c.id) })),
  }));
}

/** level: one percentage per week, per seller and classification; plus the market's spike weeks. */
export function levelItems(scope: PromoScope, rows: WeekRow[]) {
  const weeks = weeksOf(scope.values.from, scope.values.to);
  const byKey = grid(rows);
  const items = itemsOf(scope, (sellerId, cls) => {
    const own = new Map((byKey.get(`${sellerId}:${cls}`) ?? []).map((r) => [r.week, r]));
    const list = weeks.map((w) => {
      const r = own.get(w.week);
      return {
        ...w,
        promoted: r?.promoted ?? 0,
        published: r?.published ?? 0,
        percentage: pct(r?.promoted ?? 0, r?.published ?? 0),
      };
    });
    const spikes = spikeFlags(list.map((w) => w.percentage));
    return { weeks: list.map((w, i): PromotionWeek => ({ ...w, spike: spikes[i] })) };
  });
  const market = weeks.map((w) => {
    let num = 0;
    let den = 0;
    for (const r of rows)
      if (r.week === w.week) {
        num += r.promoted;
        den += r.published;
      }
    return pct(num, den);
  });
  const flags = spikeFlags(market);
  const spikes = weeks.flatMap((w, i) => (flags[i] ? [{ week: w.week, percentage: market[i]! }] : []));
  return { items, spikes };
}

/** type: exclusive, quantity and sale: percentage of listing-days and the promotions' average prices. */
export function typeItems(scope: PromoScope, days: TypeDaysRow[], prices: TypePricesRow[]) {
  const d = new Map(days.map((r) => [`${r.seller_id}:${r.cls}`, r]));
  const p = new Map(prices.map((r) => [`${r.seller_id}:${r.cls}:${r.price_type}`, r]));
  const column = { exclusive: 'exclusive', quantity: 'byquantity', sale: 'sale' } as const;
  return itemsOf(scope, (sellerId, cls) => {
    const row = d.get(`${sellerId}:${cls}`);
    const published = row?.published ?? 0;
    const out: Omit<PromotionClassification, 'id' | 'name'> = { published };
    for (const kind of PROMOTION_KINDS) {
      const promoted = row?.[column[kind]] ?? 0;
      const pr = p.get(`${sellerId}:${cls}:${PROMOTION_KIND_PRICE_TYPE[kind]}`);
      out[kind] = {
        percentage: pct(promoted, published),
        promoted,
        count: pr?.count ?? 0,
        prices: pricesOut(pr),
      };
    }
    return out;
  });
}
