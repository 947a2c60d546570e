import { addDays, DEFAULT_TIMEZONE, PRICE_MODES } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelsOf } from '../../platform/read-model.js';
import { seedTrendMarket, TREND_COMPETITORS, TREND_PIVOT } from '../../test/brand-comparator-fixture.js';
import { referenceTrend } from '../../test/brand-comparator-reference.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { observe } from '../../test/fixtures.js';
import { modelAsOf } from '../pricing/as-of.js';
import { getPivotModel, type PivotModel, type Resolved, scored } from '../pricing/index.js';
import { subsetModel } from '../pricing/model.js';
import { dayEnds, historyFor, historySettled, pricesAt, trendPricesFromDatabase } from './history.js';
import { selectStatesAt } from './queries.js';
import { averageIndexesByDay, brandComparator, brandTrend } from './service.js';

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

  it('answers a closed day from the chosen brands’ rows alone exactly as from the whole model', async () => {
    // the route overlays and scores only the own or picked brands' rows on a closed day (pricing
    // subsetModel): every figure and trend point must be the whole model's
    const pool = ctx.db.pool;
    const latest = await getPivotModel(pool, TREND_PIVOT);
    await historyFor(pool, latest);
    await historySettled(pool);
    const brandIds = [...new Set(latest.cols.rowBrand)].filter((b) => b !== 0).sort((a, b) => a - b);
    expect(brandIds.length).toBe(3);
    let compared = 0;
    for (const chosen of [[brandIds[0]], [brandIds[1], brandIds[2]]])
      for (const back of [1, 4]) {
        const to = addDays(today(), -back);
        const from = addDays(to, -(DAYS - 6));
        const [fromEnd, toEnd] = await dayEnds(pool, [addDays(from, -1), to], DEFAULT_TIMEZONE);
        const answer = async (model: PivotModel, picked: boolean) => {
          const resolved: Resolved = {
            model: await modelAsOf(pool, model, to, toEnd.t),
            sellers: new Map(),
            models: readModelsOf(pool),
            scope: {
              pivot: TREND_PIVOT,
              competitors: TREND_COMPETITORS,
              currency: 'CLP',
              rates,
              mode: 'NORMAL_SALE_EXCLUSIVE_PRICE',
              mpiValue: 5,
              window: { fromTs: fromEnd.t + 1, toEndTs: toEnd.t },
              crawl: new Map([TREND_PIVOT, ...TREND_COMPETITORS].map((id) => [id, Date.now() - 5 * 60_000])),
              todayTs: Date.now() - 3_600_000,
              pricesAt: to,
              rows: { licenseRoots: [], brands: picked ? chosen : undefined },
              post: {},
            },
          };
          return brandComparator(pool, resolved, scored(resolved), {
            from,
            to,
            own: picked ? [] : chosen,
            picked,
            zone: DEFAULT_TIMEZONE,
          });
        };
        const sub = subsetModel(latest, `brands:${chosen}`, (i) => chosen.includes(latest.cols.rowBrand[i]));
        expect(sub.rows.length).toBeLessThan(latest.rows.length);
        expect(sub.rows.every((r) => chosen.includes(r.brandId ?? 0))).toBe(true);
        for (const picked of [false, true]) {
          const whole = await answer(latest, picked);
          expect(whole.items.map((b) => b.brand_id).sort()).toEqual([...chosen].sort());
          expect(await answer(sub, picked)).toEqual(whole);
          compared += whole.items
            .flatMap((b) => b.sellers.flatMap((s) => [s.average_index, ...s.trend]))
            .filter((v) => v !== null).length;
        }
      }
    expect(compared).toBeGreaterThan(50);
  });
});
