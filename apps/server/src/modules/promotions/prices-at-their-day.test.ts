import { addDays, isoDateInZone } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../lib/jwt.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import {
  insertClassification,
  insertFxRate,
  insertOrgWithLicense,
  insertSeller,
  insertUser,
  observe,
  seedReferenceData,
} from '../../test/fixtures.js';
import type { Observation } from '../ingest/index.js';
import { checkPromotions } from './check.js';

// Issue 25: a promotion's prices are converted at the rate in force on its own first day (the day whose
// prices it carries), not at the window's end. Hand-built market: seller 9 sells in PEN; 1 PEN = 250 CLP
// until T−3, 200 CLP from T−2 on (the rate changes inside the window T−4 … T−1). Runs at 16:00Z.
//
//   listing  T−4              T−3            T−2            T−1          promotion (first day, rate)
//   P1       SALE 8 (of 10)   SALE 8         SALE 8         SALE 8       running, 4 days (T−4, 250)
//   P2       10               10             SALE 4 (of 5)  SALE 4       running, 2 days (T−2, 200)
//   P3       SALE 6 (of 10)   10             10             10           ended, 1 day   (T−4, 250)
//
// In CLP, each at its first day: promotion prices 8·250 = 2000, 4·200 = 800, 6·250 = 1500 → average
// 4300 / 3 = 1433.33; normal prices 2500, 1000, 2500 → 2000. (At the window's end rate, 200, it was
// 18/3·200 = 1200 and 25/3·200 = 1666.67.) In PEN, the promotions' own currency: 6 and 25/3 = 8.33.
//
// In MXN, a third currency (1 MXN = 50 CLP until T−2, 25 CLP from T−1 on: the window's end), each at its
// first day's rates: a PEN is 250/50 = 5 MXN on T−4 and 200/50 = 4 MXN on T−2, so
//   P1 10 → 50, 8 → 40;   P2 5 → 20, 4 → 16;   P3 10 → 50, 6 → 30
// averages: normal 120/3 = 40, promotion 86/3 = 28.67, discount (20 + 20 + 40)/3 = 26.67. (The CLP sums
// divided by the window-end rate, 25, gave 6000/3/25 = 80 and 4300/3/25 = 57.33.)
//
// Range and scatter plot, each promotion price at its first day: in CLP 800, 1500, 2000 (at the window's
// end: 800, 1200, 1600); in MXN 16, 30, 40 (at the window's end, 8 MXN a PEN: 32, 48, 64). Two ranges:
// the boundaries are min, median, max. The scatter plot's bucket is niceStep(p95): in CLP p95 = 1500 +
// 0.9·500 = 1950, 1950/20 = 97.5 → 100; in MXN p95 = 30 + 0.9·10 = 39, 39/20 = 1.95 → 2.

const T = (n: number) => addDays(isoDateInZone(new Date(), 'America/Santiago'), -n);

let ctx: TestContext;
let token: string;
let leaf: number;

const item = (id: string, normalPrice: number, salePrice?: number): Observation => ({
  productId: id,
  name: `Producto ${id}`,
  brand: 'Marca',
  classificationId: leaf,
  normalPrice,
  ...(salePrice === undefined ? {} : { salePrice }),
});

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      const pool = db.pool;
      await seedReferenceData(pool);
      await insertSeller(pool, { id: 5, name: 'Pivote' });
      await insertSeller(pool, { id: 9, name: 'Rival Perú', country: 'PE', currency: 'PEN' });
      await insertFxRate(pool, 'PEN', T(10), 250);
      await insertFxRate(pool, 'PEN', T(2), 200);
      await insertFxRate(pool, 'MXN', T(10), 50);
      await insertFxRate(pool, 'MXN', T(1), 25);
      leaf = await insertClassification(pool, 'Leches');
      const { orgId } = await insertOrgWithLicense(pool, {
        sellers: [9],
        pivots: [5],
        currencies: ['CLP', 'PEN', 'MXN'],
        modules: ['promotions'],
      });
      await insertUser(pool, orgId, 'tasas@example.com');
      const at = (n: number) => `${T(n)}T16:00:00Z`;
      for (const n of [4, 3, 2, 1]) {
        await observe(pool, 5, at(n), [item('MIO', 1000)]);
        await observe(pool, 9, at(n), [
          item('P1', 10, 8),
          n <= 2 ? item('P2', 5, 4) : item('P2', 10),
          n === 4 ? item('P3', 10, 6) : item('P3', 10),
        ]);
      }
    },
  });
  const { rows } = await ctx.db.pool.query<{ id: number; org_id: number }>(
    `select id, org_id from users where email = 'tasas@example.com'`,
  );
  token = signToken({ sub: rows[0].id, org: rows[0].org_id, ver: 0 }, ctx.config.JWT_SECRET, 3600);
}, 120_000);
afterAll(() => ctx?.close());

// biome-ignore lint/suspicious/noExplicitAny: the answers are read loosely here, parsed by their own tests
type Any = any;
async function promo(path: string, payload: object) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/v1/promotion/${path}`,
    headers: { authorization: `JWT ${token}`, 'x-module-authorization': 'promotions' },
    payload: { from_date: T(4), to_date: T(1), ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const peru = (body: Any) => body.items.find((i: Any) => i.seller.id === 9).classifications[0];

/** The type drill-down of the Peruvian seller's sales in `currency`: [listing, normal, promotion price]. */
async function drill(currency: string) {
  const body = await promo('prices', {
    classificationsIds: [leaf],
    promotion: 'type',
    kind: 'sale',
    seller_id: 9,
    classification: leaf,
    currency,
  });
  return body.items.map((p: Any) => [p.name, p.normal_price, p.promotion_price]).sort();
}

describe('promotion prices at the rate of their own day', () => {
  it('the cumulative rows keep the CLP sums at each first day (and equal their recount)', async () => {
    expect(await checkPromotions(ctx.db.pool)).toEqual([]);
    const { rows } = await ctx.db.pool.query(
      `select started, s_promo::float8 as p, s_promo_clp::float8 as c from promo_type_cum
        where seller_id = 9 and classification_id = $1 and price_type = 'SALE' order by day desc limit 1`,
      [leaf],
    );
    expect(rows[0]).toEqual({ started: 3, p: 18, c: 4300 });
  });

  it('Promociones por tipo in CLP: averages 2000 normal, 1433.33 promotion (not 1666.67 / 1200)', async () => {
    const sale = peru(await promo('type', { classificationsIds: [leaf], currency: 'CLP' })).sale;
    expect(sale.count).toBe(3);
    expect(sale.prices).toMatchObject({ normal: 2000, promotion: 1433.33 });
  });

  it('Promociones por tipo in PEN (the promotions’ own currency): 8.33 and 6, unconverted', async () => {
    const sale = peru(await promo('type', { classificationsIds: [leaf], currency: 'PEN' })).sale;
    expect(sale.prices).toMatchObject({ normal: 8.33, promotion: 6 });
  });

  it('the drill-down lists each promotion at its first day: 2000, 800, 1500 (their average 1433.33)', async () => {
    expect(await drill('CLP')).toEqual([
      ['Producto P1', 2500, 2000],
      ['Producto P2', 1000, 800],
      ['Producto P3', 2500, 1500],
    ]);
  });

  it('Promociones por duración in CLP: 1 day 1500 (ended), 2 days 800, 4 days 2000 (running)', async () => {
    const body = await promo('duration', { classification: leaf, currency: 'CLP' });
    const days = peru(body).days.map((d: Any) => [d.day, d.count, d.prices.promotion, d.prices.normal]);
    expect(days).toEqual([
      [1, 1, 1500, 2500],
      [2, 1, 800, 1000],
      [4, 1, 2000, 2500],
    ]);
  });

  it('Promociones por tipo in MXN: 40 normal, 28.67 promotion, each at its first day (not 80 / 57.33)', async () => {
    const sale = peru(await promo('type', { classificationsIds: [leaf], currency: 'MXN' })).sale;
    expect(sale.count).toBe(3);
    expect(sale.prices).toEqual({ normal: 40, promotion: 28.67, discount: 26.67 });
  });

  it('Promociones por duración in MXN: 1 day 30, 2 days 16, 4 days 40', async () => {
    const body = await promo('duration', { classification: leaf, currency: 'MXN' });
    const days = peru(body).days.map((d: Any) => [d.day, d.count, d.prices.promotion, d.prices.normal]);
    expect(days).toEqual([
      [1, 1, 30, 50],
      [2, 1, 16, 20],
      [4, 1, 40, 50],
    ]);
  });

  it('the drill-down in MXN lists 40, 16, 30 (their average 28.67)', async () => {
    expect(await drill('MXN')).toEqual([
      ['Producto P1', 50, 40],
      ['Producto P2', 20, 16],
      ['Producto P3', 50, 30],
    ]);
  });

  it('the range converts each promotion at its first day: CLP 800 · 1500 · 2000, MXN 16 · 30 · 40', async () => {
    for (const [currency, points] of [
      ['CLP', [800, 1500, 2000]],
      ['MXN', [16, 30, 40]],
    ] as const) {
      const body = await promo('range', { classification: leaf, range: 2, currency });
      expect(body.currency).toBe(currency);
      expect(body.items[0].range_points).toEqual(points);
      const rival = body.items[0].sellers.find((x: Any) => x.id === 9);
      // the median is the lower bound of range 2: one price below it, two at or above
      expect(rival.prices.map((p: Any) => p.count)).toEqual([1, 2]);
    }
  });

  it('the scatter plot too: CLP buckets of 100 at 800, 1500, 2000; MXN buckets of 2 at 16, 30, 40', async () => {
    for (const [currency, bucket, prices] of [
      ['CLP', 100, [800, 1500, 2000]],
      ['MXN', 2, [16, 30, 40]],
    ] as const) {
      const body = await promo('scatter-plot', { classificationsIds: [leaf], simple: true, currency });
      expect(body.bucket).toBe(bucket);
      const rival = body.items.find((x: Any) => x.seller.id === 9);
      expect(rival.prices.map((p: Any) => [p.price, p.count])).toEqual(prices.map((p) => [p, 1]));
    }
  });
});
