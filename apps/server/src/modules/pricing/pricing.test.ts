import { dpmGroupsResponse, isoDateInZone, pricingItemsResponse, pricingKpisResponse } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import { observe } from '../../test/fixtures.js';
import { type PricingFixture, seedPricingFixture, tokenOf } from '../../test/pricing-fixture.js';
import { confirmMatch, rejectMatch } from '../matching/index.js';
import { refreshPricingForListings } from './maintain.js';

// API tests of the pricing endpoints over the hand-computed fixture (test/pricing-fixture.ts, docs/metrics.md
// "Worked example"). Numbers in expectations are worked out in the comments.

let ctx: TestContext;
let fx: PricingFixture;
let analyst: string;
let limited: string;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedPricingFixture(db.pool);
    },
  });
  analyst = tokenOf(ctx.config.JWT_SECRET, fx.users.analyst, fx.users.orgAnalyst);
  limited = tokenOf(ctx.config.JWT_SECRET, fx.users.limited, fx.users.orgLimited);
});
afterAll(() => ctx?.close());

const auth = (token: string) => ({ authorization: `JWT ${token}` });
async function get(url: string, token = analyst) {
  const res = await ctx.app.inject({ method: 'GET', url, headers: auth(token) });
  return { status: res.statusCode, body: res.json() };
}
async function post(url: string, payload: unknown, token = analyst) {
  const res = await ctx.app.inject({ method: 'POST', url, headers: auth(token), payload: payload as object });
  return { status: res.statusCode, body: res.json() };
}
const ids = (items: { id: string }[]) => items.map((i) => Number(i.id));

describe('GET /v2/navigation/dpm/kpi', () => {
  it('counts KPIs and the index split over the pivot listings (dpm value 10)', async () => {
    const { status, body } = await get('/v2/navigation/dpm/kpi');
    expect(status).toBe(200);
    expect(pricingKpisResponse.parse(body)).toBeTruthy();
    // total P1..P6; match P1 P2 P3 P4 (P5 no EAN, P6's only match unpublished); index P1..P4
    expect(body).toMatchObject({
      total: 6,
      match: 4,
      publishedMatch: 4,
      normal: 4, // P1 P4 P5 P6
      sale: 1, // P2
      exclusive: 1, // P3
      stock_out: 1, // P4
      currency: 'CLP',
      mpi_value: 10,
    });
    // P1 105.26 in range (≤ 110); P2 94.44, P3 88.89 cheapest; P4 111.11 dearer
    // mean = (105.263158 + 94.444444 + 88.888889 + 111.111111) / 4 = 99.926901
    expect(body.split).toEqual({
      cheapest: 2,
      in_range: 1,
      dearer: 1,
      without_index: 2,
      average_index: 99.93,
    });
  });

  it('applies the filters', async () => {
    const k = async (qs: string) => (await get(`/v2/navigation/dpm/kpi?${qs}`)).body;
    expect((await k(`brands=${fx.brands.colun}`)).total).toBe(3);
    expect((await k('ownBrands=true')).total).toBe(3); // own brand of the license: Colun
    expect((await k(`classificationsIds=${fx.classes.leches}`)).total).toBe(3);
    expect((await k(`classificationsIds=${fx.classes.alimentos}`)).total).toBe(4); // a node selects its subtree
    expect((await k(`classificationsIds=${fx.classes.yogures},${fx.classes.liquidos}`)).total).toBe(2);
    expect((await k(`categories=${fx.categories.despensa}`)).total).toBe(4);
    expect((await k('price_type=SALE')).total).toBe(1);
    expect((await k('price_type=SALE&price_type=EXCLUSIVE')).total).toBe(2); // repeated params work too
    expect((await k('stockOut=true')).total).toBe(1);
    expect((await k('match=true')).total).toBe(4);
    expect((await k('mpi_range=cheapest')).total).toBe(2);
    expect((await k('metaSearch=LÉCHE')).total).toBe(3);
    expect((await k('metaSearch=leche%20choc')).total).toBe(1);
    // the folded search text holds name, brand, SKU, the seller's id and EAN
    expect((await k('metaSearch=liquido')).total).toBe(1); // 'Detergente Líquido 3L', accentless
    expect((await k('metaSearch=SOPROLE')).total).toBe(1); // P3's brand
    expect((await k('metaSearch=sku-004')).total).toBe(1); // P4's SKU
    expect((await k('metaSearch=e3')).total).toBe(1); // P3's EAN
    expect((await k('metaSearch=p6%20colun')).total).toBe(1); // P6's own id and brand
    expect((await k('SKUs=SKU-001%20p3,bad$')).total).toBe(2); // 'bad$' is dropped
    expect((await k('minPrice=800&maxPrice=1000')).total).toBe(3); // P1 1000, P2 850, P6 800
    expect((await k('SKUs=SKU-001%20p3,bad$')).skus_not_found).toEqual([]);
    expect((await k('stockOut=true')).skus_not_found).toEqual([]); // no SKUs pasted
  });

  it('names the pasted SKUs that no product of the selection has', async () => {
    const k = async (qs: string) => (await get(`/v2/navigation/dpm/kpi?${qs}`)).body;
    // XYZ-NOEXISTE matches nothing; SKU-001 is P1's SKU, p2 is P2's own id
    const none = await k('SKUs=SKU-001,XYZ-NOEXISTE,p2,XYZ-NOEXISTE');
    expect(none.total).toBe(2);
    expect(none.skus_not_found).toEqual(['XYZ-NOEXISTE']);
    // the other descriptive filters narrow the selection: P3 (SKU-003, exclusive) is not on SALE
    const sale = await k('SKUs=SKU-002,SKU-003&price_type=SALE');
    expect([sale.total, sale.skus_not_found]).toEqual([1, ['SKU-003']]);
    // match, index ranges and the price range do not: P5 (no match) is found, though not counted
    const matched = await k('SKUs=SKU-005&match=true');
    expect([matched.total, matched.skus_not_found]).toEqual([0, []]);
    // the same on the navigation KPI
    expect((await get('/v2/navigation/kpi?SKUs=NOPE-1')).body.skus_not_found).toEqual(['NOPE-1']);
    expect((await k('sellersIds=8')).match).toBe(3); // P1, P2 (its stock-out listing still matches), P4
    expect((await k('sellersIds=8')).publishedMatch).toBe(2); // P1, P4
  });

  it('price modes change the effective price', async () => {
    // NORMAL_SALE_PRICE: P3 is 500 (exclusive 400 does not count) vs A 450 → 111.11 dearer
    const ns = (await get('/v2/navigation/dpm/kpi?priceMode=NORMAL_SALE_PRICE')).body;
    expect(ns.split).toMatchObject({ cheapest: 1, in_range: 1, dearer: 2 });
    // NORMAL_PRICE: P1 1000 vs min(A 1000, B 1100, Perú 1040) → 100; P2 900 vs 900 → 100; P3 500/450; P4
    const n = (await get('/v2/navigation/dpm/kpi?priceMode=NORMAL_PRICE')).body;
    expect(n.split).toMatchObject({ cheapest: 2, in_range: 0, dearer: 2 });
  });

  it('a date window includes listings seen in it (P6 matched against B seen at T0)', async () => {
    // the market's days (America/Santiago), not UTC's: between 00:00 and 03:00 UTC they differ
    const from = isoDateInZone(fx.t0);
    const to = isoDateInZone(fx.t1);
    const { body } = await get(`/v2/navigation/dpm/kpi?from_date=${from}&to_date=${to}`);
    // P6 800 vs 780 → 102.56 in range
    expect(body).toMatchObject({ match: 5, publishedMatch: 5 });
    expect(body.split).toMatchObject({ cheapest: 2, in_range: 2, dearer: 1 });
  });
});

describe('GET /v2/navigation/dpm/items', () => {
  it('pages with a cursor (page size 5, name asc) and sorting restarts from the top', async () => {
    const p1 = await get('/v2/navigation/dpm/items?page_size=5&sort_by=name&sort=asc');
    expect(p1.status).toBe(200);
    pricingItemsResponse.parse(p1.body);
    const L = fx.listings;
    expect(ids(p1.body.items)).toEqual([L.p4, L.p5, L.p6, L.p2, L.p1]);
    expect(p1.body).toMatchObject({ total: 6, page_size: 5, next_cursor: String(L.p1) });
    const p2 = await get(
      `/v2/navigation/dpm/items?page_size=5&sort_by=name&sort=asc&cursor=${p1.body.next_cursor}`,
    );
    expect(ids(p2.body.items)).toEqual([L.p3]);
    expect(p2.body.next_cursor).toBeNull();
    // default: 10 per page, index desc, products without index last
    const byIndex = await get('/v2/navigation/dpm/items');
    expect(byIndex.body.page_size).toBe(10);
    expect(ids(byIndex.body.items)).toEqual([L.p4, L.p1, L.p2, L.p3, L.p6, L.p5]);
  });

  it('gives my price, the lowest competitor, index, ranking and each competitor', async () => {
    const { body } = await get(`/v2/navigation/dpm/items?SKUs=SKU-001`);
    const it1 = body.items[0];
    expect(it1).toMatchObject({
      name: 'Leche Entera 1L',
      brand: { id: fx.brands.colun, name: 'Colun' },
      my_price: 1000,
      min_price: 950, // B's sale price
      max_price: 1040, // Perú 4 PEN × 260
      difference: 50,
      difference_pct: 5.26,
      index: 105.26,
      bucket: 'in_range',
      position: 2, // B (950) < me (1000) = A (1000, tie ranks me first) < Perú (1040)
      ranked: 4,
      ranking_icon: 4, // 1 + round(8 × 1 / 3)
      historical: false,
    });
    expect(it1.competitors.map((c: { seller_id: number; price: number }) => [c.seller_id, c.price])).toEqual([
      [8, 950],
      [7, 1000],
      [9, 1040],
    ]);
    const p4 = (await get('/v2/navigation/dpm/items?SKUs=SKU-004')).body.items[0];
    expect(p4).toMatchObject({ position: 3, ranked: 3, ranking_icon: 9, historical: true, stock_out: true });
  });

  it('converts to the requested currency through CLP (latest rate)', async () => {
    const { body } = await get('/v2/navigation/dpm/items?SKUs=SKU-001&currency=USD');
    expect(body.currency).toBe('USD');
    const item = body.items[0];
    expect(item.my_price).toBe(1.11); // 1000 / 900
    expect(item.competitors.find((c: { seller_id: number }) => c.seller_id === 9).price).toBe(1.16); // 4 × 260 / 900
    expect(item.index).toBe(105.26); // unchanged by conversion
  });

  it('refuses bad input with 400 naming the field', async () => {
    for (const [qs, field] of [
      ['page_size=7', 'page_size'],
      ['sellersIds=abc', 'sellersIds.0'],
      ['price_type=MATCH', 'price_type.0'],
      ['minPrice=10&maxPrice=5', 'maxPrice'],
      ['cursor=abc', 'cursor'],
      ['sort=up', 'sort'],
      ['from_date=2026-99', 'from_date'],
    ] as const) {
      const { status, body } = await get(`/v2/navigation/dpm/items?${qs}`);
      expect(status, qs).toBe(400);
      expect(body.field, qs).toBe(field);
    }
    const stale = await get('/v2/navigation/dpm/items?cursor=999999');
    expect(stale).toMatchObject({ status: 400, body: { field: 'cursor' } });
  });

  it('refuses what is outside the license with 403', async () => {
    expect((await get('/v2/navigation/dpm/items?sellersIds=10')).status).toBe(403);
    expect((await get('/v2/navigation/dpm/items?sellers=7,10')).status).toBe(403);
    expect((await get('/v2/navigation/dpm/items?currency=PEN')).status).toBe(403);
    expect((await get('/v2/navigation/dpm/items?pivot_id=7')).status).toBe(403);
    expect(
      (await get(`/v2/navigation/dpm/kpi?classificationsIds=${fx.classes.limpieza}`, limited)).status,
    ).toBe(403);
    expect((await get('/v2/navigation/dpm/kpi')).status).toBe(200);
    const noAuth = await ctx.app.inject({ method: 'GET', url: '/v2/navigation/dpm/kpi' });
    expect(noAuth.statusCode).toBe(401);
  });

  it('scopes to the license: classification roots and sellers', async () => {
    // limited: sellers 7 and 8, classification root Alimentos → P1 P2 P3 P6
    const { body } = await get('/v2/navigation/dpm/kpi', limited);
    expect(body).toMatchObject({ total: 4, match: 3, publishedMatch: 3 });
    const items = (await get('/v2/navigation/dpm/items?SKUs=SKU-001', limited)).body.items;
    expect(items[0].competitors.map((c: { seller_id: number }) => c.seller_id)).toEqual([8, 7]); // no Perú
  });
});

describe('DPM groups', () => {
  it('by brand', async () => {
    const { status, body } = await get('/v2/navigation/dpm/brands');
    expect(status).toBe(200);
    dpmGroupsResponse.parse(body);
    const colun = body.items.find((g: { name: string }) => g.name === 'Colun');
    // P1 105.26 in range, P2 94.44 cheapest, P6 no match → mean (105.263158 + 94.444444) / 2 = 99.85
    expect(colun).toMatchObject({
      id: fx.brands.colun,
      products: 3,
      total: 3,
      match: 2,
      match_pct: 66.67,
      publishedMatch: 2,
      normal: 2,
      sale: 1,
      cheapest: 1,
      in_range: 1,
      dearer: 0,
      without_index: 1,
      average_index: 99.85,
    });
    const omo = body.items.find((g: { name: string }) => g.name === 'Omo');
    expect(omo).toMatchObject({
      total: 2,
      match: 1,
      match_pct: 50,
      stock_out: 1,
      dearer: 1,
      average_index: 111.11,
    });
    expect(body.summary).toMatchObject({ products: 6, match: 4 });
  });

  it('by classification, every level with parent ids', async () => {
    const { body } = await get('/v2/navigation/dpm/classifications');
    const by = (id: number) => body.items.find((g: { id: number }) => g.id === id);
    expect(by(fx.classes.alimentos)).toMatchObject({ total: 4, level: 1, parent_id: null });
    expect(by(fx.classes.lacteos)).toMatchObject({ total: 4, parent_id: fx.classes.alimentos, level: 2 });
    expect(by(fx.classes.leches)).toMatchObject({
      total: 3,
      match: 2,
      parent_id: fx.classes.lacteos,
      level: 3,
    });
    expect(by(fx.classes.yogures)).toMatchObject({ total: 1, cheapest: 1 });
    expect(by(fx.classes.limpieza)).toMatchObject({ total: 2 });
    expect(by(fx.classes.liquidos)).toMatchObject({
      total: 1,
      path: [fx.classes.limpieza, fx.classes.detergentes, fx.classes.liquidos],
    });
  });

  it('by e-commerce: head to head against each competitor', async () => {
    const { body } = await get('/v2/navigation/dpm/sellers');
    const by = (id: number) => body.items.find((g: { id: number }) => g.id === id);
    // A: P1 1000/1000 = 100 (equal), P2 850/900 = 94.44, P3 400/450 = 88.89 (cheaper), P4 10000/9000 (dearer)
    // mean difference = (0 − 5.5556 − 11.1111 + 11.1111) / 4 = −1.39; mean index 98.61
    expect(by(7)).toMatchObject({
      name: 'Rival A',
      products: 4,
      match_pct: 66.67, // 4 of 6
      publishedMatch: 4,
      cheapest: 3,
      dearer: 1,
      average_index: 98.61,
      head_to_head: { common: 4, cheaper: 2, equal: 1, more_expensive: 1, average_difference_pct: -1.39 },
    });
    // B: P1 1000/950 = 105.26, P4 10000/9500 = 105.26, P2 out of stock → not common
    expect(by(8)).toMatchObject({
      products: 3,
      publishedMatch: 2,
      in_range: 2,
      without_index: 1,
      head_to_head: { common: 2, cheaper: 0, equal: 0, more_expensive: 2, average_difference_pct: 5.26 },
    });
    // Perú: P1 1000 / 1040 = 96.15
    expect(by(9)).toMatchObject({
      products: 1,
      head_to_head: { common: 1, cheaper: 1, average_difference_pct: -3.85 },
    });
  });

  it('brand filter options of the pivot', async () => {
    const { status, body } = await get('/v2/navigation/dpm/brandFilterOptions/?pivotId=5');
    expect(status).toBe(200);
    expect(body).toEqual([
      { id: fx.brands.colun, name: 'Colun', products: 3, own: true },
      { id: fx.brands.omo, name: 'Omo', products: 2, own: false },
      { id: fx.brands.soprole, name: 'Soprole', products: 1, own: false },
    ]);
    expect((await get('/v2/navigation/dpm/brandFilterOptions/?pivotId=8')).status).toBe(403);
  });
});

describe('navigation by e-commerce', () => {
  it('POST /v2/navigation/ pages items with each competitor; navigationOld answers the same', async () => {
    const first = await post('/v2/navigation/', { page_size: 4, sort_by: 'price', sort: 'asc' });
    expect(first.status).toBe(200);
    const L = fx.listings;
    // my prices: P3 400, P6 800, P2 850, P1 1000, P5 5000, P4 10000
    expect(ids(first.body.items)).toEqual([L.p3, L.p6, L.p2, L.p1]);
    expect(first.body.mpi_value).toBe(5);
    const second = await post('/v2/navigation/', {
      page_size: 4,
      sort_by: 'price',
      sort: 'asc',
      cursor: first.body.next_cursor,
    });
    expect(ids(second.body.items)).toEqual([L.p5, L.p4]);
    const old = await post('/v2/navigationOld/', { page_size: 4, sort_by: 'price', sort: 'asc' });
    expect(old.body).toEqual(first.body);
  });

  it('one seller in sellersIds is the comparator head to head', async () => {
    const { body } = await post('/v2/navigation/', { sellersIds: [8], match: true });
    expect(body.total).toBe(3); // P1, P2, P4
    for (const item of body.items)
      expect(item.competitors.map((c: { seller_id: number }) => c.seller_id)).toEqual([8]);
    const p2 = body.items.find((i: { id: string }) => Number(i.id) === fx.listings.p2);
    expect(p2).toMatchObject({
      index: null,
      competitors: [{ stock_out: true, comparable: false, historical: true }],
    });
    const summary = await get('/v2/navigation/summary?sellersIds=8');
    expect(summary.body.items).toEqual([
      expect.objectContaining({
        seller_id: 8,
        common: 2,
        cheaper: 0,
        more_expensive: 2,
        average_index: 105.26,
      }),
    ]);
  });

  it('GET /v2/navigation/kpi (mpi_value 5) and navigationOld/kpi', async () => {
    const { body } = await get('/v2/navigation/kpi');
    expect(body).toMatchObject({ total: 6, match: 4, publishedMatch: 4, mpi_value: 5 });
    expect(body.split).toMatchObject({ cheapest: 2, in_range: 0, dearer: 2 }); // P1 105.26 > 105
    expect((await get('/v2/navigationOld/kpi')).body).toEqual(body);
  });

  it('POST /v1/new-navigation/prices/ gives the side-by-side matrix', async () => {
    const { status, body } = await post('/v1/new-navigation/prices/', { SKUs: 'SKU-001 SKU-002' });
    expect(status).toBe(200);
    expect(body.sellers.map((s: { id: number }) => s.id)).toEqual([7, 8, 9]);
    const p1 = body.items.find((i: { id: string }) => Number(i.id) === fx.listings.p1);
    expect(p1.prices).toEqual([1000, 950, 1040]);
    const p2 = body.items.find((i: { id: string }) => Number(i.id) === fx.listings.p2);
    expect(p2.prices).toEqual([900, null, null]); // B out of stock, Perú not carried
  });

  it('price-range-scores: slider bounds and index split with mpi_value 5', async () => {
    const { status, body } = await get('/v2/navigation/price-range-scores');
    expect(status).toBe(200);
    expect(body).toEqual({
      currency: 'CLP',
      mpi_value: 5,
      min_price: 400,
      max_price: 10000,
      total: 6,
      cheapest: 2,
      in_range: 0,
      dearer: 2,
      without_index: 2,
      average_index: 99.93,
    });
    const ranged = (await get('/v2/navigation/price-range-scores?minPrice=800&maxPrice=1000')).body;
    expect(ranged).toMatchObject({ min_price: 400, max_price: 10000, total: 3 });
  });

  it('price-range-scores-qmp: products per ranking icon', async () => {
    const { body } = await get('/v2/navigation/price-range-scores-qmp');
    // P1 pos 2/4 → icon 4; P2 pos 1/2 → 1; P3 pos 1/2 → 1; P4 pos 3/3 → 9
    expect(body.icons.map((i: { count: number }) => i.count)).toEqual([2, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(body).toMatchObject({ ranked: 4, first: 2, average_position: 1.75, total: 6 });
  });

  it('needs the ecommerce_navigation module (403 for a dpm-only license)', async () => {
    expect((await post('/v2/navigation/', {}, limited)).status).toBe(403);
    expect((await get('/v2/navigation/kpi', limited)).status).toBe(403);
    expect((await post('/v1/new-navigation/prices/', {}, limited)).status).toBe(403);
    expect((await get('/v2/navigation/dpm/kpi', limited)).status).toBe(200);
  });

  it('price-range-scores serve the DPM slider too: dpm or ecommerce_navigation grants them', async () => {
    // limited (dpm only): sellers 7 and 8, classification root Alimentos → P1 P2 P3 P6, as in dpm/kpi
    const range = await get('/v2/navigation/price-range-scores', limited);
    expect(range.status).toBe(200);
    expect(range.body.total).toBe(4);
    expect((await get('/v2/navigation/price-range-scores-qmp', limited)).status).toBe(200);
    // a license with neither module (reports only)
    const reports = tokenOf(ctx.config.JWT_SECRET, fx.users.reportsOnly, fx.users.orgReportsOnly);
    for (const path of ['/v2/navigation/price-range-scores', '/v2/navigation/price-range-scores-qmp']) {
      const { status, body } = await get(path, reports);
      expect(status).toBe(403);
      expect(body.code).toBe('module_not_licensed');
    }
  });

  it('POST bodies are validated too (400 with the field)', async () => {
    const { status, body } = await post('/v2/navigation/', { page_size: 0 });
    expect(status).toBe(400);
    expect(body.field).toBe('page_size');
    const bad = await post('/v2/navigation/', { sellersIds: [7, 'x'] });
    expect(bad.body.field).toBe('sellersIds.1');
    expect((await post('/v2/navigation/', { sellersIds: [10] })).status).toBe(403);
  });
});

describe('read model maintenance', () => {
  it("a page's URLs, image and competitors' ids are read for the page: the read model's, changed ones too", async () => {
    const pool = ctx.db.pool;
    const { rows: listings } = await pool.query<{ id: number; product_id: string }>(
      `select id, product_id from products where product_id in ('p1', 'a1', 'b1', 'pe1')`,
    );
    await pool.query(
      `update products set url = 'https://tienda.example/' || product_id || '?v=2',
                           image_url = 'https://img.example/' || product_id || '.jpg'
        where id = any($1::bigint[])`,
      [listings.map((l) => l.id)],
    );
    await refreshPricingForListings(
      pool,
      listings.map((l) => l.id),
    );
    const item = (await get('/v2/navigation/dpm/items?SKUs=SKU-001')).body.items[0];
    expect(item).toMatchObject({
      id: String(fx.listings.p1),
      product_id: 'p1',
      url: 'https://tienda.example/p1?v=2',
      image_url: 'https://img.example/p1.jpg',
    });
    const shown = item.competitors.map(
      (c: { listing_id: string; product_id: string; url: string | null }) => [c.product_id, c.url],
    );
    expect(shown).toEqual([
      ['b1', 'https://tienda.example/b1?v=2'],
      ['a1', 'https://tienda.example/a1?v=2'],
      ['pe1', 'https://tienda.example/pe1?v=2'],
    ]);
    // the same as the read model's copies (maintain.ts), which the model no longer holds
    const { rows: copies } = await pool.query<{ product_id: string; url: string }>(
      `select o.listing_ref as product_id, o.url from pricing_offers o
        where o.pivot_product_id = $1 and o.seller_id = any('{7,8,9}'::int[]) order by o.seller_id desc`,
      [fx.listings.p1],
    );
    expect(copies.map((c) => [c.product_id, c.url])).toEqual([
      ['pe1', 'https://tienda.example/pe1?v=2'],
      ['b1', 'https://tienda.example/b1?v=2'],
      ['a1', 'https://tienda.example/a1?v=2'],
    ]);
    const row = await pool.query('select url, image_url from pricing_rows where product_id = $1', [
      fx.listings.p1,
    ]);
    expect(row.rows[0]).toEqual({ url: item.url, image_url: item.image_url });
  });

  it('an ingest updates what the screens read (roll-up in the ingest transaction)', async () => {
    // Rival A lowers P1 to 900 (partial run): index 1000/900 = 111.11 → dearer
    await observe(ctx.db.pool, 7, new Date(), [{ productId: 'a1', ean: 'E1', normalPrice: 900 }], 'partial');
    const item = (await get('/v2/navigation/dpm/items?SKUs=SKU-001')).body.items[0];
    // A 900 and B 950 are now both cheaper: position 3 of 4, icon 1 + round(8 × 2 / 3) = 6
    expect(item).toMatchObject({
      min_price: 900,
      index: 111.11,
      bucket: 'dearer',
      position: 3,
      ranking_icon: 6,
    });
  });

  it('a process whose change log was pruned reloads the pivot in full', async () => {
    // versions logged so far are pruned, and one more version whose log is gone
    await ctx.db.pool.query('delete from pricing_changes');
    await ctx.db.pool.query('update pricing_pivots set version = version + 1');
    // Rival B lowers P1 to 800: 1000 / 800 = 125
    await observe(ctx.db.pool, 8, new Date(), [{ productId: 'b1', ean: 'E1', normalPrice: 800 }], 'partial');
    const item = (await get('/v2/navigation/dpm/items?SKUs=SKU-001')).body.items[0];
    expect(item).toMatchObject({ min_price: 800, index: 125, bucket: 'dearer' });
  });

  it('a match confirmed outside ingest is picked up by refreshPricingForListings', async () => {
    const pool = ctx.db.pool;
    const a5 = (await pool.query(`select id from products where seller_id = 7 and product_id = 'a5'`)).rows[0]
      .id;
    const { rows } = await pool.query(`insert into match_groups (ean) values (null) returning id`);
    await pool.query(
      `insert into match_members (group_id, product_id, method, confidence, status) values
         ($1, $2, 'manual', 1, 'confirmed'), ($1, $3, 'manual', 1, 'confirmed')`,
      [rows[0].id, fx.listings.p5, a5],
    );
    await refreshPricingForListings(pool, [fx.listings.p5, a5]);
    const item = (await get('/v2/navigation/dpm/items?SKUs=SKU-005')).body.items[0];
    // 5000 / 5200 = 96.15
    expect(item).toMatchObject({ index: 96.15, bucket: 'cheapest', min_price: 5200 });
  });

  it('a match a person rejects or confirms is followed through the match-change hook (no direct call)', async () => {
    const pool = ctx.db.pool;
    const a5 = (await pool.query(`select id from products where seller_id = 7 and product_id = 'a5'`)).rows[0]
      .id;
    const group = (
      await pool.query(`select group_id from match_members where product_id = $1 and status = 'confirmed'`, [
        a5,
      ])
    ).rows[0].group_id;
    await rejectMatch(pool, group, a5, fx.users.analyst);
    // P5 has no competitor left: no index
    const alone = (await get('/v2/navigation/dpm/items?SKUs=SKU-005')).body.items[0];
    expect(alone).toMatchObject({ index: null, min_price: null });
    await confirmMatch(pool, group, a5, fx.users.analyst);
    // back to 5000 / 5200 = 96.15
    const again = (await get('/v2/navigation/dpm/items?SKUs=SKU-005')).body.items[0];
    expect(again).toMatchObject({ index: 96.15, bucket: 'cheapest', min_price: 5200 });
  });
});
