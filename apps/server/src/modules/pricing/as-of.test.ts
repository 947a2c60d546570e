import { DEFAULT_TIMEZONE } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import { insertSeller, observe, seedReferenceData } from '../../test/fixtures.js';
import { closingStatesOf, HistoryStore, loadIntervals, modelListings } from '../brand-comparator/history.js';
import { type ClosingState, modelAsOf, overlayStates, selectStatesAt, statesFromMap } from './as-of.js';
import { type PricingScope, rowPasses, scoreModel } from './compute.js';
import { getPivotModel, type PivotModel, rowAt } from './model.js';

// A closed day's overlay (as-of.ts, issue 30): the states read only for the listings whose current
// interval began after the day's end (SQL), or from the brand comparator's in-memory history, give the
// same model as the old lookup of every listing of the model (kept here as the reference), and the
// hand-worked prices of a small history: the pivot's p1 1000 → 950 → 1200, p2 on sale until today, p3
// first seen today, p4 unpublished two days after its first price and back today, p5 300 throughout; the rival's a1 (p1's
// match) out of stock from three days ago, a2 (p2's) 880 → 870 today.

let ctx: TestContext;
const ids: Record<string, number> = {};

/** The old lookup: every listing's last interval that began before the day's end. */
async function fullLookup(listings: number[], endTs: number): Promise<Map<number, ClosingState>> {
  const { rows } = await ctx.db.pool.query<ClosingState & { id: string }>(
    `select u.id::text as id, x.normal_price::float8 as normal, x.sale_price::float8 as sale,
            x.exclusive_price::float8 as exclusive, x.price_type as "priceType", x.stock_out as "stockOut",
            x.currency,
            case when x.valid_to < to_timestamp($2::float8 / 1000)
                 then (extract(epoch from x.valid_to) * 1000)::float8 end as "removedAt"
       from unnest($1::bigint[]) u(id)
       cross join lateral (
         select normal_price, sale_price, exclusive_price, price_type, stock_out, currency, valid_to
           from price_intervals
          where product_id = u.id and valid_from < to_timestamp($2::float8 / 1000)
          order by valid_from desc limit 1) x`,
    [listings, endTs],
  );
  return new Map(rows.map(({ id, ...s }) => [Number(id), s]));
}

/** noon (market zone) of the day `n` days before today */
async function noon(n: number): Promise<Date> {
  const { rows } = await ctx.db.pool.query<{ t: Date }>(
    `select vigia_day_start(vigia_day(now(), $2) - $1::int, $2) + interval '12 hours' as t`,
    [n, DEFAULT_TIMEZONE],
  );
  return rows[0].t;
}

/** the end (epoch ms) of the day `n` days before today, as the request lookups give it (toEndTs) */
async function endOf(n: number): Promise<number> {
  const { rows } = await ctx.db.pool.query<{ t: number }>(
    `select (extract(epoch from vigia_day_start(vigia_day(now(), $2) - $1::int + 1, $2)) * 1000)::float8 as t`,
    [n, DEFAULT_TIMEZONE],
  );
  return rows[0].t;
}

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      const pool = db.pool;
      await seedReferenceData(pool);
      await insertSeller(pool, { id: 5, name: 'Pivote' });
      await insertSeller(pool, { id: 7, name: 'Rival A' });
    },
  });
  const pool = ctx.db.pool;
  const p = (productId: string, ean: string, normalPrice: number, more: object = {}) => ({
    productId,
    ean,
    name: `Producto ${productId}`,
    normalPrice,
    ...more,
  });
  await observe(pool, 5, await noon(5), [
    p('p1', 'E1', 1000),
    p('p2', 'E2', 900, { salePrice: 850 }),
    p('p4', 'E4', 700),
    p('p5', 'E5', 300),
  ]);
  await observe(pool, 7, await noon(5), [p('a1', 'E1', 1100), p('a2', 'E2', 880)]);
  await observe(pool, 5, await noon(3), [
    p('p1', 'E1', 950),
    p('p2', 'E2', 900, { salePrice: 850 }),
    p('p5', 'E5', 300),
  ]);
  await observe(pool, 7, await noon(3), [p('a1', 'E1', 1050, { stockOut: true }), p('a2', 'E2', 880)]);
  const now = new Date(Date.now() - 60_000);
  await observe(pool, 5, now, [
    p('p1', 'E1', 1200),
    p('p2', 'E2', 900),
    p('p3', 'E3', 500),
    p('p4', 'E4', 650),
    p('p5', 'E5', 300),
  ]);
  await observe(pool, 7, now, [p('a1', 'E1', 990), p('a2', 'E2', 870)]);
  const { rows } = await pool.query<{ product_id: string; id: string }>(
    'select product_id, id from products',
  );
  for (const r of rows) ids[r.product_id] = Number(r.id);
});
afterAll(() => ctx?.close());

const nn = (v: number) => (Number.isNaN(v) ? null : v);

/** What an overlay says of a listing: its row (pivot listing) or its offer (competitor listing). */
function stateIn(model: PivotModel, id: number) {
  const i = model.rows.findIndex((r) => r.productId === id);
  if (i >= 0) {
    const r = rowAt(model, i);
    // the effective prices per mode are the columns'
    const eff = Object.fromEntries(
      Object.entries(model.cols.rowPrice).map(([mode, prices]) => [mode, nn(prices[i])]),
    );
    return { normal: r.normal, sale: r.sale, priceType: r.priceType, stockOut: r.stockOut, eff };
  }
  const c = model.cols;
  const k = c.offerProductId.indexOf(id);
  return {
    normal: nn(c.offerNormal[k]),
    sale: nn(c.offerSale[k]),
    priceType: c.priceTypes[c.offerPriceType[k]],
    stockOut: c.offerStockOut[k] === 1,
    eff: nn(c.offerPrice.NORMAL_SALE_EXCLUSIVE_PRICE[k]),
  };
}

/** Everything the overlay replaces, rows and offers, for equality between overlays. */
function replaced(model: PivotModel) {
  const c = model.cols;
  return {
    rows: model.rows
      .map((_, i) => rowAt(model, i))
      .map((r) => [r.productId, r.normal, r.sale, r.exclusive, r.priceType, r.stockOut, r.currency]),
    cols: [
      c.rowPrice,
      c.rowCurrency,
      c.rowStockOut,
      c.rowPriceType,
      c.offerPrice,
      c.offerCurrency,
      c.offerStockOut,
      c.offerNormal,
      c.offerSale,
      c.offerExclusive,
      Array.from(c.offerPriceType, (t) => c.priceTypes[t]),
      c.currencies,
      c.rowPublished,
      c.rowLastSeen,
      c.offerPublished,
      c.offerLastSeen,
    ],
  };
}

/** Pivot 5 against the rival in CLP, the latest crawl, with these row filters. */
const scope = (rows: Partial<PricingScope['rows']>): PricingScope => ({
  pivot: 5,
  competitors: [7],
  currency: 'CLP',
  rates: new Map([['CLP', 1]]),
  mode: 'NORMAL_SALE_EXCLUSIVE_PRICE',
  mpiValue: 5,
  window: null,
  crawl: new Map(),
  todayTs: Date.now(),
  rows: { licenseRoots: [], ...rows },
  post: {},
});

describe('prices at the end of a closed day (as-of overlay)', () => {
  it('reads only the listings that changed after the day, from the database or the history, as the full lookup does', async () => {
    const pool = ctx.db.pool;
    const model = await getPivotModel(pool, 5);
    const listings = [...new Set(modelListings(model))];
    expect(listings).toEqual(expect.arrayContaining([ids.p1, ids.p2, ids.p3, ids.p4, ids.a1, ids.a2]));
    const store = new HistoryStore();
    await loadIntervals(pool, store, listings);
    let compared = 0;
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const endTs = await endOf(n);
      const full = overlayStates(model, statesFromMap(model, await fullLookup(listings, endTs)));
      const changed = await selectStatesAt(pool, listings, endTs);
      // p5's price never changed: its current interval began five days ago, so it is not read again
      expect(changed.has(ids.p5)).toBe(false);
      if (n <= 5) expect((await fullLookup([ids.p5], endTs)).get(ids.p5)).toMatchObject({ normal: 300 });
      if (n <= 3) expect(changed.has(ids.p1)).toBe(true);
      expect(replaced(overlayStates(model, statesFromMap(model, changed)))).toEqual(replaced(full));
      const held = closingStatesOf(store, model, endTs);
      expect(held.missing).toEqual([]);
      expect(replaced(overlayStates(model, held.states))).toEqual(replaced(full));
      compared++;
    }
    expect(compared).toBe(6);
  });

  it('gives the hand-worked closing prices', async () => {
    const pool = ctx.db.pool;
    const model = await getPivotModel(pool, 5);
    const yesterday = await modelAsOf(pool, model, 'ayer', await endOf(1));
    // the same listings in the same places (the comparator's slot ranges are kept per this array)
    expect(yesterday.cols.offerProductId).toBe(model.cols.offerProductId);
    // p1 950 since three days ago; p2 still on sale (850 < 900); p3 not listed yet: its current state
    expect(stateIn(yesterday, ids.p1)).toMatchObject({ normal: 950, sale: null, stockOut: false });
    expect(stateIn(yesterday, ids.p2)).toMatchObject({ normal: 900, sale: 850, priceType: 'SALE' });
    expect(stateIn(yesterday, ids.p2).eff).toMatchObject({ NORMAL_PRICE: 900, NORMAL_SALE_PRICE: 850 });
    expect(stateIn(yesterday, ids.p3)).toMatchObject({ normal: 500 });
    // p4 unpublished three days ago: its last known state, 700 (today 650)
    expect(stateIn(yesterday, ids.p4)).toMatchObject({ normal: 700 });
    expect(stateIn(model, ids.p4)).toMatchObject({ normal: 650 });
    // a1 out of stock at 1050; a2 880 (today 870)
    expect(stateIn(yesterday, ids.a1)).toMatchObject({ normal: 1050, stockOut: true, eff: 1050 });
    expect(stateIn(yesterday, ids.a2)).toMatchObject({ normal: 880, stockOut: false, eff: 880 });
    expect(stateIn(model, ids.a2)).toMatchObject({ normal: 870 });

    const fourDaysAgo = await modelAsOf(pool, model, 'hace 4 días', await endOf(4));
    expect(stateIn(fourDaysAgo, ids.p1)).toMatchObject({ normal: 1000 });
    expect(stateIn(fourDaysAgo, ids.a1)).toMatchObject({ normal: 1100, stockOut: false, eff: 1100 });
    expect(stateIn(fourDaysAgo, ids.p4)).toMatchObject({ normal: 700 });
    // before any price: every listing keeps its current state
    const sixDaysAgo = await modelAsOf(pool, model, 'hace 6 días', await endOf(6));
    expect(stateIn(sixDaysAgo, ids.p1)).toMatchObject({ normal: 1200 });
    expect(stateIn(sixDaysAgo, ids.a1)).toMatchObject({ normal: 990, stockOut: false });
  });

  it("filters price type and stock by the day's state, and lists the day's prices", async () => {
    const pool = ctx.db.pool;
    const model = await getPivotModel(pool, 5);
    const yesterday = await modelAsOf(pool, model, 'ayer', await endOf(1));
    const listed = (m: PivotModel, rows: Partial<PricingScope['rows']>) =>
      scoreModel(m, scope(rows)).filtered.map((i) => m.rows[i].productId);
    // p2 was on sale yesterday (850 of 900) and is not today; the overlay keeps today's row objects
    expect(listed(yesterday, { priceTypes: ['SALE'] })).toEqual([ids.p2]);
    expect(listed(model, { priceTypes: ['SALE'] })).toEqual([]);
    const i = model.rows.findIndex((r) => r.productId === ids.p2);
    expect(yesterday.rows[i]).toBe(model.rows[i]);
    expect(rowAt(yesterday, i)).toMatchObject({ normal: 900, sale: 850, priceType: 'SALE', ref: 'p2' });
    expect(rowAt(model, i)).toMatchObject({ normal: 900, sale: null, priceType: 'NORMAL' });
    // p2's effective price yesterday is its sale price; the index against a2's 880: 850 / 880
    const set = scoreModel(yesterday, scope({}));
    expect(set.my[i]).toBe(850);
    expect(set.index[i]).toBeCloseTo((850 / 880) * 100, 6);
    // nobody of the pivot was out of stock: the stock filter lists none on either day
    expect(listed(yesterday, { stockOut: true })).toEqual([]);
    // the row filters' pass is kept per rows (shared by the overlay) unless it reads the state
    const sale = scope({ priceTypes: ['SALE'] });
    const all = scope({ licenseRoots: [], skus: ['p2', 'p5'] });
    expect(rowPasses(yesterday, all)).toBe(rowPasses(model, { ...all, competitors: [] }));
    expect([...(rowPasses(model, all) ?? [])].filter(Boolean)).toHaveLength(2);
    expect(rowPasses(yesterday, sale)).not.toBe(rowPasses(model, sale));
    expect(rowPasses(yesterday, sale)?.[i]).toBe(1);
    expect(rowPasses(model, sale)?.[i]).toBe(0);
    expect(rowPasses(model, scope({}))).toBeNull();
  });

  it('counts a listing republished after a gap only in windows where it was seen', async () => {
    const pool = ctx.db.pool;
    const model = await getPivotModel(pool, 5);
    // p4: first seen five days ago at noon, missing from the crawl three days ago (its removal found
    // then, last seen five days ago), published again today
    const inWindow = async (from: number, to: number) => {
      const fromTs = (await endOf(from + 1)) as number;
      const toEndTs = await endOf(to);
      const m = await modelAsOf(pool, model, `${from}..${to}`, toEndTs);
      // both sellers crawled today (published listings: seen up to then)
      const crawl = new Map([
        [5, Date.now()],
        [7, Date.now()],
      ]);
      const set = scoreModel(m, { ...scope({}), window: { fromTs, toEndTs }, crawl });
      return set.filtered.map((i) => m.rows[i].productId).includes(ids.p4);
    };
    // yesterday, two days ago: unpublished all day (before, it counted: "published, seen up to the crawl")
    expect(await inWindow(1, 1)).toBe(false);
    expect(await inWindow(2, 2)).toBe(false);
    // three days ago: its removal was found at noon, it was last seen two days before
    expect(await inWindow(3, 3)).toBe(false);
    // four and five days ago: listed at the day's end
    expect(await inWindow(4, 4)).toBe(true);
    expect(await inWindow(5, 5)).toBe(true);
    // from five days ago to yesterday: seen on the window's first day
    expect(await inWindow(5, 1)).toBe(true);
    // from four days ago to yesterday: not seen in it (last seen five days ago, back only today)
    expect(await inWindow(4, 1)).toBe(false);
  });

  it('builds one overlay for requests of the same day at once', async () => {
    const pool = ctx.db.pool;
    const model = await getPivotModel(pool, 5);
    const endTs = await endOf(2);
    const [a, b] = await Promise.all([
      modelAsOf(pool, model, 'anteayer', endTs),
      modelAsOf(pool, model, 'anteayer', endTs),
    ]);
    expect(a).toBe(b);
    // its own copies counted for the memo's room: the listed prices add 8 + 8 + 8 + 1 bytes an offer
    const m = model.cols.offerProductId.length;
    const before = a.ownBytes?.() ?? 0;
    expect(before).toBeGreaterThan(0);
    expect(model.ownBytes).toBeUndefined();
    a.cols.offerNormal;
    expect(a.ownBytes?.()).toBe(before + 25 * m);
    expect(stateIn(a, ids.p1)).toMatchObject({ normal: 950 });
  });

  // last: it observes a new price
  it("computes the row filters' pass again for the model an ingest makes", async () => {
    const pool = ctx.db.pool;
    const before = await getPivotModel(pool, 5);
    const sale = scope({ priceTypes: ['SALE'] });
    const p5 = (m: PivotModel) => m.rows.findIndex((r) => r.productId === ids.p5);
    expect(rowPasses(before, sale)?.[p5(before)]).toBe(0);
    // p5 goes on sale now: a new pricing model version (the change signal's reload, here on request)
    await observe(pool, 5, new Date(Date.now() - 30_000), [
      { productId: 'p5', ean: 'E5', name: 'Producto p5', normalPrice: 300, salePrice: 250 },
    ]);
    const after = await getPivotModel(pool, 5);
    expect(after.version).toBeGreaterThan(before.version);
    expect(after.rows).not.toBe(before.rows);
    expect(rowPasses(after, sale)?.[p5(after)]).toBe(1);
    // the old model's pass is its own (its requests in flight still read it)
    expect(rowPasses(before, sale)?.[p5(before)]).toBe(0);
    const skus = scope({ skus: ['p5'] });
    expect(rowPasses(after, skus)).not.toBe(rowPasses(before, skus));
  });
});
