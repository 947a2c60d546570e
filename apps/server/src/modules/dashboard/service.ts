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
  daysInclusive,
  modeOfBuckets,
  share,
} from '@vigia/domain';
import type pg from 'pg';
import { badRequest } from '../../lib/errors.js';
import { ratesTo, resolvePeriod, selectClpRates, today } from '../../market/index.js';
import { type Resolved, scored } from '../pricing/index.js';
import { ensureEod, eodVersion } from './eod.js';
import {
  insertDayFigures,
  type RollupStateRow,
  selectDataVersion,
  selectDayFigures,
  selectDiscountState,
  selectEventCounts,
  selectIndexState,
  selectMonitoringSince,
  selectRollupState,
} from './queries.js';

// The dashboard's card groups (docs/metrics.md "Dashboard"): each snapshot figure at the end of the
// period and at the end of the previous period of equal length.
//  - the end of a closed day: computed once per scope from listing_eod and the daily roll-up, then read
//    from dashboard_day_figures;
//  - today: the daily roll-up, listing_current, and the price index of the pricing model (the same
//    scoring as the DPM screens);
//  - whole answers are memoised per process by (scope, period, data version).

const round2 = (v: number | null | undefined) =>
  v === null || v === undefined ? null : Math.round(v * 100) / 100;

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

type SnapshotKey = Exclude<DashboardCardKey, 'new' | 'unpublished'>;
type Snapshot = Record<SnapshotKey, number | null>;

export interface Scope {
  pivot: number;
  competitors: number[];
  roots: number[];
  currency: string;
}

function countFigures(c: RollupStateRow) {
  return {
    availability: round2(share(c.in_stock, c.published)),
    average_discount: c.discounted > 0 ? round2(c.discount_pct_sum / c.discounted) : null,
    in_discount: round2(share(c.promoted, c.published)),
  };
}

async function ratesAt(pool: pg.Pool, currency: string, day: string) {
  const clp = await selectClpRates(pool, day);
  const rates = ratesTo(clp, currency);
  const clpRates = ratesTo(clp, 'CLP');
  if (!rates || !clpRates) throw badRequest(`currency: no hay tipo de cambio para ${currency}`, 'currency');
  return { rates, clpRates };
}

/** The snapshot figures at the end of a closed day (before today), computed once per scope. */
export async function closedDay(pool: pg.Pool, s: Scope, day: string): Promise<Snapshot> {
  const key = {
    ...s,
    competitors: [...s.competitors].sort((a, b) => a - b),
    roots: [...s.roots].sort(),
    day,
  };
  const stored = await selectDayFigures<Snapshot>(pool, key);
  if (stored) return stored;
  const sellers = [s.pivot, ...s.competitors];
  const { rates, clpRates } = await ratesAt(pool, s.currency, day);
  const source = { kind: 'eod' as const, day };
  for (let attempt = 1; ; attempt++) {
    await ensureEod(pool, sellers, day);
    const version = await eodVersion(pool, sellers, day);
    const [counts, discounts, index] = await Promise.all([
      selectRollupState(pool, { day, sellers, roots: s.roots }),
      selectDiscountState(pool, { source, sellers, roots: s.roots, rates }),
      selectIndexState(pool, {
        source,
        pivot: s.pivot,
        competitors: s.competitors,
        roots: s.roots,
        clpRates,
      }),
    ]);
    const figures: Snapshot = {
      ...countFigures(counts),
      price_index: round2(index.average_index),
      deviation: round2(index.deviation),
      monetary_discount: round2(discounts.monetary),
      mode_discount: modeOfBuckets(discounts.buckets ?? []),
    };
    // The day was pruned (and maybe rebuilt) while it was read: read it again rather than keep figures
    // of a half-deleted state.
    if ((await eodVersion(pool, sellers, day)) !== version) {
      if (attempt < 3) continue;
      throw new Error(`dashboard: end-of-day state of ${day} kept changing while it was read`);
    }
    await insertDayFigures(pool, key, figures);
    return figures;
  }
}

/** The snapshot figures now; the price index from the pricing model's scoring of the same scope. */
async function currentDay(pool: pg.Pool, s: Scope, resolved: Resolved, day: string): Promise<Snapshot> {
  const sellers = [s.pivot, ...s.competitors];
  const { rates } = await ratesAt(pool, s.currency, day);
  const [counts, discounts] = await Promise.all([
    selectRollupState(pool, { day, sellers, roots: s.roots }),
    selectDiscountState(pool, { source: { kind: 'current' }, sellers, roots: s.roots, rates }),
  ]);
  const set = scored(resolved);
  let n = 0;
  let sum = 0;
  let dev = 0;
  for (const i of set.filtered) {
    const idx = set.index[i];
    if (!Number.isFinite(idx)) continue;
    n++;
    sum += idx;
    dev += Math.abs(idx - 100);
  }
  return {
    ...countFigures(counts),
    price_index: n ? round2(sum / n) : null,
    deviation: n ? round2(dev / n) : null,
    monetary_discount: round2(discounts.monetary),
    mode_discount: modeOfBuckets(discounts.buckets ?? []),
  };
}

const memo = new Map<string, DashboardPreResponse>();
const MEMO_SIZE = 32;

export async function dashboardPre(
  pool: pg.Pool,
  q: { resolved: Resolved; roots: number[]; from?: string; to?: string; now?: Date },
): Promise<DashboardPreResponse> {
  const now = q.now ?? new Date();
  const todayDay = today(now);
  const period = resolvePeriod(
    { from: q.from, to: q.to },
    { from: 'from_date', to: 'to_date' },
    {
      maxDays: DASHBOARD_MAX_PERIOD_DAYS,
      defaultFrom: (to) => addDays(to, -(DASHBOARD_DEFAULT_PERIOD_DAYS - 1)),
      now,
    },
  );
  if (period.to > todayDay)
    throw badRequest('to_date: la fecha final no puede ser posterior a hoy', 'to_date');
  const { scope: ps, model } = q.resolved;
  const s: Scope = { pivot: ps.pivot, competitors: ps.competitors, roots: q.roots, currency: ps.currency };
  const length = daysInclusive(period.from, period.to);
  const previousTo = addDays(period.from, -1);
  const previousFrom = addDays(period.from, -length);

  const version = await selectDataVersion(pool);
  const key = JSON.stringify([s, period, todayDay, version, model.version]);
  const hit = memo.get(key);
  if (hit) return hit;

  const current =
    period.to === todayDay
      ? await currentDay(pool, s, q.resolved, todayDay)
      : await closedDay(pool, s, period.to);
  // A previous period that starts before monitoring did has no complete data: no comparison at all
  // (a change against a half-empty period, e.g. "Nuevos −25.268", would mislead).
  const monitoringSince = await selectMonitoringSince(pool, [s.pivot, ...s.competitors]);
  const comparable = monitoringSince !== null && previousFrom >= monitoringSince;
  const previous = await closedDay(pool, s, previousTo);
  const events = await selectEventCounts(pool, {
    sellers: [s.pivot, ...s.competitors],
    roots: s.roots,
    from: period.from,
    to: period.to,
    previousFrom,
  });

  const cur: Record<DashboardCardKey, number | null> = {
    ...current,
    new: events.new_current,
    unpublished: events.unpublished_current,
  };
  const prev: Record<DashboardCardKey, number | null> = {
    ...previous,
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
  memo.set(key, answer);
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  return answer;
}
