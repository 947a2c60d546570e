import {
  type DashboardPreResponse,
  dashboardPreResponse,
  generalPreResponse,
  quickFindResponse,
} from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    // now: P1 (sale 900), P3, A1 1100, B1 out of stock, C1 → 4 of 5 in stock; P1 on promotion (10 %)
    // index now: 100 × 900 / min(1100, 1200) = 81.82.
    // The market's listings were first seen inside the previous period (T−13..T−7): monitoring began
    // after it started, so there is no comparison (before: "new 0 vs 6, −6" — every listing "new" then).
    expect(body.comparison).toBe('no_data');
    expect(body.monitoring_since).not.toBeNull();
    expect(body.monitoring_since! > body.previous_from_date).toBe(true);
    expect(cards(body)).toEqual({
      availability: [80, null, null],
      new: [0, null, null],
      unpublished: [1, null, null], // D1, left Rival A's full run at T−3
      price_index: [81.82, null, null],
      deviation: [18.18, null, null],
      monetary_discount: [100, null, null],
      average_discount: [10, null, null],
      mode_discount: [10, null, null],
      in_discount: [20, null, null],
    });
    const first = body.groups[0].cards[0];
    expect(first).toMatchObject({
      title: 'Disponibilidad',
      unit: 'percent',
      link: '/app/assortment-by-stock',
    });
  });

  it('closed periods read the end-of-day states, materialised once', async () => {
    const payload = { from_date: tDay(2), to_date: tDay(1) };
    const body = dashboardPreResponse.parse((await post('/v2/dashboard/pre', payload)).json());
    expect([body.previous_from_date, body.previous_to_date]).toEqual([tDay(4), tDay(3)]);
    // a previous period inside monitoring: compared
    expect(body.comparison).toBe('available');
    // end of T−1: B1 out of stock, D1 gone → 4 of 5; index 900 / 1100
    // end of T−3: A1 already at 1100, B1 1000 in stock → 5 of 5; index 100 × 900 / 1000 = 90
    expect(cards(body)).toEqual({
      availability: [80, 100, -20],
      new: [0, 0, 0],
      unpublished: [0, 1, -1],
      price_index: [81.82, 90, -8.18],
      deviation: [18.18, 10, 8.18],
      monetary_discount: [100, 100, 0],
      average_discount: [10, 10, 0],
      mode_discount: [10, 10, 0],
      in_discount: [20, 20, 0],
    });
    const { rows } = await ctx.db.pool.query<{ seller_id: number; day: string; listings: number }>(
      'select seller_id, day, listings from listing_eod_days where day in ($1, $2) order by day, seller_id',
      [tDay(3), tDay(1)],
    );
    expect(rows.map((r) => [r.seller_id, r.day, r.listings])).toEqual([
      [10, tDay(3), 3],
      [20, tDay(3), 1],
      [30, tDay(3), 1],
      [50, tDay(3), 1],
      [10, tDay(1), 3],
      [20, tDay(1), 1],
      [30, tDay(1), 1],
      [50, tDay(1), 1],
    ]);
    const figures = await ctx.db.pool.query('select day from dashboard_day_figures where day in ($1, $2)', [
      tDay(3),
      tDay(1),
    ]);
    expect(figures.rowCount).toBe(2);
    // a second request answers the same from the materialised rows
    expect(cards(dashboardPreResponse.parse((await post('/v2/dashboard/pre', payload)).json()))).toEqual(
      cards(body),
    );
  });

  it('prunes closed days no longer compared against; a later request builds them again', async () => {
    const { closedDay } = await import('./service.js');
    const { comparisonDays, eodVersion, pruneEod } = await import('./eod.js');
    const pool = ctx.db.pool;
    const sellers = [10, 20, 30, 50];
    const scope = { pivot: 10, competitors: [20, 30, 50], roots: [], currency: 'CLP' };
    const first = await closedDay(pool, scope, tDay(3));
    const keep = comparisonDays(tDay(0));
    expect(keep).not.toContain(tDay(3));
    expect(keep).toContain(tDay(7));
    await closedDay(pool, scope, tDay(7));
    // built moments ago: nothing goes
    expect(await pruneEod(pool, keep)).toEqual({ days: 0, figures: 0 });

    const version = await eodVersion(pool, sellers, tDay(3));
    for (const table of ['listing_eod_days set built_at', 'dashboard_day_figures set computed_at'])
      await pool.query(`update ${table} = now() - interval '2 days' where day in ($1, $2)`, [
        tDay(3),
        tDay(7),
      ]);
    const pruned = await pruneEod(pool, keep);
    expect(pruned.days).toBe(4); // T−3 of sellers 10, 20, 30, 50; T−7 is a comparison day and stays
    const left = async (table: string, day: string) =>
      Number((await pool.query(`select count(*) as n from ${table} where day = $1`, [day])).rows[0].n);
    expect([await left('listing_eod', tDay(3)), await left('dashboard_day_figures', tDay(3))]).toEqual([
      0, 0,
    ]);
    expect(await left('listing_eod', tDay(7))).toBeGreaterThan(0);
    expect(await left('dashboard_day_figures', tDay(7))).toBeGreaterThan(0);

    // asked again, T−3 is built anew and gives the same figures
    expect(await closedDay(pool, scope, tDay(3))).toEqual(first);
    const rebuilt = await eodVersion(pool, sellers, tDay(3));
    expect(rebuilt).not.toBe(version);
    expect(rebuilt.split(',')).toHaveLength(4);
  });

  it('converts money to the requested currency and follows the license', async () => {
    const usd = dashboardPreResponse.parse((await post('/v2/dashboard/pre', { currency: 'USD' })).json());
    // 100 CLP / 900 = 0.11 USD
    expect(cards(usd).monetary_discount[0]).toBe(0.11);
    const narrow = dashboardPreResponse.parse((await post('/v2/dashboard/pre', {}, narrowToken)).json());
    // whole tree, competitor 20 only: now P1, P2, P3, A1 → 4 of 4; 1 of 4 on promotion
    // (no comparison: the previous 7 days start before monitoring did)
    expect(cards(narrow).availability).toEqual([100, null, null]);
    expect(cards(narrow).in_discount).toEqual([25, null, null]);
    expect(cards(narrow).price_index).toEqual([81.82, null, null]);
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
  it('ingestion materialises the comparison days and the warm-up computes their figures', async () => {
    const { comparisonDays } = await import('./eod.js');
    const { warmDashboard } = await import('./warm.js');
    const pool = ctx.db.pool;
    // the last runs (now) built the pivot's comparison days that had closed: T−7 and T−6 (tomorrow's T−7)
    const { rows } = await pool.query<{ day: string }>(
      `select to_char(day, 'YYYY-MM-DD') as day from listing_eod_days where seller_id = 10 order by day`,
    );
    expect(rows.map((r) => r.day)).toEqual(expect.arrayContaining([tDay(7), tDay(6)]));
    expect(comparisonDays(tDay(0))).toEqual([tDay(90), tDay(89), tDay(30), tDay(29), tDay(7), tDay(6)]);
    const r = await warmDashboard(pool);
    expect(r.scopes).toBeGreaterThan(0);
    const figures = await pool.query(
      `select 1 from dashboard_day_figures where pivot_id = 10 and competitors = '{20,30,50}' and day = $1::date`,
      [tDay(7)],
    );
    expect(figures.rowCount).toBeGreaterThan(0);
    const res = await post('/v2/dashboard/pre', {});
    expect(res.statusCode).toBe(200);
  });
});

// Last: it changes the market for good.
describe('memoised answers follow new data', () => {
  it('a competitor ingest after an answer was memoised changes the next answer', async () => {
    const before = cards(dashboardPreResponse.parse((await post('/v2/dashboard/pre', {})).json()));
    expect(before.price_index).toEqual([81.82, null, null]); // no comparison: see the default period
    const { selectDataVersion } = await import('./queries.js');
    const version = await selectDataVersion(ctx.db.pool);
    // Rival C's C1 drops from 1200 to 800: the index now is 100 × 900 / min(1100, 800) = 112.5
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
    expect(await selectDataVersion(ctx.db.pool)).toBeGreaterThan(version);
    const after = cards(dashboardPreResponse.parse((await post('/v2/dashboard/pre', {})).json()));
    expect(after.price_index).toEqual([112.5, null, null]);
  });
});
