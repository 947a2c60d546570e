import { addDays, round2 } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ratesTo, selectClpRates, today } from '../../market/index.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { observe } from '../../test/fixtures.js';
import { seedTestMarket, type TestMarket, tDay } from '../../test/test-market.js';
import { bucketPairs, computeDays, type DayFigures, periodFigures, WARM_DAYS } from './days.js';
import { historyWindow, loadIndexHistory, sidesKept, warmSides } from './index-history.js';
import { selectCurrentDiscounts, selectEventCounts } from './queries.js';
import { computeSellerDays } from './seller-days.js';
import { closedDaysFromState, currentDiscounts, eventCounts } from './service.js';

// Issue 30 part 2: the closed-day figures of any competitor selection from the per-seller rows and the
// index history in memory must equal those of the per-scope computation (computeDays, which scans the
// roll-up and the price intervals for the selection). The market of ../../test/test-market.ts, plus
// promotions at two competitors (one in PEN) so that the money and the histogram add up over sellers
// and currencies. Both paths hold per market zone: the roll-up is also kept in Tokyo (UTC+9: the
// market's 16:00 UTC observations fall at 01:00 of the next day there), every comparison runs in both.

let ctx: TestContext;
let m: TestMarket;

const SANTIAGO = 'America/Santiago';
const TOKYO = 'Asia/Tokyo';

const at = (n: number) => new Date(`${tDay(n)}T16:00:00Z`);

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      // the zone joins the roll-up's zones before the market's data comes in: ingest keeps it from the
      // first run (migration 431)
      await db.pool.query('insert into rollup_zones (zone, ready) values ($1, true)', [TOKYO]);
      m = await seedTestMarket(db);
      const e1 = {
        ean: '7800000000001',
        name: 'Audífono X',
        brand: 'Acme',
        categoryPath: ['Tecnología', 'Audio'],
        classificationId: m.cls.audio,
      };
      // Rival C: on sale from T−3 (1200 → 1000, 16.7 %), deeper from T−1 (→ 600, 50 %);
      // Rival B (PEN): in stock again and on sale at T−1 (4 → 3 PEN, 25 %, 1 PEN = 250 CLP).
      await observe(db.pool, 50, at(3), [{ ...e1, productId: 'C1', normalPrice: 1200, salePrice: 1000 }]);
      await observe(db.pool, 50, at(1), [{ ...e1, productId: 'C1', normalPrice: 1200, salePrice: 600 }]);
      await observe(db.pool, 30, at(1), [{ ...e1, productId: 'B1', normalPrice: 4, salePrice: 3 }]);
    },
  });
});
afterAll(() => ctx?.close());

const FIGURES = [
  'availability',
  'in_discount',
  'average_discount',
  'price_index',
  'deviation',
  'monetary_discount',
] as const;

function expectSameDays(a: Map<string, DayFigures>, b: Map<string, DayFigures>) {
  expect([...b.keys()]).toEqual([...a.keys()]);
  for (const [day, x] of a) {
    const y = b.get(day) as DayFigures;
    for (const k of FIGURES) {
      if (x[k] === null) expect(y[k], `${day} ${k}`).toBeNull();
      else expect(y[k], `${day} ${k}`).toBeCloseTo(x[k] as number, 9);
    }
    expect(y.buckets, `${day} buckets`).toEqual(x.buckets);
  }
}

const cardsOf = (days: Map<string, DayFigures>) => {
  const f = periodFigures([...days.values()]);
  return { ...Object.fromEntries(FIGURES.map((k) => [k, round2(f[k])])), mode: f.mode_discount };
};

/** T−1's figures in `zone` for pivot 10 against every competitor under audio, in CLP (new path). */
async function yesterdayUnderAudio(zone: string): Promise<DayFigures> {
  const pool = ctx.db.pool;
  const w = historyWindow(today(new Date(), zone), WARM_DAYS);
  const h = await loadIndexHistory(pool, 10, zone, w.from, w.to);
  const scope = { pivot: 10, competitors: [20, 30, 50], roots: [m.cls.audio], currency: 'CLP', zone };
  return (await closedDaysFromState(pool, scope, h, tDay(1), tDay(1))).get(tDay(1)) as DayFigures;
}

describe('closed days from the per-seller rows and the index history', () => {
  it.each([SANTIAGO, TOKYO])(
    'equal the per-scope computation for several selections, roots, currencies and periods (%s)',
    async (zone) => {
      const pool = ctx.db.pool;
      const w = historyWindow(today(new Date(), zone), WARM_DAYS);
      const h = await loadIndexHistory(pool, 10, zone, w.from, w.to);
      const selections = [[20], [30], [50], [20, 30], [30, 50], [20, 30, 50], [20, 30, 40, 50]];
      const rootsOf = [[], [m.cls.audio], [m.cls.moda]];
      const periods: [string, string][] = [
        [tDay(12), tDay(1)],
        [tDay(7), tDay(1)],
        [tDay(4), tDay(2)],
        [tDay(10), tDay(10)],
        [tDay(1), tDay(1)],
      ];
      let compared = 0;
      for (const competitors of selections)
        for (const roots of rootsOf)
          for (const currency of ['CLP', 'USD', 'PEN'])
            for (const [from, to] of periods) {
              const scope = { pivot: 10, competitors, roots, currency, zone };
              const before = await computeDays(pool, scope, from, to);
              const after = await closedDaysFromState(pool, scope, h, from, to);
              expectSameDays(before, after);
              // the cards' numbers (2 decimals; the unrounded sums may differ in the last bit: the money is
              // summed per seller and currency before its conversion)
              expect(cardsOf(after)).toEqual(cardsOf(before));
              compared++;
            }
      expect(compared).toBe(7 * 3 * 3 * 5);
    },
  );

  it("keep the pivot's side per roots and days: new selections in a row still equal the per-scope computation", async () => {
    const pool = ctx.db.pool;
    const zone = SANTIAGO;
    const w = historyWindow(today(new Date(), zone), WARM_DAYS);
    const h = await loadIndexHistory(pool, 10, zone, w.from, w.to);
    const [from, to] = [tDay(9), tDay(1)];
    let compared = 0;
    // the same roots and days, one selection after another (the pivot's prices are reused after the first)
    for (const roots of [[m.cls.moda], [m.cls.audio], []])
      for (const competitors of [[20], [20, 30], [30, 50], [50], [20, 30, 40, 50]]) {
        const scope = { pivot: 10, competitors, roots, currency: 'CLP', zone };
        const before = await computeDays(pool, scope, from, to);
        const after = await closedDaysFromState(pool, scope, h, from, to);
        expectSameDays(before, after);
        compared++;
      }
    expect(compared).toBe(15);
  });

  it("the default period's competitor sides are made behind the load: its new selections make none", async () => {
    const pool = ctx.db.pool;
    const zone = SANTIAGO;
    const w = historyWindow(today(new Date(), zone), WARM_DAYS);
    const h = await loadIndexHistory(pool, 10, zone, w.from, w.to);
    // every competitor of the history (20, 30, 40, 50): the 13 closed days the 7-day preset asks
    expect(await warmSides(pool, h)).toBe(4);
    const warmed = sidesKept(h).slice(0, 4).sort();
    expect(new Set(warmed.map((k) => k.split('|')[0]))).toEqual(new Set(['20', '30', '40', '50']));
    for (const competitors of [
      [20, 50],
      [30, 40, 50],
      [20, 30, 40, 50],
    ]) {
      const scope = { pivot: 10, competitors, roots: [], currency: 'CLP', zone };
      const after = await closedDaysFromState(pool, scope, h, tDay(13), tDay(1));
      expectSameDays(await computeDays(pool, scope, tDay(13), tDay(1)), after);
    }
    // the selections merged the warmed sides: none made, none evicted
    expect(sidesKept(h).slice(0, 4).sort()).toEqual(warmed);
  });

  it("today's discounts summed per seller equal the selection's own query", async () => {
    const pool = ctx.db.pool;
    for (const currency of ['CLP', 'USD', 'PEN']) {
      const rates = ratesTo(await selectClpRates(pool, tDay(0)), currency);
      if (!rates) throw new Error(currency);
      for (const competitors of [[20], [30], [50], [30, 50], [20, 30, 50]])
        for (const roots of [[], [m.cls.audio]]) {
          const sellers = [10, ...competitors];
          const old = await selectCurrentDiscounts(pool, { sellers, roots, rates });
          const now = await currentDiscounts(pool, { sellers, roots, rates });
          expect(now.buckets).toEqual(bucketPairs(old.buckets));
          if (old.monetary === null) expect(now.monetary).toBeNull();
          else expect(now.monetary).toBeCloseTo(Number(old.monetary), 9);
        }
    }
    // now: P1 on sale (100 CLP off, 10 %) and, since T−1, C1 (600 CLP off, 50 %) and B1 (1 PEN off, 25 %)
    const all = await currentDiscounts(pool, {
      sellers: [10, 20, 30, 50],
      roots: [],
      rates: ratesTo(await selectClpRates(pool, tDay(0)), 'CLP') as Map<string, number>,
    });
    expect(all.buckets).toEqual([
      [10, 1],
      [25, 1],
      [50, 1],
    ]);
    expect(all.monetary).toBeCloseTo((100 + 600 + 250) / 3, 9);
  });

  it("new and unpublished listings summed per seller equal the selection's own query", async () => {
    const pool = ctx.db.pool;
    let nonZero = 0;
    for (const zone of [SANTIAGO, TOKYO])
      for (const [from, to, previousFrom] of [
        [tDay(6), tDay(0), tDay(13)],
        [tDay(3), tDay(1), tDay(6)],
        [tDay(29), tDay(0), tDay(59)],
      ])
        for (const competitors of [[20], [50], [30, 50], [20, 30, 50]])
          for (const roots of [[], [m.cls.audio]]) {
            const q = { sellers: [10, ...competitors], roots, from, to, previousFrom, zone };
            const old = await selectEventCounts(pool, q);
            expect(await eventCounts(pool, q), JSON.stringify(q)).toEqual(old);
            if (Object.values(old).some((v) => v > 0)) nonZero++;
          }
    expect(nonZero).toBeGreaterThan(0);
  });

  it('hand-worked: T−1 with every competitor under audio, in CLP', async () => {
    const d = await yesterdayUnderAudio(SANTIAGO);
    // T−1: P1 (sale 900), P3, A1 1100, B1 3 PEN = 750 CLP in stock, C1 600, D1 gone: 5 of 5 in stock;
    // index 900 / min(1100, 750, 600) = 150; deviation 50; on promotion P1 (10 %), B1 (25 %), C1 (50 %):
    // 3 of 5 = 60 %, average discount 85 / 3 = 28.33; money (100 + 250 + 600) / 3 = 316.67 CLP;
    // histogram one each in 10, 25 and 50.
    expect(d.availability).toBe(100);
    expect(d.in_discount).toBe(60);
    expect(d.average_discount).toBeCloseTo(85 / 3, 9);
    expect(d.price_index).toBeCloseTo(150, 9);
    expect(d.deviation).toBeCloseTo(50, 9);
    expect(d.monetary_discount).toBeCloseTo(950 / 3, 9);
    expect(d.buckets).toEqual([
      [10, 1],
      [25, 1],
      [50, 1],
    ]);
  });

  it('per-seller rows: one seller and day, counted once per promoted listing', async () => {
    const rows = await computeSellerDays(ctx.db.pool, {
      sellers: [30, 50],
      roots: [m.cls.audio],
      zone: SANTIAGO,
      from: tDay(3),
      to: tDay(1),
    });
    // Rival C: T−3 and T−2 at 16.7 % (bucket 15, 200 CLP off), T−1 at 50 % (600 off)
    expect(rows.get(50)?.get(tDay(3))).toMatchObject({ has_rollup: true, published: 1, promoted: 1 });
    expect(rows.get(50)?.get(tDay(2))?.money).toEqual({ CLP: [200, 1] });
    expect(rows.get(50)?.get(tDay(1))?.money).toEqual({ CLP: [600, 1] });
    expect(rows.get(50)?.get(tDay(1))?.buckets[10]).toBe(1);
    // Rival B: out of stock T−2, on sale T−1 (1 PEN off)
    expect(rows.get(30)?.get(tDay(2))).toMatchObject({ in_stock: 0, promoted: 0, money: {} });
    expect(rows.get(30)?.get(tDay(1))?.money).toEqual({ PEN: [1, 1] });
  });

  it('per-seller rows and index in Tokyo: the 16:00 UTC observations count from the next day', async () => {
    const pool = ctx.db.pool;
    const rows = await computeSellerDays(pool, {
      sellers: [30, 50],
      roots: [m.cls.audio],
      zone: TOKYO,
      from: tDay(3),
      to: tDay(1),
    });
    // Rival C's sale at 1000 (observed 16:00 UTC of T−3 = 01:00 of T−2 in Tokyo) starts on T−2 there;
    // T−3's end (15:00 UTC) has the run of T−4 (not on sale); the sale at 600 (16:00 UTC of T−1) is
    // Tokyo's T, so T−1 still has 200 off — in Santiago T−3 200, T−1 600 (test above)
    expect(rows.get(50)?.get(tDay(3))).toMatchObject({
      has_rollup: true,
      published: 1,
      promoted: 0,
      money: {},
    });
    expect(rows.get(50)?.get(tDay(2))).toMatchObject({ promoted: 1, money: { CLP: [200, 1] } });
    expect(rows.get(50)?.get(tDay(1))).toMatchObject({ promoted: 1, money: { CLP: [200, 1] } });
    // Rival B: out of stock from Tokyo's T−1 (16:00 UTC of T−2), back on sale only on Tokyo's T
    expect(rows.get(30)?.get(tDay(1))).toMatchObject({ in_stock: 0, promoted: 0, money: {} });

    // T−1 in Tokyo, every competitor under audio, in CLP: P1 900 against A1 1100 and C1 1000 (B1 out of
    // stock): index 90, deviation 10 (Santiago: 150 and 50)
    const d = await yesterdayUnderAudio(TOKYO);
    expect(d.price_index).toBeCloseTo(90, 9);
    expect(d.deviation).toBeCloseTo(10, 9);
    expect(d.monetary_discount).toBeCloseTo((100 + 200) / 2, 9);
  });

  it("the warm-up fills each license's rows in its organisation's day zone", async () => {
    const pool = ctx.db.pool;
    // the main license's organisation moves to Tokyo (kept ready since the first run); the narrow one
    // (seller 20, whole tree) stays in Santiago
    await pool.query('update organisations set market_zone = $2 where id = $1', [m.users.main.org_id, TOKYO]);
    // rows the tests above stored on demand go: only the warm-up's are left
    await pool.query('delete from dashboard_seller_days');
    const { warmDashboard } = await import('./warm.js');
    await warmDashboard(pool);
    const main = await pool.query<{ r: number[] }>(
      'select array_agg(classification_id order by classification_id) as r from license_classifications',
    );
    const { rows } = await pool.query<{ zone: string; roots: number[]; seller_id: number; days: string }>(
      `select zone, roots, seller_id,
              count(*) || ' ' || to_char(min(day), 'YYYY-MM-DD') || ' ' || to_char(max(day), 'YYYY-MM-DD') as days
         from dashboard_seller_days group by zone, roots, seller_id order by zone, roots, seller_id`,
    );
    const window = (last: string) => `${WARM_DAYS} ${addDays(last, -(WARM_DAYS - 1))} ${last}`;
    const tokyo = window(addDays(today(new Date(), TOKYO), -1));
    expect(rows).toEqual([
      ...[10, 20].map((seller_id) => ({ zone: SANTIAGO, roots: [], seller_id, days: window(tDay(1)) })),
      ...[10, 20, 30, 50].map((seller_id) => ({
        zone: TOKYO,
        roots: main.rows[0].r,
        seller_id,
        days: tokyo,
      })),
    ]);
  });
});
