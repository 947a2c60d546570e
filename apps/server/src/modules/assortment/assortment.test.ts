import { addDays, assortmentProductsResponse, assortmentResult } from '@vigia/domain';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AssortmentFixture, seedAssortmentFixture } from '../../test/assortment-fixture.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { tokenOf } from '../../test/pricing-fixture.js';
import { checkDailyRollups } from '../../test/rollups-check.js';

// API tests of the assortment endpoints over the hand-computed fixture (assortment-fixture.ts,
// docs/metrics.md "Assortment — worked example"). The arithmetic is in the comments.

let ctx: TestContext;
let fx: AssortmentFixture;
let analyst: string;
let noModule: string;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedAssortmentFixture(db.pool);
    },
  });
  analyst = tokenOf(ctx.config.JWT_SECRET, fx.users.analyst, fx.users.orgAnalyst);
  noModule = tokenOf(ctx.config.JWT_SECRET, fx.users.noModule, fx.users.orgNoModule);
});
afterAll(() => ctx?.close());

async function post(url: string, payload: Record<string, unknown>, token: string | null = analyst) {
  const res = await ctx.app.inject({
    method: 'POST',
    url,
    headers: token ? { authorization: `JWT ${token}` } : {},
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}
/** The period [base − 3, base] over the pivot and both competitors, in CLP. */
const period = () => ({ currency: 'CLP', sellers: [7, 9], from_date: fx.days.from, to_date: fx.days.base });

describe('POST /v1/assortment/ecommerce', () => {
  it('answers one row per seller, the summary row «Todos» first and the pivot next', async () => {
    const { status, body } = await post('/v1/assortment/ecommerce', period());
    expect(status).toBe(200);
    expect(assortmentResult.parse(body)).toBeTruthy();
    expect(body).toMatchObject({
      previous_from_date: fx.days.previousFrom,
      previous_to_date: fx.days.p,
      // end of period: 5 → p1 1000, p2 2000, p4 700; 7 → a1 1200, a2 500; 9 → e1 4 PEN × 250 = 1000
      total_products: 6,
      total_value: 6400,
      average_value: 1066.67, // 6400 / 6
      // previous end (day P): 5 → 1000 + 2000 + 3000; 7 → 1100 + 500 + 300; 9 → 1000: 7 listings, 8900
      total_variation: -28.09, // 100 × (6400 − 8900) / 8900 = −28.0899
      average_variation: -16.105, // 100 × (1066.667 − 1271.429) / 1271.429 = −16.1049
      participation: 100,
    });
    const [todos, pivot, a, peru] = body.sellers;
    expect(todos).toMatchObject({ id: null, name: 'Todos', summary: true, total_products: 6 });
    expect(todos.previous_total_products).toBe(7);
    expect(todos.products_variation).toBe(-14.286); // 100 × (6 − 7) / 7
    expect(pivot).toMatchObject({
      id: 5,
      own: true,
      total_products: 3,
      total_value: 3700,
      previous_total_value: 6000,
      total_variation: -38.333, // 100 × (3700 − 6000) / 6000
      average_value: 1233.33, // 3700 / 3
      average_variation: -38.333, // 1233.33 vs 2000
      participation: 50, // 3 of 6
      out_of_stock: 0,
      availability: 100,
      went_out_of_stock: 1, // p2 on day E
      back_in_stock: 1, // p2 on base
    });
    expect(a).toMatchObject({
      id: 7,
      name: 'Rival A',
      total_products: 2,
      previous_total_products: 3,
      total_value: 1700,
      total_variation: -10.526, // 100 × (1700 − 1900) / 1900
      average_value: 850,
      average_variation: 34.211, // 100 × (850 − 633.333) / 633.333
      participation: 33.33,
      out_of_stock: 1,
      availability: 50,
      went_out_of_stock: 1, // a2 on day E
      back_in_stock: 0,
    });
    // no run since day P: its state is carried to the period's end
    expect(peru).toMatchObject({
      id: 9,
      total_products: 1,
      total_value: 1000,
      total_variation: 0,
      participation: 16.67,
    });
  });

  it('restricts by classification subtree and converts to the requested currency', async () => {
    const { body } = await post('/v1/assortment/ecommerce', {
      ...period(),
      currency: 'USD',
      classificationsIds: [fx.classes.leches],
    });
    // Leches: 5 → p1 1000 + p2 2000; 7 → a1 1200; 9 → e1 1000 CLP: 5200 CLP / 800 = 6.5 USD
    expect(body.total_products).toBe(4);
    expect(body.total_value).toBe(6.5);
    expect(body.sellers[1]).toMatchObject({ id: 5, total_products: 2, total_value: 3.75 });
  });
});

describe('POST /v1/assortment/brand', () => {
  it('answers one row per brand, «Todas» first, own brands marked', async () => {
    const { status, body } = await post('/v1/assortment/brand', period());
    expect(status).toBe(200);
    expect(assortmentResult.parse(body)).toBeTruthy();
    const names = body.brands.map((b: { name: string }) => b.name);
    // Colun 4; then Sin marca 1 and Soprole 1 by name
    expect(names).toEqual(['Todas', 'Colun', 'Sin marca', 'Soprole']);
    const [todas, colun, sinMarca, soprole] = body.brands;
    expect(todas).toMatchObject({ summary: true, total_products: 6, total_value: 6400 });
    expect(colun).toMatchObject({
      id: fx.brands.colun,
      own: true,
      total_products: 4, // p1 p2 a1 e1
      total_value: 5200, // 1000 + 2000 + 1200 + 1000
      previous_total_value: 5100, // 1000 + 2000 + 1100 + 1000
      total_variation: 1.961, // 100 × 100 / 5100
      participation: 66.67,
      went_out_of_stock: 1,
      back_in_stock: 1,
    });
    expect(sinMarca).toMatchObject({ id: null, total_products: 1, total_value: 700, total_variation: null });
    expect(soprole).toMatchObject({
      own: false,
      total_products: 1, // a2
      previous_total_products: 3, // p3 a2 a3
      total_variation: -86.842, // 100 × (500 − 3800) / 3800
      average_variation: -60.526, // 100 × (500 − 1266.667) / 1266.667
      went_out_of_stock: 1,
    });
  });

  it('ownBrands keeps the license brands only', async () => {
    const { body } = await post('/v1/assortment/brand', { ...period(), ownBrands: true });
    expect(body.brands.map((b: { name: string }) => b.name)).toEqual(['Todas', 'Colun']);
  });
});

describe('POST /v1/assortment/stock', () => {
  it('counts the period’s availability changes per seller and the previous period’s', async () => {
    const { body } = await post('/v1/assortment/stock', period());
    expect(body.sellers[0]).toMatchObject({
      name: 'Todos',
      went_out_of_stock: 2,
      back_in_stock: 1,
      out_of_stock: 1,
    });
    // the previous period holds only the first runs: nothing was in another state before them
    expect(body.sellers[0].previous_went_out_of_stock).toBe(0);
  });

  it('a period ending on day E sees the state of that day', async () => {
    const { body } = await post('/v1/assortment/stock', { ...period(), to_date: fx.days.e });
    // 5 at E: p1 p2(out) p3 p4 → 4; 7 at E: a1 a2(out) → 2; 9 → 1
    expect(body.sellers.map((s: { total_products: number }) => s.total_products)).toEqual([7, 4, 2, 1]);
    expect(body.sellers[0]).toMatchObject({ out_of_stock: 2, went_out_of_stock: 2, back_in_stock: 0 });
  });
});

describe('drill-downs', () => {
  const products = async (path: string, extra: Record<string, unknown>) => {
    const { status, body } = await post(`/v1/assortment/${path}/products`, { ...period(), ...extra });
    expect(status).toBe(200);
    expect(assortmentProductsResponse.parse(body)).toBeTruthy();
    return body;
  };

  it('every row’s products add up to its count (roll-up against the price history)', async () => {
    for (const [path, list, key] of [
      ['ecommerce', 'sellers', 'seller_id'],
      ['brand', 'brands', 'brand'],
    ] as const) {
      const { body } = await post(`/v1/assortment/${path}`, period());
      for (const row of body[list]) {
        const extra = row.summary ? {} : { [key]: key === 'brand' ? row.name : row.id };
        const p = await products(path, { ...extra, page_size: 200 });
        expect(p.total, `${path} ${row.name}`).toBe(row.total_products);
        const value = p.items.reduce((s: number, i: { price: number }) => s + i.price, 0);
        expect(value).toBeCloseTo(row.total_value, 2);
      }
    }
    // the same at a past end (the price-history branch) and for the stock events
    const { body } = await post('/v1/assortment/stock', { ...period(), to_date: fx.days.e });
    for (const row of body.sellers) {
      const extra = row.summary ? {} : { seller_id: row.id };
      const state = await products('ecommerce', { ...extra, to_date: fx.days.e });
      expect(state.total).toBe(row.total_products);
      const out = await products('stock', { ...extra, to_date: fx.days.e, stock: 'went_out' });
      expect(out.total).toBe(row.went_out_of_stock);
      const still = await products('stock', { ...extra, to_date: fx.days.e, stock: 'out' });
      expect(still.total).toBe(row.out_of_stock);
    }
    expect(await checkDailyRollups(ctx.db.pool)).toEqual([]);
  });

  it('lists a brand’s products by name with links and prices in the currency', async () => {
    const body = await products('brand', { brand: 'Colun', sort_by: 'price', sort: 'desc' });
    expect(body.items.map((i: { product_id: string; price: number }) => [i.product_id, i.price])).toEqual([
      ['p2', 2000],
      ['a1', 1200],
      ['e1', 1000], // a tie is broken by id in the same direction (e1 was listed after p1)
      ['p1', 1000],
    ]);
    expect(body.items[0]).toMatchObject({ seller_name: 'Pivote', brand: 'Colun', stock_out: false });
    expect(Number(body.items[0].id)).toBeGreaterThan(0);
    const none = await products('brand', { brand: 'Sin marca' });
    expect(none.items.map((i: { product_id: string }) => i.product_id)).toEqual(['p4']);
  });

  it('pages a drill-down', async () => {
    const first = await products('ecommerce', { page_size: 4, sort_by: 'name' });
    const second = await products('ecommerce', { page_size: 4, page: 2, sort_by: 'name' });
    expect(first.total).toBe(6);
    expect(first.items).toHaveLength(4);
    expect(second.items).toHaveLength(2);
    const all = [...first.items, ...second.items].map((i: { product_id: string }) => i.product_id);
    expect(new Set(all).size).toBe(6);
  });

  it('stock: which products went out, when, when they came back and how long they stayed out', async () => {
    const wentOut = await products('stock', { stock: 'went_out', sort_by: 'seller' });
    expect(
      wentOut.items.map((i: Record<string, unknown>) => [
        i.product_id,
        i.event_date,
        i.back_date,
        i.days_out,
      ]),
    ).toEqual([
      ['p2', fx.days.e, fx.days.base, 2], // out on E, back on base
      ['a2', fx.days.e, null, 2], // out on E, still out at the end (base − E)
    ]);
    const back = await products('stock', { stock: 'back_in', seller_id: 5 });
    expect(back.items.map((i: Record<string, unknown>) => [i.product_id, i.event_date, i.days_out])).toEqual([
      ['p2', fx.days.base, 2], // its in-stock interval ended on E
    ]);
    const out = await products('stock', { stock: 'out' });
    expect(out.items.map((i: Record<string, unknown>) => [i.product_id, i.event_date, i.days_out])).toEqual([
      ['a2', fx.days.e, 2],
    ]);
  });
});

describe('XLSX downloads', () => {
  it('downloads the table (summary row first) and a drill-down as spreadsheets', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/assortment/brand.xlsx',
      headers: { authorization: `JWT ${analyst}` },
      payload: period(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).getCell(1).value).toBe('Marca');
    expect(ws.getRow(1).getCell(5).value).toBe('Valor total (CLP)');
    expect(ws.getRow(1).getCell(7).value).toBe('Valor promedio (CLP)');
    expect(res.headers['content-disposition']).toMatch(
      /filename="surtido_por_marca_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    expect(ws.getRow(2).values).toEqual([
      undefined,
      'Todas',
      6,
      7,
      -14.286,
      6400,
      -28.09,
      1067, // CLP as on screen: $1.067 (issue 31 item 9)
      -16.105,
      100,
    ]);
    const stock = await ctx.app.inject({
      method: 'POST',
      url: '/v1/assortment/stock/products.xlsx',
      headers: { authorization: `JWT ${analyst}` },
      payload: { ...period(), stock: 'went_out', sort_by: 'seller' },
    });
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(stock.rawPayload as unknown as ArrayBuffer);
    expect(wb2.worksheets[0].rowCount).toBe(3); // header + p2 + a2
    expect(wb2.worksheets[0].getRow(2).getCell(1).value).toBe('Leche Descremada');
    // the stock event's day a date cell, the price named by its currency, the file by screen and event
    expect(wb2.worksheets[0].getRow(1).getCell(6).value).toBe('Precio (CLP)');
    expect(wb2.worksheets[0].getRow(2).getCell(9).value).toBeInstanceOf(Date);
    expect(stock.headers['content-disposition']).toContain(
      'cambio_de_disponibilidad_productos_Salieron-de-stock_',
    );
    const forbidden = await post('/v1/assortment/ecommerce.xlsx', period(), noModule);
    expect(forbidden.status).toBe(403);
  });
});

describe('validation, module and license', () => {
  it('requires the currency (Divisa) and the sellers (eCommerce), naming the field', async () => {
    const noCurrency = await post('/v1/assortment/brand', { sellers: [7] });
    expect(noCurrency.status).toBe(400);
    expect(noCurrency.body).toMatchObject({ field: 'currency', code: 'validation_error' });
    expect(noCurrency.body.detail).toContain('Divisa');
    const noSellers = await post('/v1/assortment/ecommerce', { currency: 'CLP' });
    expect(noSellers.status).toBe(400);
    expect(noSellers.body).toMatchObject({ field: 'sellers' });
    expect(noSellers.body.detail).toContain('eCommerce');
    const stock = await post('/v1/assortment/stock/products', { currency: 'CLP', sellers: [7], stock: 'x' });
    expect(stock).toMatchObject({ status: 400, body: { field: 'stock' } });
  });

  it('refuses filters the assortment does not apply, and bad dates, naming them', async () => {
    const skus = await post('/v1/assortment/brand', { ...period(), SKUs: 'abc' });
    expect(skus).toMatchObject({ status: 400, body: { field: 'SKUs' } });
    const future = await post('/v1/assortment/brand', { ...period(), to_date: addDays(fx.days.base, 30) });
    expect(future).toMatchObject({ status: 400, body: { field: 'to_date' } });
    const order = await post('/v1/assortment/brand', {
      ...period(),
      from_date: fx.days.base,
      to_date: fx.days.p,
    });
    expect(order).toMatchObject({ status: 400, body: { field: 'to_date' } });
    const seller = await post('/v1/assortment/ecommerce/products', {
      ...period(),
      sellers: [7],
      seller_id: 9,
    });
    expect(seller).toMatchObject({ status: 400, body: { field: 'seller_id' } });
  });

  it('needs a session and the assortment module (before validating the body)', async () => {
    expect((await post('/v1/assortment/brand', {}, null)).status).toBe(401);
    const res = await post('/v1/assortment/brand', {}, noModule);
    expect(res.status).toBe(403);
    expect((await post('/v1/assortment/stock/products', period(), noModule)).status).toBe(403);
  });

  it('refuses sellers, pivots and currencies outside the license', async () => {
    expect((await post('/v1/assortment/brand', { ...period(), sellers: [10] })).status).toBe(403);
    expect((await post('/v1/assortment/brand', { ...period(), sellersIds: [7, 10] })).status).toBe(403);
    expect((await post('/v1/assortment/brand', { ...period(), pivot_id: 7 })).status).toBe(403);
    expect((await post('/v1/assortment/brand', { ...period(), currency: 'PEN' })).status).toBe(403);
  });
});

describe("the drill-downs' converted price to the cent (queries.ts toCents)", () => {
  it('a price in the asked currency (factor 1) is its own float8, as the numeric rounding gives', async () => {
    // numeric(14,2) values across the whole range, the cent boundaries and the largest one
    const { rows } = await ctx.db.pool.query<{ n: number; differ: number }>(
      `with v(p) as (
         select ((g::numeric * 987654321.37) % 999999999999.99)::numeric(14,2) from generate_series(1, 200000) g
         union all select x::numeric(14,2) from unnest('{0.01,0.05,0.1,0.3,0.49,0.5,0.99,1.005,2.675,999999999999.99,123456789012.34}'::numeric[]) x
       )
       select count(*)::int as n,
              count(*) filter (where p::float8 is distinct from round((p * 1::float8)::numeric, 2)::float8)::int as differ
         from v`,
    );
    expect(rows[0]).toEqual({ n: 200011, differ: 0 });
  });
});
