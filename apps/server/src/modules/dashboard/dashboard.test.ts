import {
  type DashboardPreResponse,
  dashboardPreResponse,
  generalPreResponse,
  quickFindResponse,
} from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelsOf } from '../../platform/read-model.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { observe } from '../../test/fixtures.js';
import { authHeader, tokenFor } from '../../test/fixtures-account.js';
import { seedTestMarket, type TestMarket, tDay } from '../../test/test-market.js';

// Expected figures are worked out by hand from the market in ../../test/test-market.ts.

let ctx: TestContext;
let m: TestMarket;
let token: string;
let narrowToken: string;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      m = await seedTestMarket(db);
    },
  });
  token = tokenFor(ctx, m.users.main);
  narrowToken = tokenFor(ctx, m.users.narrow);
});
afterAll(() => ctx?.close());

const post = (url: string, payload: object, t = token) =>
  ctx.app.inject({ method: 'POST', url, payload, headers: authHeader(t) });

const cards = (body: DashboardPreResponse) =>
  Object.fromEntries(
    body.groups.flatMap((g) => g.cards.map((c) => [c.key, [c.value, c.previous, c.change]])),
  );

describe('POST /v2/general/pre', () => {
  it('counts competitors, monitored products, matches and the index split', async () => {
    const res = await post('/v2/general/pre', {});
    expect(res.statusCode).toBe(200);
    const body = generalPreResponse.parse(res.json());
    // main license: competitors 20, 30, 50; pivot listings under Electro: P1, P3 (P2 is Moda)
    expect(body).toMatchObject({
      pivot_id: 10,
      sellers: [20, 30, 50],
      currency: 'CLP',
      competitors: 3,
      monitored_products: 2,
      products_with_match: 1,
      // P1 900 vs the lowest in-stock competitor 1100 → index 81.8 → cheapest
      cheapest: 1,
      in_range: 0,
      more_expensive: 0,
    });
    // the last runs (pivot and Rival A) happened a minute ago
    expect(Date.now() - Date.parse(body.last_update ?? '')).toBeLessThan(5 * 60_000);
  });

  it('is scoped to the license', async () => {
    const body = generalPreResponse.parse((await post('/v2/general/pre', {}, narrowToken)).json());
    expect(body.sellers).toEqual([20]);
    expect(body.monitored_products).toBe(3); // whole tree: P1, P2, P3
    expect((await post('/v2/general/pre', { sellers: [40] })).statusCode).toBe(403);
    expect((await post('/v2/general/pre', { pivot_id: 20 })).statusCode).toBe(403);
  });
});

describe('POST /v2/dashboard/pre', () => {
  it('default period: the 7 days ending today against the 7 before', async () => {
    const res = await post('/v2/dashboard/pre', {});
    expect(res.statusCode).toBe(200);
    const body = dashboardPreResponse.parse(res.json());
    expect([body.from_date, body.to_date, body.previous_from_date, body.previous_to_date]).toEqual([
      tDay(6),
      tDay(0),
      tDay(13),
      tDay(7),
    ]);
    expect(body.groups.map((g) => [g.title, g.cards.map((c) => c.key)])).toEqual([
      ['Surtido', ['availability', 'new', 'unpublished']],
      ['Precios', ['price_index', 'deviation']],
      ['Promociones', ['monetary_discount', 'average_discount', 'mode_discount', 'in_discount']],
    ]);
    // Each snapshot figure is the average of the 7 days' end-of-day figures (docs/metrics.md). Market
    // under the license (audio): P1, P3 @10, A1, D1 @20, B1 @30, C1 @50.
    //   availability: T−6..T−3 all in stock (6/6, then 5/5 once D1 left at T−3) = 100 × 4 days;
    //                 T−2..T0 B1 out of stock, 4/5 = 80 × 3 days → (400 + 240) / 7 = 91.43
    //   index: T−6 1000/950 = 105.263; T−5, T−4 (P1 on sale 900) 900/950 = 94.737; T−3 (A1 1100, B1
    //          4 PEN = 1000 CLP) 900/1000 = 90; T−2..T0 (B1 out) 900/1100 = 81.818
    //          → (105.263 + 2 × 94.737 + 90 + 3 × 81.818) / 7 = 90.03; deviation (5.263 × 3 + 10 +
    //          18.182 × 3) / 7 = 11.48
    //   in discount: T−6 0; T−5, T−4 1/6 = 16.667; T−3..T0 1/5 = 20 → (33.333 + 80) / 7 = 16.19
    //   discounts: P1's 10 % (100 CLP) on the 6 days it was on sale; T−6 has none and is left out
    // The market's listings were first seen inside the previous period (T−13..T−7): monitoring began
    // after it started, so there is no comparison (before: "new 0 vs 6, −6" — every listing "new" then).
    expect(body.comparison).toBe('no_data');
    expect(body.monitoring_since).not.toBeNull();
    expect(body.monitoring_since! > body.previous_from_date).toBe(true);
    expect(cards(body)).toEqual({
      availability: [91.43, null, null],
      new: [0, null, null],
      unpublished: [1, null, null], // D1, left Rival A's full run at T−3
      price_index: [90.03, null, null],
      deviation: [11.48, null, null],
      monetary_discount: [100, null, null],
      average_discount: [10, null, null],
      mode_discount: [10, null, null],
      in_discount: [16.19, null, null],
    });
    const first = body.groups[0].cards[0];
    expect(first).toMatchObject({
      title: 'Disponibilidad',
      unit: 'percent',
      link: '/app/assortment-by-stock',
    });
  });

  it('a longer period averages over more days: 30 days differ from 7', async () => {
    const body = dashboardPreResponse.parse(
      (await post('/v2/dashboard/pre', { from_date: tDay(29), to_date: tDay(0) })).json(),
    );
    expect(body.comparison).toBe('no_data');
    // T−29..T−11 have no data (monitoring began at T−10) and are left out: 11 days.
    // index: 5 × 105.263 (T−10..T−6) + 2 × 94.737 + 90 + 3 × 81.818 = 1051.244 → / 11 = 95.57
    // availability: 8 × 100 + 3 × 80 = 1040 → / 11 = 94.55; in discount (2 × 16.667 + 4 × 20) / 11 = 10.30
    expect(cards(body).price_index).toEqual([95.57, null, null]);
    expect(cards(body).availability).toEqual([94.55, null, null]);
    expect(cards(body).in_discount).toEqual([10.3, null, null]);
    expect(cards(body).average_discount).toEqual([10, null, null]);
  });

  it('no comparison when the previous period starts on the first day of monitoring', async () => {
    // T−5..T−1 against T−10..T−6: every listing was first seen at T−10, "new" against it would be −6
    const body = dashboardPreResponse.parse(
      (await post('/v2/dashboard/pre', { from_date: tDay(5), to_date: tDay(1) })).json(),
    );
    expect([body.previous_from_date, body.monitoring_since]).toEqual([tDay(10), tDay(10)]);
    expect(body.comparison).toBe('no_data');
    expect(cards(body).new).toEqual([0, null, null]);
    // one day later the previous period (T−9..T−6) is inside monitoring: compared
    const later = dashboardPreResponse.parse(
      (await post('/v2/dashboard/pre', { from_date: tDay(4), to_date: tDay(1) })).json(),
    );
    expect(later.comparison).toBe('available');
  });

  it('closed periods: per-day figures computed once and stored', async () => {
    const payload = { from_date: tDay(2), to_date: tDay(1) };
    const body = dashboardPreResponse.parse((await post('/v2/dashboard/pre', payload)).json());
    expect([body.previous_from_date, body.previous_to_date]).toEqual([tDay(4), tDay(3)]);
    // a previous period inside monitoring: compared
    expect(body.comparison).toBe('available');
    // T−2, T−1: B1 out of stock → 4 of 5 in stock, index 900 / 1100 = 81.82, 1 of 5 on promotion
    // T−4: 6 of 6 in stock, index 900 / 950 = 94.737, 1 of 6 on promotion (16.667);
    // T−3: D1 gone, 5 of 5, index 900 / 1000 = 90, 1 of 5 (20)
    //   → previous: availability 100, index 92.37, deviation (5.263 + 10) / 2 = 7.63, in discount 18.33
    expect(cards(body)).toEqual({
      availability: [80, 100, -20],
      new: [0, 0, 0],
      unpublished: [0, 1, -1],
      price_index: [81.82, 92.37, -10.55],
      deviation: [18.18, 7.63, 10.55],
      monetary_discount: [100, 100, 0],
      average_discount: [10, 10, 0],
      mode_discount: [10, 10, 0],
      in_discount: [20, 18.33, 1.67],
    });
    // the closed days are kept per seller and day (any selection sums its sellers' rows)
    const figures = await ctx.db.pool.query<{ seller_id: number; days: string[] }>(
      `select seller_id, array_agg(to_char(day, 'YYYY-MM-DD') order by day) as days from dashboard_seller_days
        where roots = (select array_agg(classification_id order by classification_id) from license_classifications)
          and zone = 'America/Santiago' and day between $1 and $2 group by seller_id order by seller_id`,
      [tDay(4), tDay(1)],
    );
    const four = [tDay(4), tDay(3), tDay(2), tDay(1)];
    expect(figures.rows).toEqual([10, 20, 30, 50].map((seller_id) => ({ seller_id, days: four })));
    // a second request answers the same from the stored rows
    expect(cards(dashboardPreResponse.parse((await post('/v2/dashboard/pre', payload)).json()))).toEqual(
      cards(body),
    );
  });

  it('per-day figures of a closed range, and the prune of old ones', async () => {
    const { computeDays } = await import('./days.js');
    const { pruneFigures, WARM_DAYS } = await import('./warm.js');
    const pool = ctx.db.pool;
    const scope = {
      pivot: 10,
      competitors: [20, 30, 50],
      roots: [m.cls.audio],
      currency: 'CLP',
      zone: 'America/Santiago',
    };
    const days = await computeDays(pool, scope, tDay(11), tDay(9));
    // T−11: before monitoring, nothing; T−10 and T−9: the first state
    expect(days.get(tDay(11))).toEqual({
      availability: null,
      in_discount: null,
      average_discount: null,
      price_index: null,
      deviation: null,
      monetary_discount: null,
      buckets: [],
    });
    expect(days.get(tDay(10))).toMatchObject({ availability: 100, in_discount: 0, monetary_discount: null });
    expect(days.get(tDay(10))?.price_index).toBeCloseTo(105.263, 3);
    const sale = await computeDays(pool, scope, tDay(5), tDay(5));
    expect(sale.get(tDay(5))).toMatchObject({ monetary_discount: 100, buckets: [[10, 1]] });

    const old = tDay(WARM_DAYS + 5);
    await pool.query(
      `insert into dashboard_day_figures (pivot_id, competitors, roots, currency, zone, day, figures, computed_at)
       values (10, '{20}', '{}', 'CLP', 'America/Santiago', $1, '{}', now() - interval '2 days'),
              (10, '{30}', '{}', 'CLP', 'America/Santiago', $1, '{}', now())`,
      [old],
    );
    // older than the warm window and computed over a day ago: goes; computed moments ago: stays a day
    expect(await pruneFigures(pool, tDay(0))).toBe(1);
    const left = await pool.query('select competitors from dashboard_day_figures where day = $1', [old]);
    expect(left.rows).toEqual([{ competitors: [30] }]);
  });

  it('converts money to the requested currency and follows the license', async () => {
    const usd = dashboardPreResponse.parse((await post('/v2/dashboard/pre', { currency: 'USD' })).json());
    // 100 CLP / 900 = 0.11 USD
    expect(cards(usd).monetary_discount[0]).toBe(0.11);
    const narrow = dashboardPreResponse.parse((await post('/v2/dashboard/pre', {}, narrowToken)).json());
    // whole tree, competitor 20 only (no comparison: the previous 7 days start before monitoring did):
    //   every listing in stock every day → 100; on promotion: T−6 0 of 5, T−5, T−4 1 of 5 (20),
    //   T−3..T0 1 of 4 (D1 gone, 25) → (0 + 40 + 100) / 7 = 20;
    //   index against A1 only: 1000/950, 2 × 900/950, 4 × 900/1100 → 622.01 / 7 = 88.86
    expect(cards(narrow).availability).toEqual([100, null, null]);
    expect(cards(narrow).in_discount).toEqual([20, null, null]);
    expect(cards(narrow).price_index).toEqual([88.86, null, null]);
  });

  it('validates the period and the scope', async () => {
    const future = await post('/v2/dashboard/pre', { to_date: tDay(-1) });
    expect(future.statusCode).toBe(400);
    expect(future.json().field).toBe('to_date');
    const reversed = await post('/v2/dashboard/pre', { from_date: tDay(1), to_date: tDay(3) });
    expect(reversed.statusCode).toBe(400);
    const tooLong = await post('/v2/dashboard/pre', { from_date: '2020-01-01', to_date: tDay(0) });
    expect(tooLong.statusCode).toBe(400);
    expect((await post('/v2/dashboard/pre', { currency: 'PEN' })).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'POST', url: '/v2/dashboard/pre', payload: {} })).statusCode).toBe(
      401,
    );
  });
});

describe('POST /v2/quickFind', () => {
  it('finds the pivot listings by words, accent-insensitive, exact codes first', async () => {
    const audi = quickFindResponse.parse((await post('/v2/quickFind', { query: 'AUDIFONO' })).json());
    expect(audi.items.map((i) => [i.product_id, i.name, i.price])).toEqual([
      ['P3', 'Audífono Pro', 3000],
      ['P1', 'Audífono X', 900],
    ]);
    const sku = quickFindResponse.parse((await post('/v2/quickFind', { query: 'sku-p1' })).json());
    expect(sku.items.map((i) => i.id)).toEqual([m.ids.P1]);
    const pro = quickFindResponse.parse((await post('/v2/quickFind', { query: 'audífono pro' })).json());
    expect(pro.items.map((i) => i.product_id)).toEqual(['P3']);
  });

  it('stays inside the license and validates the query', async () => {
    // P2 (Moda, no name) is outside the main license's Electro subtree; found by id under the narrow one
    expect(quickFindResponse.parse((await post('/v2/quickFind', { query: 'P2' })).json()).items).toEqual([]);
    const narrow = quickFindResponse.parse(
      (await post('/v2/quickFind', { query: 'P2' }, narrowToken)).json(),
    );
    expect(narrow.items.map((i) => i.id)).toEqual([m.ids.P2]);
    const short = await post('/v2/quickFind', { query: 'a' });
    expect(short.statusCode).toBe(400);
    expect(short.json().field).toBe('query');
  });
});

describe('request dates', () => {
  it('a day that does not exist is a 400 naming the field, never a 500', async () => {
    for (const bad of ['2025-13-45', '2025-02-30', '0000-01-01', '2025-1-01']) {
      for (const field of ['from_date', 'to_date']) {
        const res = await post('/v2/dashboard/pre', { [field]: bad });
        expect(res.statusCode, `${field}=${bad}`).toBe(400);
        expect(res.json().field).toBe(field);
      }
    }
  });
});

describe('off the request path', () => {
  it('the warm-up computes the rows of every licensed seller for every closed day of the presets', async () => {
    const { warmDashboard, WARM_DAYS } = await import('./warm.js');
    const pool = ctx.db.pool;
    const r = await warmDashboard(pool);
    expect([r.from, r.to]).toEqual([tDay(WARM_DAYS), tDay(1)]);
    expect(r.scopes).toBeGreaterThan(0);
    // main license: pivot 10 and sellers 20, 30, 50 under its roots; narrow: 10 and 20, whole tree
    const main = await pool.query<{ r: number[] }>(
      'select array_agg(classification_id order by classification_id) as r from license_classifications',
    );
    const { rows } = await pool.query<{ roots: number[]; seller_id: number; n: number }>(
      `select roots, seller_id, count(*)::int as n from dashboard_seller_days
        where zone = 'America/Santiago' and day between $1 and $2 group by roots, seller_id order by roots, seller_id`,
      [tDay(WARM_DAYS), tDay(1)],
    );
    expect(rows).toEqual([
      { roots: [], seller_id: 10, n: WARM_DAYS },
      { roots: [], seller_id: 20, n: WARM_DAYS },
      ...[10, 20, 30, 50].map((seller_id) => ({ roots: main.rows[0].r, seller_id, n: WARM_DAYS })),
    ]);
    // a second run has nothing left to compute
    const again = await warmDashboard(pool);
    expect(again.pruned).toBe(0);
    const res = await post('/v2/dashboard/pre', {});
    expect(res.statusCode).toBe(200);
  });
});

// Last: it changes the market for good.
describe('memoised answers follow new data', () => {
  it('a competitor ingest after an answer was memoised changes the next answer', async () => {
    const before = cards(dashboardPreResponse.parse((await post('/v2/dashboard/pre', {})).json()));
    expect(before.price_index).toEqual([90.03, null, null]); // no comparison: see the default period
    const models = readModelsOf(ctx.db.pool);
    const version = await models.version();
    // Rival C's C1 drops from 1200 to 800: today's index is 100 × 900 / min(1100, 800) = 112.5, the
    // closed days stay → (105.263 + 2 × 94.737 + 90 + 2 × 81.818 + 112.5) / 7 = 94.41
    await observe(ctx.db.pool, 50, new Date(Date.now() - 30_000), [
      {
        ean: '7800000000001',
        name: 'Audífono X',
        brand: 'Acme',
        categoryPath: ['Tecnología', 'Audio'],
        classificationId: m.cls.audio,
        productId: 'C1',
        normalPrice: 800,
      },
    ]);
    expect(await models.version()).toBeGreaterThan(version);
    const after = cards(dashboardPreResponse.parse((await post('/v2/dashboard/pre', {})).json()));
    expect(after.price_index).toEqual([94.41, null, null]);
  });
});
