import { round2 } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Database } from '../../db/database.js';
import { selectClpRates } from '../../market/index.js';
import { createTestDatabase } from '../../test/context.js';
import {
  insertClassification,
  insertFxRate,
  insertSeller,
  observe,
  seedReferenceData,
} from '../../test/fixtures.js';
import {
  selectPriceP95,
  selectRangeCounts,
  selectRangePoints,
  selectRunningGroups,
  selectScatter,
  selectTypePrices,
} from '../../test/promotions-reference.js';
import type { Observation } from '../ingest/index.js';
import { ratesUpTo, windowScopeOf } from './answers.js';
import {
  chartOf,
  chartPool,
  clearScatterIndexes,
  keptAnswers,
  rangeIndexes,
  rangeOf,
  scatterIndexBytes,
  scatterOf,
  scatterQuestions,
  typeIndexes,
  typeOf,
} from './chart-pool.js';
import { computeChart } from './charts.js';
import { checkPromotions } from './check.js';
import {
  orderStatistics,
  rangeChart,
  runningGroups,
  scatterChart,
  scatterPasses,
  scratchLength,
  typeChart,
} from './distribution.js';
import { currenciesOf, dateGroups, type SellerSpans, sellerSpans } from './model.js';
import { type RunningGroup, type ScopeValues, selectLeaves, type TypePricesRow } from './queries.js';
import './rollup.js';
import { niceStep } from './service.js';

// The in-memory promotions (model.ts) and the range and scatter figures computed from them
// (distribution.ts) against the SQL over promo_spans they replace (test/promotions-reference.ts), on a
// pseudo-random market: 3 sellers (one in PEN), 2 roots with 2 leaves each, 36 listings, 20 days of
// runs (some days with a second partial run) in which listings go on and off SALE, EXCLUSIVE and
// BYQUANTITY promotions, change prices and are unpublished, and a weekly campaign puts six listings of
// each seller on SALE for three days. promo_spans itself is checked against the
// price history (checkPromotions). The copy is read after day 10 and refreshed after day 20 (only the
// promotions a run may change), then compared with a copy read whole.

let db: Database;
let roots: number[];
let leaves: number[];
const SELLERS = [5, 7, 9];
const ZONE = 'America/Santiago';
const DAY0 = Date.UTC(2026, 10, 1);
const dayOf = (i: number) => new Date(DAY0 + i * 86_400_000).toISOString().slice(0, 10);

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function runDays(fromDay: number, toDay: number, seed: number) {
  const r = rng(seed);
  for (let d = fromDay; d <= toDay; d++) {
    for (const seller of SELLERS) {
      const obs: Observation[] = [];
      for (let k = 0; k < 12; k++) {
        const x = r();
        // a three-day campaign each week: the first six listings of every seller on SALE at 80 % (their
        // promotions share their days: the type averages' date groups sum them together)
        const campaign = d % 7 >= 2 && d % 7 <= 4 && k < 6;
        if (x < 0.1 && !campaign) continue; // unpublished today
        const normal = 1000 + 10 * k + (seller === 9 ? 0.5 : 0);
        const price = Math.round(normal * (0.5 + 0.4 * r()) * 100) / 100;
        const p: Partial<Observation> = campaign
          ? { salePrice: Math.round(normal * 80) / 100 }
          : x < 0.35
            ? { salePrice: price }
            : x < 0.45
              ? { exclusivePrice: price }
              : x < 0.52
                ? { byquantityPrice: price, byquantityQty: 2 }
                : {};
        obs.push({
          productId: `S${seller}-${k}`,
          name: `Producto ${seller}-${k}`,
          brand: 'Marca',
          classificationId: leaves[k % leaves.length],
          normalPrice: normal,
          ...p,
        });
      }
      await observe(db.pool, seller, `${dayOf(d)}T12:00:00Z`, obs);
      if (r() < 0.3 && obs.length)
        await observe(
          db.pool,
          seller,
          `${dayOf(d)}T20:00:00Z`,
          [{ ...obs[0], salePrice: 555.55 }],
          'partial',
        );
    }
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedReferenceData(db.pool);
  await insertSeller(db.pool, { id: 5, name: 'Uno' });
  await insertSeller(db.pool, { id: 7, name: 'Dos' });
  await insertSeller(db.pool, { id: 9, name: 'Tres', country: 'PE', currency: 'PEN' });
  await insertFxRate(db.pool, 'PEN', '2026-10-01', 250.5);
  await insertFxRate(db.pool, 'USD', '2026-10-01', 950);
  const a = await insertClassification(db.pool, 'A');
  const b = await insertClassification(db.pool, 'B');
  roots = [a, b];
  leaves = [
    await insertClassification(db.pool, 'A1', a),
    await insertClassification(db.pool, 'A2', a),
    await insertClassification(db.pool, 'B1', b),
    await insertClassification(db.pool, 'B2', b),
  ];
  await runDays(0, 10, 1);
});
afterAll(() => db?.close());

async function scopeOf(classes: number[], from: string, to: string, currency: string) {
  const l = await selectLeaves(db.pool, classes);
  const rates = await selectClpRates(db.pool, to);
  const curs = [...rates.keys()];
  const values: ScopeValues = {
    sellers: SELLERS,
    asked: classes,
    leaves: l.leaves,
    classes: l.classes,
    from,
    to,
    curs,
    factors: curs.map((c) => (rates.get(c) as number) / (rates.get(currency) as number)),
    currency,
    targetClp: rates.get(currency) as number,
    zone: ZONE,
  };
  return values;
}

const byKey = <T extends { seller_id: number }>(rows: T[], k: (r: T) => number) =>
  [...rows].sort((x, y) => x.seller_id - y.seller_id || k(x) - k(y));

/** Every scope of the comparison: windows, nested and overlapping classifications, currencies, ranges. */
function cases(days: number) {
  const out: { classes: number[]; from: string; to: string; currency: string; ranges: number }[] = [];
  const r = rng(days);
  const sets = [[roots[0]], [roots[1]], [leaves[0]], roots, [roots[0], leaves[0]], [...roots, ...leaves]];
  for (const classes of sets)
    for (const currency of ['CLP', 'USD', 'PEN']) {
      const a = Math.floor(r() * days);
      const b = a + Math.floor(r() * (days - a));
      out.push({ classes, from: dayOf(a), to: dayOf(b), currency, ranges: 2 + Math.floor(r() * 9) });
    }
  return out;
}

/**
 * The in-memory type averages equal the SQL's: counts exactly, averages to 1e-9 (float sums in another
 * order; the numeric discount average of the SQL against the float one), and so to the cent shown —
 * except on an exact half cent (two promotions at 777.60 and 777.61), where the last bit of either float
 * sum, which depends on the order the SQL happened to add its rows in, rounds it up or down. A single
 * promotion's figures equal the SQL's to the cent always.
 */
/** Groups of one promotion compared by expectSameTypes. */
let singles = 0;

function expectSameTypes(mine: TypePricesRow[], sql: TypePricesRow[]) {
  const key = (r: TypePricesRow) => `${r.seller_id}:${r.cls}:${r.price_type}`;
  const sorted = (rows: TypePricesRow[]) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));
  const a = sorted(mine);
  const b = sorted(sql);
  expect(a.map(key)).toEqual(b.map(key));
  a.forEach((r, i) => {
    expect(r.count).toBe(b[i].count);
    if (r.count === 1) singles++;
    for (const m of ['normal', 'promotion', 'discount'] as const) {
      const x = r[m];
      const y = b[i][m];
      if (x === null || y === null) expect(x).toBe(y);
      else {
        const tolerance = 1e-9 * Math.max(1, Math.abs(y));
        expect(Math.abs(x - y)).toBeLessThanOrEqual(tolerance);
        // one promotion: no sum whose order matters; its discount in cents is within an ulp of the SQL's
        // numeric one (rounded to 16 decimals, then to float8), never across a half cent
        const halfCent = Math.abs(y * 100 - Math.trunc(y * 100) - 0.5) * 0.01 <= tolerance;
        if (r.count === 1 || !halfCent) expect(round2(x)).toBe(round2(y));
      }
    }
  });
}

/**
 * The running groups equal the SQL's: the same groups and counts, the prices' sums to the cent as text
 * (both exact), the discounts' sums to 1e-9 (float8 against numeric).
 */
function expectSameRunning(mine: RunningGroup[], sql: RunningGroup[]) {
  const key = (r: RunningGroup) => `${r.seller_id}|${r.first_day}|${r.currency}`;
  const sorted = (rows: RunningGroup[]) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));
  const a = sorted(mine);
  const b = sorted(sql);
  expect(a.map(({ disc, ...r }) => r)).toEqual(b.map(({ disc, ...r }) => r));
  a.forEach((r, i) => {
    const y = b[i].disc;
    if (r.disc === null || y === null) expect(r.disc).toBe(y);
    else expect(Math.abs(Number(r.disc) - Number(y))).toBeLessThanOrEqual(1e-9 * Math.max(1, Number(y)));
  });
}

async function expectSameAsSql(models: SellerSpans[], days: number) {
  let compared = 0;
  let typesCompared = 0;
  let runningCompared = 0;
  const onePassBefore = scatterPasses.one;
  for (const c of cases(days)) {
    const v = await scopeOf(c.classes, c.from, c.to, c.currency);
    const w = windowScopeOf(db.pool, models, v, await ratesUpTo(db.pool, v));
    // range (the endpoint asks one classification; the figures take any)
    const raw = await selectRangePoints(db.pool, v, c.ranges);
    const points = raw ? raw.map((p) => round2(p)) : [];
    const sqlCounts = points.length ? await selectRangeCounts(db.pool, v, points.slice(1, -1)) : [];
    const chart = rangeChart(models, w, c.ranges, round2);
    expect(await rangeOf(models, w, c.ranges)).toEqual(chart); // the endpoint's way (chart-pool.ts)
    expect(chart.points).toEqual(points);
    expect(byKey(chart.counts, (x) => x.range)).toEqual(byKey(sqlCounts, (x) => x.range));
    // scatter plot
    const width = niceStep((await selectPriceP95(db.pool, v)) ?? 0);
    const sqlRows = (await selectScatter(db.pool, v, width, 5)).map((x) => ({
      ...x,
      ids: (x.ids ?? []).map(Number),
    }));
    const scatter = scatterChart(models, w, niceStep, 5);
    expect(scatter.width).toBe(width);
    expect(scatter.rows).toEqual(sqlRows);
    expect(await scatterOf(models, w, 5)).toEqual(scatter); // the endpoint's way (chart-pool.ts)
    compared += sqlRows.length + sqlCounts.length;
    // the type averages (the endpoint reads them here in a currency other than CLP)
    const types = await selectTypePrices(db.pool, v);
    expectSameTypes(typeChart(models, w), types);
    expectSameTypes(await typeOf(models, w), types); // the endpoint's way (chart-pool.ts)
    typesCompared += types.length;
    // the duration chart's running promotions (it asks one classification)
    if (c.classes.length === 1) {
      const sql = await selectRunningGroups(db.pool, v);
      expectSameRunning(runningGroups(models, v.leaves, currenciesOf(db.pool)), sql);
      runningCompared += sql.length;
    }
    // the same question with the window moved day by day: computed in one pass from the previous
    // window's percentile (distribution.ts scatterOnePass) whenever the width stays, and equal to the SQL
    for (let shift = 1; shift <= 3 && c.from < c.to; shift++) {
      const moved = { ...v, from: dayOf((Date.parse(c.from) - DAY0) / 86_400_000 + shift) };
      if (moved.from > moved.to) break;
      const movedWidth = niceStep((await selectPriceP95(db.pool, moved)) ?? 0);
      const movedRows = (await selectScatter(db.pool, moved, movedWidth, 5)).map((x) => ({
        ...x,
        ids: (x.ids ?? []).map(Number),
      }));
      const again = scatterChart(
        models,
        windowScopeOf(db.pool, models, moved, await ratesUpTo(db.pool, moved)),
        niceStep,
        5,
      );
      expect(again.width).toBe(movedWidth);
      expect(again.rows).toEqual(movedRows);
      compared += movedRows.length;
    }
  }
  // windows ending on the last day, every first day: from the kept index and pairs (scatter-index.ts)
  clearScatterIndexes();
  const keptBefore = { ...keptAnswers };
  let fast = 0;
  let fastTypes = 0;
  let fastRanges = 0;
  for (const classes of [roots, [roots[0]], [roots[0], leaves[0]]])
    for (const currency of ['CLP', 'USD'])
      for (let a = 0; a < days; a++) {
        const v = await scopeOf(classes, dayOf(a), dayOf(days - 1), currency);
        const width = niceStep((await selectPriceP95(db.pool, v)) ?? 0);
        const sqlRows = (await selectScatter(db.pool, v, width, a % 2 ? 5 : 0)).map((x) => ({
          ...x,
          ids: a % 2 ? (x.ids ?? []).map(Number) : null,
        }));
        const w = windowScopeOf(db.pool, models, v, await ratesUpTo(db.pool, v));
        expect(await scatterOf(models, w, a % 2 ? 5 : 0)).toEqual({ width, rows: sqlRows });
        fast += sqlRows.length;
        // the range chart from its kept bins (range-index.ts)
        const ranges = 2 + (a % 9);
        const raw = await selectRangePoints(db.pool, v, ranges);
        const points = raw ? raw.map((p) => round2(p)) : [];
        const sqlCounts = points.length ? await selectRangeCounts(db.pool, v, points.slice(1, -1)) : [];
        const range = await rangeOf(models, w, ranges);
        expect(range.points).toEqual(points);
        expect(byKey(range.counts, (x) => x.range)).toEqual(byKey(sqlCounts, (x) => x.range));
        expect(range).toEqual(rangeChart(models, w, ranges, round2));
        fastRanges += range.counts.length;
        // and the type averages from their kept sums (type-index.ts)
        const types = await selectTypePrices(db.pool, v);
        expectSameTypes(await typeOf(models, w), types);
        fastTypes += types.length;
      }
  expect(fast).toBeGreaterThan(100);
  expect(fastTypes).toBeGreaterThan(100);
  expect(fastRanges).toBeGreaterThan(100);
  // most were answered from the kept indexes (the first of each question over its promotions, while its
  // index was being built)
  expect(scatterIndexBytes()).toBeGreaterThan(0);
  expect(typeIndexes()).toBeGreaterThan(0);
  expect(rangeIndexes()).toBeGreaterThan(0);
  const questions = 3 * 2 * days;
  expect(keptAnswers.scatter - keptBefore.scatter).toBeGreaterThan(questions / 2);
  expect(keptAnswers.type - keptBefore.type).toBeGreaterThan(questions / 2);
  expect(keptAnswers.range - keptBefore.range).toBeGreaterThan(questions / 2);
  // the same question with other rates on its first days is another: not answered from the kept index
  const v = await scopeOf(roots, dayOf(1), dayOf(days - 1), 'USD');
  const w = windowScopeOf(db.pool, models, v, await ratesUpTo(db.pool, v));
  const before = await scatterOf(models, w, 5);
  const other = { ...w, fx: w.fx.map((f) => f * 3) };
  expect(await scatterOf(models, other, 5)).toEqual(scatterChart(models, other, niceStep, 5));
  expect(await scatterOf(models, other, 5)).not.toEqual(before);
  expect(compared).toBeGreaterThan(50); // the cases did find promotions
  expect(typesCompared).toBeGreaterThan(50);
  expect(runningCompared).toBeGreaterThan(10);
  expect(singles).toBeGreaterThan(0); // some groups hold a single promotion
  // the type averages read the date groups (model.ts dateGroups): here they did sum promotions together
  const grouped = models.reduce((n, s) => n + dateGroups(s).n, 0);
  const promotions = models.reduce((n, s) => n + s.n, 0);
  expect(grouped).toBeLessThan(promotions);
  expect(scatterPasses.one - onePassBefore).toBeGreaterThanOrEqual(5); // moved windows took the one-pass path
}

const columns = (s: SellerSpans) => ({
  n: s.n,
  product: [...s.product],
  leaf: [...s.leaf],
  first: [...s.first],
  last: [...s.last],
  promo: [...s.promo],
  normal: [...s.normal],
  type: [...s.type],
  cur: [...s.cur],
});

describe('in-memory promotions (model.ts)', () => {
  it('give the range and scatter figures and the type averages of the SQL over promo_spans', async () => {
    expect(await checkPromotions(db.pool)).toEqual([]);
    await expectSameAsSql(await sellerSpans(db.pool, SELLERS, ZONE), 11);
  });

  it('are computed alike by the chart threads (shared columns) and here', async () => {
    const models = await sellerSpans(db.pool, SELLERS, ZONE);
    expect(models.every((s) => s.product.buffer instanceof SharedArrayBuffer)).toBe(true);
    let compared = 0;
    for (const c of cases(11)) {
      const v = await scopeOf(c.classes, c.from, c.to, c.currency);
      const w = windowScopeOf(db.pool, models, v, await ratesUpTo(db.pool, v));
      const range = { kind: 'range' as const, models, scope: w, ranges: c.ranges };
      const scatter = { kind: 'scatter' as const, models, scope: w, sample: 5 };
      const type = { kind: 'type' as const, models, scope: w };
      // several at once: both threads busy and a queue
      const [r1, s1, r2, s2, t1] = await Promise.all([
        chartOf(range),
        chartOf(scatter),
        chartOf(range),
        chartOf(scatter),
        chartOf(type),
      ]);
      expect(r1).toEqual(computeChart(range));
      expect(r2).toEqual(r1);
      expect(s1).toEqual(computeChart(scatter));
      expect(s2).toEqual(s1);
      expect(t1).toEqual(computeChart(type));
      compared += s1.rows.length;
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('answer the same charts when a chart thread is killed under them (the pool runs them again)', async () => {
    const models = await sellerSpans(db.pool, SELLERS, ZONE);
    const c = cases(11)[0];
    const v = await scopeOf(c.classes, c.from, c.to, c.currency);
    const w = windowScopeOf(db.pool, models, v, await ratesUpTo(db.pool, v));
    const scatter = { kind: 'scatter' as const, models, scope: w, sample: 5 };
    const expected = computeChart(scatter);
    const lostBefore = chartPool.lostThreads;
    const burst = Array.from({ length: 12 }, () => chartOf(scatter));
    // end every chart thread while the burst is running or waiting
    await Promise.all(chartPool.threads.map((t) => t.terminate()));
    for (const r of await Promise.all(burst)) expect(r).toEqual(expected);
    expect(chartPool.lostThreads).toBeGreaterThan(lostBefore);
    expect(await chartOf(scatter)).toEqual(expected); // and the pool has threads again
  });

  it('refresh only what later runs may change, and equal a copy read whole', async () => {
    const before = await sellerSpans(db.pool, SELLERS, ZONE);
    // a question's kept index, built from the copies before the runs …
    clearScatterIndexes();
    const latest = async (models: SellerSpans[], last: number) => {
      const v = await scopeOf(roots, dayOf(2), dayOf(last), 'CLP');
      const w = windowScopeOf(db.pool, models, v, await ratesUpTo(db.pool, v));
      for (let ask = 0; ask < 2; ask++) await scatterOf(models, w, 5);
      await new Promise((done) => setTimeout(done, 200)); // the index built in a thread
      return scatterOf(models, w, 5);
    };
    await latest(before, 10);
    expect(scatterQuestions()).toBe(1);
    await runDays(11, 20, 2);
    expect(await checkPromotions(db.pool)).toEqual([]);
    const refreshed = await sellerSpans(db.pool, SELLERS, ZONE);
    expect(refreshed.map((s) => s.version)).not.toEqual(before.map((s) => s.version));
    // … is replaced by the refreshed copies' (not kept beside it), and answers as their pass does
    const v = await scopeOf(roots, dayOf(2), dayOf(20), 'CLP');
    const w = windowScopeOf(db.pool, refreshed, v, await ratesUpTo(db.pool, v));
    expect(await latest(refreshed, 20)).toEqual(scatterChart(refreshed, w, niceStep, 5));
    expect(scatterQuestions()).toBe(1);
    const other = createPool(db.url, 2); // another process: reads every seller whole
    try {
      const whole = await sellerSpans(other, SELLERS, ZONE);
      // same currency order in both processes here (both met CLP first, then PEN)
      expect(currenciesOf(other)).toEqual(currenciesOf(db.pool));
      expect(refreshed.map(columns)).toEqual(whole.map(columns));
    } finally {
      await other.end();
    }
    await expectSameAsSql(refreshed, 21);
  });

  it('deleting products rebuilds the cumulative rows and moves the sellers’ version', async () => {
    const before = await sellerSpans(db.pool, SELLERS, ZONE);
    const { rows } = await db.pool.query<{ id: number }>(
      `select id::int as id from products where product_id in ('S5-0', 'S5-1', 'S7-3') order by id`,
    );
    expect(rows).toHaveLength(3);
    await db.pool.query('delete from products where id = any($1::bigint[])', [rows.map((r) => r.id)]);
    // the cumulative rows of sellers 5 and 7 were rebuilt: nothing stale
    expect(await checkPromotions(db.pool)).toEqual([]);
    const { rows: versions } = await db.pool.query(
      'select seller_id, deleted::int as deleted from promo_versions order by seller_id',
    );
    expect(versions).toEqual([
      { seller_id: 5, deleted: 1 },
      { seller_id: 7, deleted: 1 },
    ]);
    const after = await sellerSpans(db.pool, SELLERS, ZONE);
    const gone = new Set(rows.map((r) => r.id));
    expect(after[0].n).toBeLessThan(before[0].n);
    expect(after[2]).toBe(before[2]); // seller 9 lost nothing: the same copy
    for (const s of after) expect([...s.product].some((p) => gone.has(p))).toBe(false);
    await expectSameAsSql(after, 21);
  });
  it('refuse a promotion dated outside the days they keep in 16 bits (1970-01-01 … 2149-06-05)', async () => {
    const pool = createPool(db.url, 2); // a process of its own: no copy held
    try {
      for (const first of ['1969-12-31', '2149-06-06']) {
        await db.pool.query(
          `insert into promo_spans (product_id, seller_id, classification_id, price_type, first_day, last_day,
                                    normal_price, promo_price, currency, zone)
           values (990001, 990, null, 'SALE', $1::date, null, 1000, 800, 'CLP', $2)`,
          [first, ZONE],
        );
        await expect(sellerSpans(pool, [990], ZONE)).rejects.toThrow(/fuera del rango/);
        await db.pool.query('delete from promo_spans where seller_id = 990');
      }
      // the last day that fits is read
      await db.pool.query(
        `insert into promo_spans (product_id, seller_id, classification_id, price_type, first_day, last_day,
                                  normal_price, promo_price, currency, zone)
         values (990001, 990, null, 'SALE', '2149-06-04', '2149-06-05', 1000, 800, 'CLP', $1)`,
        [ZONE],
      );
      const fresh = createPool(db.url, 1);
      const [copy] = await sellerSpans(fresh, [990], ZONE).finally(() => fresh.end());
      expect([copy.n, copy.first[0], copy.last[0]]).toEqual([1, 65_533, 65_534]);
    } finally {
      await db.pool.query('delete from promo_spans where seller_id = 990');
      await pool.end();
    }
  });
});

describe('order statistics (distribution.ts)', () => {
  /** The ranks' values by sorting a copy: what orderStatistics must give. */
  const bySorting = (a: Float64Array, ranks: number[]) => {
    const sorted = Float64Array.from(a).sort();
    return new Map(ranks.map((k) => [k, sorted[k]]));
  };
  const quartiles = (m: number) =>
    [
      ...new Set(
        [0, 0.25, 0.5, 0.75, 0.95, 1].flatMap((p) => [Math.floor(p * (m - 1)), Math.ceil(p * (m - 1))]),
      ),
    ].sort((x, y) => x - y);

  it('let go of scratch arrays sized for a whole market after each chart, and answer alike the next time', () => {
    // 1.5 M promotions of one seller (more than the KEEP elements a thread holds on to)
    const n = 1_500_000;
    const r = rng(11);
    const col = <T>(T: { new (n: number): T }) => new T(n);
    const s = {
      sellerId: 1,
      zone: ZONE,
      version: '1:0',
      deleted: '0',
      lastRunDay: 100,
      n,
      minFirst: 0,
      product: col(Float64Array),
      leaf: col(Int32Array),
      first: col(Uint16Array),
      last: col(Uint16Array),
      promo: col(Float64Array),
      normal: col(Float64Array),
      type: col(Uint8Array),
      cur: col(Uint8Array),
    } as SellerSpans;
    for (let i = 0; i < n; i++) {
      s.product[i] = Math.floor(i / 3);
      s.leaf[i] = 1;
      s.first[i] = Math.floor(r() * 90);
      s.last[i] = s.first[i] + Math.floor(r() * 10);
      s.normal[i] = 1000 + Math.floor(r() * 100_000);
      s.promo[i] = Math.round(s.normal[i] * (0.5 + 0.4 * r()));
    }
    const scope = {
      leaves: [1],
      classes: [1],
      from: 10,
      to: 80,
      fx: new Float64Array(100).fill(1),
      day0: 0,
      span: 100,
      fxKey: 'fresh scope',
    };
    const first = computeChart({ kind: 'scatter', models: [s], scope, sample: 5 });
    expect(first.rows.length).toBeGreaterThan(10);
    expect(scratchLength()).toBeLessThan(4 << 20);
    // another window (the one-pass path) and the two-pass path again: the same as a fresh computation
    const moved = { ...scope, from: 11, fxKey: 'another scope' };
    const again = computeChart({ kind: 'scatter', models: [s], scope: moved, sample: 5 });
    expect(
      computeChart({ kind: 'scatter', models: [s], scope: { ...moved, fxKey: 'a third' }, sample: 5 }),
    ).toEqual(again);
    expect(scratchLength()).toBeLessThan(4 << 20);
  });

  it('equal sorting on large arrays (sampled bounds), small ones, ties and adversarial orders', () => {
    const r = rng(7);
    const m = 100_000;
    const sampled = new Set(Array.from({ length: 4096 }, (_, j) => Math.floor(((j + 0.5) * m) / 4096)));
    const shapes: Record<string, (i: number) => number> = {
      spread: () => Math.round(Math.exp(7 + 6 * r())),
      ties: () => Math.floor(r() * 5) * 1000,
      constant: () => 990,
      ascending: (i) => i,
      descending: (i) => m - i,
      // the sample takes 4096 evenly spaced positions: the largest values exactly there, so that its
      // bounds miss the ranks and every value is selected instead
      misleading: (i) => (sampled.has(i) ? 1e9 + i : r() * 1000),
    };
    for (const [name, value] of Object.entries(shapes)) {
      const a = Float64Array.from({ length: m }, (_, i) => value(i));
      const copy = Float64Array.from(a);
      const ranks = quartiles(m);
      expect(orderStatistics(a, m, ranks), name).toEqual(bySorting(a, ranks));
      expect(a, `${name}: left as it was`).toEqual(copy);
      const few = 1_000;
      expect(orderStatistics(a, few, quartiles(few)), name).toEqual(
        bySorting(a.subarray(0, few), quartiles(few)),
      );
    }
  });
});
