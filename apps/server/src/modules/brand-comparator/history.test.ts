import { addDays, DEFAULT_TIMEZONE, effectivePriceFor, isoDateInZone, PRICE_MODES } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import { observe } from '../../test/fixtures.js';
import { type PricingFixture, SELLERS, seedPricingFixture } from '../../test/pricing-fixture.js';
import { getPivotModel, type PivotModel } from '../pricing/index.js';
import {
  dayEnds,
  HistoryStore,
  historyFor,
  historySettled,
  loadIntervals,
  modelListings,
  pricesAt,
} from './history.js';
import { selectStatesAt } from './queries.js';

// The trend's in-memory price history (history.ts) against a recomputation from price_intervals
// (selectStatesAt, one primary-key probe per listing and day): the same state for every listing of the
// pivot's model at the end of every day of the fixture's history and now, before and after an ingest
// changes prices (the store follows the pricing change log).

let ctx: TestContext;
let fx: PricingFixture;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedPricingFixture(db.pool);
    },
  });
});
afterAll(() => ctx?.close());

const today = () => new Date().toISOString().slice(0, 10);

/** Every listing of the model, at the end of each of the last 12 days: store = database. */
async function expectSameAsDatabase(store: HistoryStore, model: PivotModel) {
  const ids = [...new Set(modelListings(model))];
  const days = Array.from({ length: 12 }, (_, i) => addDays(today(), -11 + i));
  const fromDb = await selectStatesAt(ctx.db.pool, ids, days, DEFAULT_TIMEZONE);
  const ends = await dayEnds(ctx.db.pool, days, DEFAULT_TIMEZONE);
  expect(ends.at(-1)?.open).toBe(true);
  expect(ends[0].open).toBe(false);
  let compared = 0;
  ends.forEach(({ t }, d) => {
    for (const id of ids) {
      const db = fromDb[d].get(id);
      const mem = store.stateAt(id, t);
      expect(mem === undefined, `listing ${id} on ${days[d]}`).toBe(db === undefined);
      if (!db || !mem) continue;
      compared++;
      expect(mem.stockOut).toBe(db.stockOut);
      expect(mem.currency).toBe(db.currency);
      for (const m of PRICE_MODES) expect(mem.effective[m]).toBe(effectivePriceFor(db, m));
    }
  });
  return compared;
}

describe('brand comparator price history', () => {
  it('holds the same end-of-day states as price_intervals for every listing of the model', async () => {
    const model = await getPivotModel(ctx.db.pool, SELLERS.pivot);
    const store = new HistoryStore();
    await loadIntervals(ctx.db.pool, store, modelListings(model), { batch: 3 });
    // the fixture's two observations: T0 (9 days ago) and T1 (a minute ago) → states on most days
    expect(await expectSameAsDatabase(store, model)).toBeGreaterThan(20);
    expect(fx.listings.p1).toBeGreaterThan(0);
  });

  it('follows an ingest through the pricing change log, re-reading only what changed', async () => {
    const pool = ctx.db.pool;
    const before = await getPivotModel(pool, SELLERS.pivot);
    await historyFor(pool, before); // starts the load
    await historySettled(pool);
    const store = await historyFor(pool, before);
    if (!store) throw new Error('history not loaded');
    const read = store.listingsRead;

    // Rival A lowers P1 to 900 and Rival B to 800 now: the pivot model's version moves
    await observe(pool, 7, new Date(), [{ productId: 'a1', ean: 'E1', normalPrice: 900 }], 'partial');
    await observe(pool, 8, new Date(), [{ productId: 'b1', ean: 'E1', normalPrice: 800 }], 'partial');
    const after = await getPivotModel(pool, SELLERS.pivot);
    expect(after.version).toBeGreaterThan(before.version);
    expect(await historyFor(pool, after)).toBe(store);
    // a few listings re-read (P1's row and its offers), not the whole model
    expect(store.listingsRead - read).toBeGreaterThan(0);
    expect(store.listingsRead - read).toBeLessThan(new Set(modelListings(after)).size);
    await expectSameAsDatabase(store, after);
    const b1 = (await pool.query(`select id from products where seller_id = 8 and product_id = 'b1'`)).rows[0]
      .id;
    const now = (await dayEnds(pool, [today()], DEFAULT_TIMEZONE))[0].t;
    expect(store.stateAt(Number(b1), now)?.effective.NORMAL_PRICE).toBe(800);
  });

  it('stores a listing two pivots share once, current for both after a change through either', async () => {
    const pool = ctx.db.pool;
    const idOf = async (seller: number, productId: string) =>
      Number(
        (
          await pool.query('select id from products where seller_id = $1 and product_id = $2', [
            seller,
            productId,
          ])
        ).rows[0].id,
      );
    const b1 = await idOf(SELLERS.b, 'b1');
    const store = await historyFor(pool, await getPivotModel(pool, SELLERS.pivot));
    if (!store) throw new Error('history not loaded');
    // Rival A as a second pivot: Rival B's b1 is an offer of both (E1), the pivot's p1 a row of one and an
    // offer of the other
    const rival = await getPivotModel(pool, SELLERS.a);
    const pivot = await getPivotModel(pool, SELLERS.pivot);
    expect(modelListings(rival)).toContain(b1);
    expect(modelListings(pivot)).toContain(b1);
    expect(await historyFor(pool, rival)).toBeNull(); // starts the load
    await historySettled(pool);
    expect(await historyFor(pool, rival)).toBe(store);

    /** Slots the held listings need: one per interval and one per gap (what the database holds). */
    const needed = async () => {
      const ids = [...new Set([...modelListings(pivot), ...modelListings(rival)])];
      const { rows } = await pool.query<{ n: number }>(
        `select (count(*) + count(*) filter (
                   where valid_to is not null and not exists (
                     select 1 from price_intervals b where b.product_id = a.product_id and b.valid_from = a.valid_to)))::int as n
           from price_intervals a where product_id = any($1::bigint[])`,
        [ids],
      );
      return rows[0].n;
    };
    // each listing once (b1 and p1 read by both loads), nothing spare
    expect(store.slots).toBe(await needed());
    expect(store.stats()).toMatchObject({ garbage: 0, spareSlots: 0, spareStates: 0, spareListings: 0 });

    const today = isoDateInZone(new Date());
    /** b1's price now as each pivot's trend reads it (an offer of both models). */
    const b1Now = async (model: PivotModel) => {
      const prices = await pricesAt(
        pool,
        model,
        () => [],
        [today],
        'NORMAL_PRICE',
        new Map([['CLP', 1]]),
        DEFAULT_TIMEZONE,
      );
      expect(prices.dayKeys).not.toBeNull(); // from the store
      const k = model.cols.offerProductId.indexOf(b1);
      const out = new Float64Array(1);
      prices.theirs(k, out);
      return out[0];
    };
    const t = async () => (await dayEnds(pool, [today], DEFAULT_TIMEZONE))[0].t;

    // Rival B moves b1 to 777: both pivots' models move; the pivot's refresh re-reads it first
    await observe(pool, SELLERS.b, new Date(), [{ productId: 'b1', ean: 'E1', normalPrice: 777 }], 'partial');
    const pivot2 = await getPivotModel(pool, SELLERS.pivot);
    const rival2 = await getPivotModel(pool, SELLERS.a);
    expect(pivot2.version).toBeGreaterThan(pivot.version);
    expect(rival2.version).toBeGreaterThan(rival.version);
    expect(await b1Now(pivot2)).toBe(777);
    const slots = store.slots;
    expect(await b1Now(rival2)).toBe(777); // its refresh finds b1 as held: nothing added
    expect(store.slots).toBe(slots);
    await expectSameAsDatabase(store, pivot2);
    await expectSameAsDatabase(store, rival2);

    // and the other way round: 666 through the rival's refresh first
    await observe(pool, SELLERS.b, new Date(), [{ productId: 'b1', ean: 'E1', normalPrice: 666 }], 'partial');
    const rival3 = await getPivotModel(pool, SELLERS.a);
    const pivot3 = await getPivotModel(pool, SELLERS.pivot);
    expect(await b1Now(rival3)).toBe(666);
    expect(await b1Now(pivot3)).toBe(666);
    expect(store.stateAt(b1, await t())?.effective.NORMAL_PRICE).toBe(666);
    // (a refresh seals lazily: the slots of re-read listings may stay until they are 1/16 of the store)
    expect(store.slots - store.stats().garbage).toBe(await needed());
    await expectSameAsDatabase(store, pivot3);
    await expectSameAsDatabase(store, rival3);
  });
});
