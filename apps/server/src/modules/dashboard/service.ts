import {
  addDays,
  cardChange,
  DASHBOARD_CARD_LINKS,
  DASHBOARD_CARD_TITLES,
  DASHBOARD_DEFAULT_PERIOD_DAYS,
  DASHBOARD_GROUPS,
  DASHBOARD_MAX_PERIOD_DAYS,
  type DashboardCard,
  type DashboardCardKey,
  type DashboardPreResponse,
  DEFAULT_TIMEZONE,
  daysInclusive,
  round2,
} from '@vigia/domain';
import type pg from 'pg';
import { badRequest } from '../../lib/errors.js';
import { loadFx, ratesTo, resolvePeriod, selectClpRates, today } from '../../market/index.js';
import { readModelsOf } from '../../platform/read-model.js';
import { dayZone } from '../ingest/index.js';
import { indexTotals, type Lookups, type Resolved, withModel } from '../pricing/index.js';
import {
  bucketPairs,
  computeDays,
  countFigures,
  type DayFigures,
  dailyClp,
  pairs,
  periodFigures,
  WARM_DAYS,
} from './days.js';
import {
  historyWindow,
  type IndexHistory,
  indexDays,
  indexHistoryOrSaved,
  startIndexHistory,
} from './index-history.js';
import {
  type EventCounts,
  type FiguresScope,
  insertStoredDays,
  type SellerDiscountRow,
  selectCurrentSellerDiscounts,
  selectEventCounts,
  selectMonitoringSince,
  selectRollupDays,
  selectRootClasses,
  selectStoredDays,
} from './queries.js';
import { BUCKETS, sellerDays } from './seller-days.js';

// The dashboard's card groups (docs/metrics.md "Dashboard"): each snapshot figure over the period — the
// average of its days' end-of-day figures (days.ts) — and over the previous period of equal length.
//  - closed days of the warm window (the last WARM_DAYS days): any selection's from the per-seller rows
//    (seller-days.ts: counts, discount histogram and amounts, summed over its sellers) and the index
//    history in memory (index-history.ts: price index and deviation) — issue 30;
//  - closed days before the window: computed once per scope from the daily roll-up and the price
//    intervals (days.ts computeDays), then read from dashboard_day_figures;
//  - today: the daily roll-up, listing_current, and the price index of the pricing model (the same
//    scoring as the DPM screens);
//  - whole answers are memoised per process by (scope, period, pricing model version) at the market's data
//    version (the read-model holder, platform/read-model.ts).

const UNITS: Record<DashboardCardKey, DashboardCard['unit']> = {
  availability: 'percent',
  new: 'count',
  unpublished: 'count',
  price_index: 'index',
  deviation: 'index',
  monetary_discount: 'money',
  average_discount: 'percent',
  mode_discount: 'percent',
  in_discount: 'percent',
};

export type Scope = FiguresScope;

/** The scope's key in dashboard_day_figures: competitors and roots sorted. */
function figuresKey(s: Scope): Scope {
  return {
    ...s,
    competitors: [...s.competitors].sort((a, b) => a - b),
    roots: [...s.roots].sort((a, b) => a - b),
  };
}

/**
 * The figures of the closed days [from, to] (all before today) for a scope: read from
 * dashboard_day_figures, the missing ones computed at once (one range from the first to the last
 * missing day) and stored — a closed day never changes again (ingestion refuses older observations).
 */
export async function closedDays(
  pool: pg.Pool,
  s: Scope,
  from: string,
  to: string,
): Promise<Map<string, DayFigures>> {
  const key = figuresKey(s);
  const stored = await selectStoredDays<DayFigures>(pool, { ...key, from, to });
  const missing: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (!stored.has(d)) missing.push(d);
  if (!missing.length) return stored;
  const computed = await computeDays(pool, key, missing[0], missing[missing.length - 1]);
  const fresh = missing.map((day) => ({ day, figures: computed.get(day) as DayFigures }));
  await insertStoredDays(pool, key, fresh);
  for (const { day, figures } of fresh) stored.set(day, figures);
  return stored;
}

/**
 * The figures of the closed days [from, to] inside the index history's window for a scope: the counts,
 * discount histogram and amounts summed over the scope's sellers' rows, the index and deviation from the
 * history — the same figures as computeDays (dashboard-state.test.ts compares them).
 */
export async function closedDaysFromState(
  pool: pg.Pool,
  s: Scope,
  h: IndexHistory,
  from: string,
  to: string,
): Promise<Map<string, DayFigures>> {
  const key = figuresKey(s);
  const sellers = [key.pivot, ...key.competitors];
  const D = daysInclusive(from, to);
  // the rates of the currencies known before the sellers' rows are read with them (one wait, not two)
  const known = [...new Set<string>([s.currency, ...h.currencies])];
  const [perSeller, rootClasses, knownFx] = await Promise.all([
    sellerDays(pool, { sellers, roots: key.roots, zone: key.zone, from, to }),
    selectRootClasses(pool, key.roots),
    loadFx(pool, known, from, to),
  ]);
  const currencies = new Set<string>(known);
  for (const m of perSeller.values()) for (const f of m.values()) for (const c in f.money) currencies.add(c);
  const clp = dailyClp(
    currencies.size > known.length ? await loadFx(pool, [...currencies], from, to) : knownFx,
    from,
    D,
  );
  const idx = indexDays(h, {
    competitors: key.competitors,
    rootClasses,
    from,
    to,
    clp,
    mineKey: JSON.stringify(key.roots),
  });
  const target = clp(s.currency);
  const out = new Map<string, DayFigures>();
  const hist = new Int32Array(BUCKETS);
  for (let d = 0; d < D; d++) {
    const day = addDays(from, d);
    let any = false;
    const c = { published: 0, in_stock: 0, promoted: 0, discounted: 0, discount_pct_sum: 0 };
    let moneySum = 0;
    let moneyN = 0;
    hist.fill(0);
    for (const seller of sellers) {
      const f = perSeller.get(seller)?.get(day);
      if (!f) continue;
      if (f.has_rollup) {
        any = true;
        c.published += f.published;
        c.in_stock += f.in_stock;
        c.promoted += f.promoted;
        c.discounted += f.discounted;
        c.discount_pct_sum += f.discount_pct_sum;
      }
      for (let k = 0; k < BUCKETS; k++) hist[k] += f.buckets[k];
      for (const cur in f.money) {
        const r = clp(cur)[d] / target[d];
        if (!Number.isFinite(r)) continue;
        moneySum += f.money[cur][0] * r;
        moneyN += f.money[cur][1];
      }
    }
    out.set(day, {
      ...countFigures(any ? c : undefined),
      price_index: idx.n[d] ? idx.sum[d] / idx.n[d] : null,
      deviation: idx.n[d] ? idx.dev[d] / idx.n[d] : null,
      monetary_discount: moneyN ? moneySum / moneyN : null,
      buckets: pairs(hist),
    });
  }
  return out;
}

/**
 * The closed days [from, to] of a scope (days of its zone; `todayDay` today in that zone): inside the
 * warm window from the per-seller rows and the index history of the pivot in that zone when this process
 * holds it or is reading its saved copy (indexHistoryOrSaved), else from the per-scope figures
 * (closedDays) while the history loads from the tables behind (the same figures: dashboard-state.test.ts).
 */
export async function closedFigures(
  pool: pg.Pool,
  s: Scope,
  from: string,
  to: string,
  todayDay: string,
): Promise<Map<string, DayFigures>> {
  const w = historyWindow(todayDay, WARM_DAYS);
  if (from < w.from || to > w.to) return closedDays(pool, s, from, to);
  const h = await indexHistoryOrSaved(pool, s.pivot, s.zone, w.from, w.to, from);
  return h ? closedDaysFromState(pool, s, h, from, to) : closedDays(pool, s, from, to);
}

/**
 * The market's discounts now for a selection: each seller's (selectCurrentSellerDiscounts, kept per
 * seller and roots until the market's data changes) summed — the histogram, and the average amount in
 * the target currency over the listings whose currency has a rate (`rates`: factor to the target).
 */
export async function currentDiscounts(
  pool: pg.Pool,
  q: { sellers: number[]; roots: number[]; rates: Map<string, number> },
): Promise<{ monetary: number | null; buckets: [number, number][] }> {
  const memo = readModelsOf(pool).memo<{ rows: SellerDiscountRow[] }>('dashboard-seller-discounts', 256);
  const perSeller = await Promise.all(
    q.sellers.map((seller) =>
      memo.answer([seller, q.roots], async () => ({
        rows: await selectCurrentSellerDiscounts(pool, { seller, roots: q.roots }),
      })),
    ),
  );
  const hist = new Map<number, number>();
  let sum = 0;
  let n = 0;
  for (const { rows } of perSeller)
    for (const r of rows) {
      hist.set(r.bucket, (hist.get(r.bucket) ?? 0) + r.n);
      const f = q.rates.get(r.currency);
      if (f === undefined) continue;
      sum += r.amount * f;
      n += r.n;
    }
  return {
    monetary: n ? sum / n : null,
    buckets: bucketPairs([...hist].map(([bucket, count]) => ({ bucket, n: count }))),
  };
}

/**
 * The listings first seen / unpublished in the period and the previous one (selectEventCounts) for a
 * selection: each seller's count summed — a listing is one seller's — from per-seller answers kept
 * until the market's data changes, so that a new competitor selection (the dashboard's first answer,
 * issue 30) scans `products` only for the sellers no selection has named since the last change.
 */
export async function eventCounts(
  pool: pg.Pool,
  q: { sellers: number[]; roots: number[]; from: string; to: string; previousFrom: string; zone: string },
): Promise<EventCounts> {
  const memo = readModelsOf(pool).memo<EventCounts>('dashboard-seller-events', 256);
  const { sellers, ...rest } = q;
  const perSeller = await Promise.all(
    sellers.map((seller) =>
      memo.answer([seller, rest], () => selectEventCounts(pool, { ...rest, sellers: [seller] })),
    ),
  );
  const sum: EventCounts = {
    new_current: 0,
    new_previous: 0,
    unpublished_current: 0,
    unpublished_previous: 0,
  };
  for (const e of perSeller) for (const k of Object.keys(sum) as (keyof EventCounts)[]) sum[k] += e[k];
  return sum;
}

/** The first day any listing of `sellers` was seen (selectMonitoringSince): the earliest of per-seller answers. */
async function monitoringSinceOf(pool: pg.Pool, sellers: number[], zone: string): Promise<string | null> {
  const memo = readModelsOf(pool).memo<{ since: string | null }>('dashboard-seller-since', 256);
  const days = await Promise.all(
    sellers.map((seller) =>
      memo.answer([seller, zone], async () => ({ since: await selectMonitoringSince(pool, [seller], zone) })),
    ),
  );
  let first: string | null = null;
  for (const { since } of days) if (since !== null && (first === null || since < first)) first = since;
  return first;
}

/** Today's figures; the price index from the pricing model's scoring of the same scope. */
async function currentDay(pool: pg.Pool, s: Scope, resolved: Resolved, day: string): Promise<DayFigures> {
  const sellers = [s.pivot, ...s.competitors];
  const rates = ratesTo(await selectClpRates(pool, day), s.currency);
  if (!rates) throw badRequest(`currency: no hay tipo de cambio para ${s.currency}`, 'currency');
  const [counts, discounts] = await Promise.all([
    selectRollupDays(pool, { from: day, to: day, sellers, roots: s.roots, zone: s.zone }),
    currentDiscounts(pool, { sellers, roots: s.roots, rates }),
  ]);
  const { sum, dev, n } = indexTotals(resolved);
  return {
    ...countFigures(counts[0]),
    price_index: n ? sum / n : null,
    deviation: n ? dev / n : null,
    monetary_discount: discounts.monetary,
    buckets: discounts.buckets,
  };
}

/** The days of [from, to] in order: closed ones from `closed`, today (when in it) `today`. */
function periodDays(
  closed: Map<string, DayFigures>,
  from: string,
  to: string,
  todayDay: string,
  today: DayFigures | null,
): DayFigures[] {
  const lastClosed = to < todayDay ? to : addDays(todayDay, -1);
  const days: DayFigures[] = [];
  for (let d = from; d <= lastClosed; d = addDays(d, 1)) days.push(closed.get(d) as DayFigures);
  if (to === todayDay) days.push(today as DayFigures);
  return days;
}

/** A period's figures rounded to 2 decimals (the mode is a bucket already). */
function rounded(f: ReturnType<typeof periodFigures>) {
  return {
    availability: round2(f.availability),
    in_discount: round2(f.in_discount),
    average_discount: round2(f.average_discount),
    price_index: round2(f.price_index),
    deviation: round2(f.deviation),
    monetary_discount: round2(f.monetary_discount),
    mode_discount: f.mode_discount,
  };
}

/** No previous period (no comparison): every figure null. */
const NO_FIGURES = rounded(periodFigures([]));

/**
 * A snapshot card's figure on each day of the period (the values its number averages; the mode card:
 * each day's own mode), so that the screen can show where the number comes from (issue 31 item 1).
 */
function dayValues(
  k: Exclude<DashboardCardKey, 'new' | 'unpublished'>,
  from: string,
  days: DayFigures[],
): { date: string; value: number | null }[] {
  return days.map((d, i) => ({
    date: addDays(from, i),
    value: k === 'mode_discount' ? periodFigures([d]).mode_discount : round2(d[k]),
  }));
}
const MEMO_SIZE = 32;

/** The answers memo (kept across a restart: created at start-up, so that its saved answers are read then). */
export const dashboardAnswers = (pool: pg.Pool) =>
  readModelsOf(pool).keptAcrossRestarts<DashboardPreResponse>('dashboard-answers', MEMO_SIZE);

export async function dashboardPre(
  pool: pg.Pool,
  q: { lookups: Lookups; roots: number[]; from?: string; to?: string; now?: Date; zone?: string },
): Promise<DashboardPreResponse> {
  const now = q.now ?? new Date();
  // the days of every figure: the organisation's zone once the roll-up's rows of it are ready
  const zone = await dayZone(pool, q.zone ?? DEFAULT_TIMEZONE);
  const todayDay = today(now, zone);
  const period = resolvePeriod(
    { from: q.from, to: q.to },
    { from: 'from_date', to: 'to_date' },
    {
      maxDays: DASHBOARD_MAX_PERIOD_DAYS,
      defaultFrom: (to) => addDays(to, -(DASHBOARD_DEFAULT_PERIOD_DAYS - 1)),
      now,
      notAfterToday: true,
      zone,
    },
  );
  const { scope: ps, version } = q.lookups;
  const s: Scope = {
    pivot: ps.pivot,
    competitors: ps.competitors,
    roots: q.roots,
    currency: ps.currency,
    zone,
  };
  const length = daysInclusive(period.from, period.to);
  const previousTo = addDays(period.from, -1);
  const previousFrom = addDays(period.from, -length);

  // kept across a restart: a restarted process answers the cards asked before from its first moment,
  // while the pivot's model and the index history load behind (issue 30, cold start)
  return dashboardAnswers(pool).answer([s, period, todayDay, version], async () => {
    // the closed days' index history read from now on, beside the model's load — only when the answer
    // is not kept: a kept answer (a restarted process) is not slowed by an 87 MB read (large market) that
    // the warm-ups do behind
    startIndexHistory(pool, s.pivot, q.zone ?? DEFAULT_TIMEZONE).catch(() => {});
    // The pivot's model first, when today is in the period (its price index; a period of closed days
    // does not read it): the DPM screens a browser asks beside the dashboard wait for the same model,
    // and the closed days' work (the index history's reads and merges) would share the event loop with
    // its making — a large cold start's first DPM answers 0.5–2 s later when it did (issue 30). Then
    // today's figures and the events, which do not depend on the closed days, are asked at once, so that
    // the answer waits for the longest of these reads rather than their sum. The first day of monitoring
    // (a few index reads) is asked before the model: the closed days' computation waits for it. Awaited
    // below; the catch only keeps a failure from being unhandled while another read is awaited.
    const sinceRead = monitoringSinceOf(pool, [s.pivot, ...s.competitors], zone);
    sinceRead.catch(() => {});
    const resolved = period.to === todayDay ? await withModel(pool, q.lookups) : null;
    const todayFigures = resolved ? currentDay(pool, s, resolved, todayDay) : null;
    const eventsRead = eventCounts(pool, {
      sellers: [s.pivot, ...s.competitors],
      roots: s.roots,
      from: period.from,
      to: period.to,
      previousFrom,
      zone,
    });
    todayFigures?.catch(() => {});
    eventsRead.catch(() => {});
    // A previous period that starts before monitoring did — or on its first day, when every listing is
    // seen for the first time — has no complete data: no comparison at all (a change against it, e.g.
    // "Nuevos 1.693, −25.268" for 90 days when monitoring began on the previous period's first day,
    // would mislead).
    const monitoringSince = await sinceRead;
    const comparable = monitoringSince !== null && previousFrom > monitoringSince;
    // Both periods' closed days in one computation.
    const closedFrom = comparable ? previousFrom : period.from;
    const lastClosed = period.to < todayDay ? period.to : addDays(todayDay, -1);
    const closed =
      closedFrom <= lastClosed
        ? await closedFigures(pool, s, closedFrom, lastClosed, todayDay)
        : new Map<string, DayFigures>();
    const currentDays = periodDays(closed, period.from, period.to, todayDay, await todayFigures);
    const current = periodFigures(currentDays);
    const previous = comparable
      ? periodFigures(periodDays(closed, previousFrom, previousTo, todayDay, null))
      : null;
    const events = await eventsRead;

    const cur: Record<DashboardCardKey, number | null> = {
      ...rounded(current),
      new: events.new_current,
      unpublished: events.unpublished_current,
    };
    const prev: Record<DashboardCardKey, number | null> = {
      ...(previous ? rounded(previous) : NO_FIGURES),
      new: events.new_previous,
      unpublished: events.unpublished_previous,
    };
    const card = (k: DashboardCardKey): DashboardCard => ({
      key: k,
      title: DASHBOARD_CARD_TITLES[k],
      unit: UNITS[k],
      value: cur[k],
      previous: comparable ? prev[k] : null,
      change: comparable ? round2(cardChange(cur[k], prev[k])) : null,
      link: DASHBOARD_CARD_LINKS[k],
      ...(k === 'new' || k === 'unpublished' ? {} : { days: dayValues(k, period.from, currentDays) }),
    });
    const answer: DashboardPreResponse = {
      pivot_id: s.pivot,
      sellers: s.competitors,
      currency: s.currency,
      from_date: period.from,
      to_date: period.to,
      previous_from_date: previousFrom,
      previous_to_date: previousTo,
      comparison: comparable ? 'available' : 'no_data',
      monitoring_since: monitoringSince,
      groups: DASHBOARD_GROUPS.map((g) => ({ key: g.key, title: g.title, cards: g.cards.map(card) })),
    };
    return answer;
  });
}
