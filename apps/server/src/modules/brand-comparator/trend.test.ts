import { addDays, DEFAULT_TIMEZONE, PRICE_MODES } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelsOf } from '../../platform/read-model.js';
import { seedTrendMarket, TREND_COMPETITORS, TREND_PIVOT } from '../../test/brand-comparator-fixture.js';
import { referenceTrend } from '../../test/brand-comparator-reference.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { observe } from '../../test/fixtures.js';
import { getPivotModel, type PivotModel, type Resolved, scored } from '../pricing/index.js';
import { historyFor, historySettled, pricesAt, trendPricesFromDatabase } from './history.js';
import { selectStatesAt } from './queries.js';
import { averageIndexesByDay, brandTrend } from './service.js';

// The comparator's trend from the in-memory history, every day at once (averageIndexesByDay over
// pricesAt), against the first implementation (test/brand-comparator-reference.ts: one day at a time
// from price_intervals), on a pseudo-random market: every brand, every day of its history and today,
// every price mode, a window and the latest crawl, before and after a later ingest.

let ctx: TestContext;
const DAYS = 14;

beforeAll(async () => {
  ctx = await createTestContext({ seed: (db) => seedTrendMarket(db.pool, DAYS) });
});
afterAll(() => ctx?.close());

const today = () => new Date().toISOString().slice(0, 10);
const rates = new Map([
  ['CLP', 1],
  ['PEN', 260],
]);

function setOf(model: PivotModel, mode: (typeof PRICE_MODES)[number], window: boolean) {
  const now = Date.now();
  const resolved: Resolved = {
    model,
    sellers: new Map(),
    models: readModelsOf(ctx.db.pool),
    scope: {
      pivot: TREND_PIVOT,
      competitors: TREND_COMPETITORS,
      currency: 'CLP',
      rates,
      mode,
      mpiValue: 5,
      window: window ? { fromTs: now - (DAYS - 3) * 86_400_000, toEndTs: now + 86_400_000 } : null,
      crawl: new Map([TREND_PIVOT, ...TREND_COMPETITORS].map((id) => [id, now - 5 * 60_000])),
      todayTs: now - 3_600_000,
      rows: { licenseRoots: [] },
      post: {},
    },
  };
  return scored(resolved);
}

/** Every brand's trend over every day from before the history to today: store = reference. */
async function expectReference(model: PivotModel) {
  const pool = ctx.db.pool;
  const days = Array.from({ length: DAYS + 3 }, (_, i) => addDays(today(), -(DAYS + 2) + i));
  let compared = 0;
  for (const mode of PRICE_MODES)
    for (const window of [false, true]) {
      const set = setOf(model, mode, window);
      const prices = await pricesAt(pool, model, () => [], days, mode, rates, DEFAULT_TIMEZONE);
      expect(prices.dayKeys).not.toBeNull(); // from the store
      const brands = new Map<number, number[]>();
      for (const i of set.filtered) {
        const b = model.rows[i].brandId ?? 0;
        brands.set(b, [...(brands.get(b) ?? []), i]);
      }
      const ids = () => [...new Set(model.rows.map((r) => r.productId)), ...model.cols.offerProductId];
      const fromDb = trendPricesFromDatabase(
        model,
        await selectStatesAt(pool, ids(), days, DEFAULT_TIMEZONE),
        mode,
        rates,
      );
      // a period moved by two days: brandTrend reuses the days it shares with the first
      const moved = days.slice(2);
      const movedPrices = await pricesAt(pool, model, () => [], moved, mode, rates, DEFAULT_TIMEZONE);
      for (const positions of brands.values()) {
        const want = await referenceTrend(pool, set, positions, days, mode, rates);
        expect(averageIndexesByDay(set, positions, prices)).toEqual(want);
        expect(averageIndexesByDay(set, positions, fromDb)).toEqual(want);
        expect(brandTrend(readModelsOf(ctx.db.pool), set, positions, prices)).toEqual(want);
        expect(brandTrend(readModelsOf(ctx.db.pool), set, positions, movedPrices)).toEqual(want.slice(2));
        expect(brandTrend(readModelsOf(ctx.db.pool), set, positions, prices.only([1, 4, 9]))).toEqual([
          want[1],
          want[4],
          want[9],
        ]);
        compared += want.flat().filter((v) => v !== null).length;
      }
    }
  return compared;
}

describe('brand comparator trend', () => {
  it('equals the day-at-a-time computation from price_intervals, from the store and the database', async () => {
    const model = await getPivotModel(ctx.db.pool, TREND_PIVOT);
    await historyFor(ctx.db.pool, model);
    await historySettled(ctx.db.pool);
    expect(await expectReference(model)).toBeGreaterThan(200);
  });

  it('still does after an ingest moves prices (the store follows the pricing change log)', async () => {
    const pool = ctx.db.pool;
    const now = new Date();
    await observe(pool, 7, now, [{ productId: 's7-1', ean: 'E1', normalPrice: 1 }], 'partial');
    await observe(
      pool,
      8,
      now,
      [{ productId: 's8-2', ean: 'E2', normalPrice: 3, stockOut: false }],
      'partial',
    );
    const model = await getPivotModel(pool, TREND_PIVOT);
    await historyFor(pool, model);
    await historySettled(pool);
    expect(await expectReference(model)).toBeGreaterThan(200);
  });
});
