import {
  historicalCompleteResponse,
  minusMonths,
  newDetailResponse,
  productInfoSchema,
  productMatchInfoSchema,
  QMI_HISTORY_COLUMNS,
  qmiHistoryResponse,
} from '@vigia/domain';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import { authHeader, tokenFor } from '../../test/fixtures-account.js';
import { seedTestMarket, type TestMarket, tDay } from '../../test/test-market.js';

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

describe('POST /v1/new-detail/', () => {
  it('answers the product match info with hand-computed ranking, variation and availability', async () => {
    const res = await post('/v1/new-detail/', { product_id: m.ids.P1, currency: 'CLP', pivot_id: 10 });
    expect(res.statusCode).toBe(200);
    const body = productMatchInfoSchema.parse(res.json());
    expect(body._id).toBe(m.ids.P1);
    expect(body.name).toBe('Audífono X');
    // P1 900 (sale), B1 4 PEN × 250 = 1000, A1 1100, C1 1200; F1 (seller 40) is outside the license
    expect(body.qm_items.map((q) => [q.product_id, q.min_price, q.position])).toEqual([
      ['P1', 900, 1],
      ['B1', 1000, 2],
      ['A1', 1100, 3],
      ['C1', 1200, 4],
    ]);
    const by = Object.fromEntries(body.qm_items.map((q) => [q.product_id, q]));
    expect(by.P1.is_pivot).toBe(true);
    expect(by.P1.previous_price).toBe(1000);
    expect(by.A1.previous_price).toBe(950);
    expect(by.B1.previous_price).toBeNull(); // its effective price never changed
    expect(by.B1.difference).toBe(100);
    expect(by.B1.difference_percent).toBeCloseTo(11.111111, 5);
    expect(by.C1.difference).toBe(300);
    expect(by.P1.availability).toBe('Disponible'); // seen a minute ago
    expect(by.A1.availability).toBe('Disponible');
    expect(by.B1.availability).toBe('No Disponible'); // out of stock
    expect(by.C1.availability).toBe('No disponible'); // last seen T−4
    expect([by.P1.historical, by.A1.historical, by.B1.historical, by.C1.historical]).toEqual([
      false,
      false,
      true,
      true,
    ]);
    expect(by.P1.highlight).toBe('cheapest');
    expect(by.C1.highlight).toBe('dearest');
    expect(by.A1.highlight).toBe('none');
    expect(by.P1.categories).toEqual([
      { name: 'Tecnología', url: null },
      { name: 'Audio', url: null },
    ]);
    expect(by.P1.match_status).toBe('confirmed');
    // enrichment: 100 × (1 − 900/1000) = +10 → three decimals
    expect(body.pivotPriceVariation).toEqual({ variation: 10, arrow: 'up', text: '+10,000%' });
    expect(body.min_price).toBe(900);
    expect(body.pivotPreviousPrice).toBe(1000);
    expect(body.pivotQmItemPosition).toBe(1);
    expect(body.qmitemsQuantity).toBe(4);
    expect(body.cheaper).toEqual({ seller_id: 10, seller_name: 'Pivote', price: 900 });
    expect(body.expensive).toEqual({ seller_id: 50, seller_name: 'Rival C', price: 1200 });
    expect(body.ranking_icon).toBe(1);
  });

  it('restricts competitors to the requested sellers and converts the currency', async () => {
    const res = await post('/v1/new-detail/', { product_id: m.ids.P1, currency: 'USD', sellers: [20, 30] });
    const body = productMatchInfoSchema.parse(res.json());
    // 900 / 900 = 1.00 USD; 4 PEN × 250 / 900 = 1.11; 1100 / 900 = 1.22
    expect(body.qm_items.map((q) => [q.seller_id, q.min_price])).toEqual([
      [10, 1],
      [30, 1.11],
      [20, 1.22],
    ]);
    expect(body.currency).toBe('USD');
    // position 1 of 3 → icon 1; the dearest is now A (1.22)
    expect(body.ranking_icon).toBe(1);
    expect(body.expensive?.seller_id).toBe(20);
  });

  it("scopes to the caller's license: a narrower license sees fewer competitors", async () => {
    const res = await post('/v1/new-detail/', { product_id: m.ids.P1 }, narrowToken);
    const body = productMatchInfoSchema.parse(res.json());
    expect(body.qm_items.map((q) => q.product_id)).toEqual(['P1', 'A1']);
    // P1 900 first of 2 → position 1; A1 dearer by 200
    expect(body.pivotQmItemPosition).toBe(1);
    expect(body.qmitemsQuantity).toBe(2);
  });

  it('answers without _id for an unknown product or one outside the license', async () => {
    for (const product_id of [999_999, m.ids.F1, m.ids.P2]) {
      const res = await post('/v1/new-detail/', { product_id });
      expect(res.statusCode).toBe(200);
      const body = newDetailResponse.parse(res.json());
      expect('_id' in body).toBe(false);
    }
  });

  it('refuses sellers, pivots and currencies requested outside the license (403) and bad input (400)', async () => {
    expect((await post('/v1/new-detail/', { product_id: m.ids.P1, sellers: [40] })).statusCode).toBe(403);
    expect((await post('/v1/new-detail/', { product_id: m.ids.P1, pivot_id: 20 })).statusCode).toBe(403);
    expect((await post('/v1/new-detail/', { product_id: m.ids.P1, currency: 'MXN' })).statusCode).toBe(403);
    const bad = await post('/v1/new-detail/', { product_id: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('product_id');
    const anon = await ctx.app.inject({ method: 'POST', url: '/v1/new-detail/', payload: { product_id: 1 } });
    expect(anon.statusCode).toBe(401);
  });

  it("opened from a competitor's listing, the pivot's own listing is the pivot (even outside sellers)", async () => {
    // A1 (Rival A) opened with sellers = [30] only: A1 1100, P1 900 (the pivot's, always there), B1 1000
    const res = await post('/v1/new-detail/', { product_id: m.ids.A1, currency: 'CLP', sellers: [30] });
    expect(res.statusCode).toBe(200);
    const body = productMatchInfoSchema.parse(res.json());
    expect(body._id).toBe(m.ids.A1);
    expect(body.qm_items.map((q) => [q.product_id, q.is_pivot, q.min_price, q.position])).toEqual([
      ['P1', true, 900, 1],
      ['B1', false, 1000, 2],
      ['A1', false, 1100, 3],
    ]);
    const by = Object.fromEntries(body.qm_items.map((q) => [q.product_id, q]));
    expect(by.A1.difference).toBe(200); // 1100 − "Mi precio" 900
    expect(by.A1.difference_percent).toBeCloseTo(22.222222, 5);
    expect(body.min_price).toBe(900);
    expect(body.pivotPreviousPrice).toBe(1000);
    expect(body.pivotQmItemPosition).toBe(1);
    expect(body.qmitemsQuantity).toBe(3);
    // with every seller: P1 is still the only pivot, A1 appears once
    const all = productMatchInfoSchema.parse(
      (await post('/v1/new-detail/', { product_id: m.ids.A1, pivot_id: 10 })).json(),
    );
    expect(all.qm_items.filter((q) => q.is_pivot).map((q) => q.product_id)).toEqual(['P1']);
    expect(all.qm_items.map((q) => q.product_id).sort()).toEqual(['A1', 'B1', 'C1', 'P1']);
  });

  it('a product alone in its group has one qm_item and no ranking icon', async () => {
    const body = productMatchInfoSchema.parse(
      (await post('/v1/new-detail/', { product_id: m.ids.P3 })).json(),
    );
    expect(body.qmitemsQuantity).toBe(1);
    expect(body.pivotQmItemPosition).toBe(1);
    expect(body.ranking_icon).toBeNull();
    expect(body.pivotPriceVariation).toEqual({ variation: null, arrow: 'none', text: '—' });
  });
});

describe('POST /v1/new-detail/info and /v2/detail/qmi', () => {
  it('describes a listing', async () => {
    const res = await post('/v1/new-detail/info', { product_id: m.ids.P1 });
    const body = productInfoSchema.parse(res.json());
    expect(body).toMatchObject({
      _id: m.ids.P1,
      product_id: 'P1',
      sku: 'SKU-P1',
      brand: 'Acme',
      breadcrumb: 'Tecnología > Audio',
      classification: ['Electro', 'Audio'],
      seller: { id: 10, name: 'Pivote', color: '#111111' },
      min_price: 900,
      previous_price: 1000,
      price_type: 'SALE',
      availability: 'Disponible',
      match: { status: 'confirmed', members: 5 }, // P1, A1, B1, C1 and F1 share EAN E1
    });
  });

  it('qmi by seller and seller product id, in the seller currency converted', async () => {
    const res = await post('/v2/detail/qmi', { productId: 'B1', sellerId: 30, currency: 'CLP' });
    const body = productInfoSchema.parse(res.json());
    expect(body.min_price).toBe(1000);
    expect(body.stock_out).toBe(true);
    expect(body.availability).toBe('No Disponible');
    const missing = await post('/v2/detail/qmi', { productId: 'ZZZ', sellerId: 30 });
    expect(missing.statusCode).toBe(200);
    expect(missing.json()._id).toBeUndefined();
    expect((await post('/v2/detail/qmi', { productId: 'F1', sellerId: 40 })).statusCode).toBe(403);
  });
});

describe('POST /v1/historical/complete/', () => {
  it('expands intervals to daily points with positions among the sellers', async () => {
    const res = await post('/v1/historical/complete/', {
      product_id: m.ids.P1,
      seller_id: 10,
      currency: 'CLP',
      from_date: tDay(10),
      to_date: tDay(0),
    });
    expect(res.statusCode).toBe(200);
    const body = historicalCompleteResponse.parse(res.json());
    expect(body.sellers.map((s) => [s.id, s.name, s.color, s.is_pivot])).toEqual([
      [10, 'Pivote', '#111111', true],
      [20, 'Rival A', '#222222', false],
      [30, 'Rival B', '#333333', false],
      [50, 'Rival C', '#555555', false],
    ]);
    const series = Object.fromEntries(body.sellers.map((s) => [s.id, s.prices]));
    for (const id of [10, 20, 30, 50]) expect(series[id]).toHaveLength(11);
    const at = (id: number, n: number) => series[id].find((p) => p.date === tDay(n));
    // T−10..T−6: P 1000, A 950, B 1000, C 1200 → A 1, P 2 (pivot first on the tie), B 3, C 4
    expect([at(10, 8)?.position, at(20, 8)?.position, at(30, 8)?.position, at(50, 8)?.position]).toEqual([
      2, 1, 3, 4,
    ]);
    expect(at(10, 8)).toEqual({
      date: tDay(8),
      price: 1000,
      price_type: 'NORMAL',
      stock_out: false,
      position: 2,
    });
    // T−5: the pivot's sale (900) starts that day
    expect(at(10, 5)).toEqual({
      date: tDay(5),
      price: 900,
      price_type: 'SALE',
      stock_out: false,
      position: 1,
    });
    // T−3..T: P 900, B 1000, A 1100, C 1200
    expect([at(10, 1)?.position, at(30, 1)?.position, at(20, 1)?.position, at(50, 1)?.position]).toEqual([
      1, 2, 3, 4,
    ]);
    expect(at(30, 2)).toEqual({
      date: tDay(2),
      price: 1000,
      price_type: 'NORMAL',
      stock_out: true,
      position: 2,
    });
    expect(at(30, 3)?.stock_out).toBe(false);
  });

  it("opening a competitor's listing: its series first, then the pivot's, which is the one marked", async () => {
    const res = await post('/v1/historical/complete/', {
      product_id: m.ids.A1,
      sellers: [30],
      from_date: tDay(10),
      to_date: tDay(0),
    });
    const body = historicalCompleteResponse.parse(res.json());
    expect(body.sellers.map((s) => [s.id, s.is_pivot])).toEqual([
      [20, false],
      [10, true],
      [30, false],
    ]);
    // T−8: A 950, P 1000, B 1000 → A 1, then the tie: the pivot before B
    const at = (id: number) => body.sellers.find((s) => s.id === id)?.prices.find((p) => p.date === tDay(8));
    expect([at(20)?.position, at(10)?.position, at(30)?.position]).toEqual([1, 2, 3]);
  });

  it('defaults to one month back to today and validates the range', async () => {
    const res = await post('/v1/historical/complete/', { product_id: m.ids.P1, sellers: [20] });
    const body = historicalCompleteResponse.parse(res.json());
    expect(body.to_date).toBe(tDay(0));
    expect(body.from_date).toBe(minusMonths(tDay(0), 1));
    expect(body.sellers.map((s) => s.id)).toEqual([10, 20]);
    // listing first seen T−10: 11 days of points in the month
    expect(body.sellers[0].prices).toHaveLength(11);

    const reversed = await post('/v1/historical/complete/', {
      product_id: m.ids.P1,
      from_date: tDay(1),
      to_date: tDay(5),
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().field).toBe('to_date');
    const invalid = await post('/v1/historical/complete/', { product_id: m.ids.P1, from_date: '2026-02-30' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().field).toBe('from_date');
    const tooLong = await post('/v1/historical/complete/', {
      product_id: m.ids.P1,
      from_date: '2020-01-01',
      to_date: '2023-01-01',
    });
    expect(tooLong.statusCode).toBe(400);
    // long strings are cut to 10 characters
    const cut = await post('/v1/historical/complete/', {
      product_id: m.ids.P1,
      from_date: `${tDay(2)}T00:00:00.000Z`,
      to_date: `${tDay(1)}T23:59:59.000Z`,
    });
    expect(cut.json().sellers[0].prices.map((p: { date: string }) => p.date)).toEqual([tDay(2), tDay(1)]);
  });

  it('answers no sellers for an unknown product, one outside the license or a wrong seller_id', async () => {
    for (const payload of [
      { product_id: 999_999 },
      { product_id: m.ids.F1 },
      { product_id: m.ids.P1, seller_id: 20 },
    ]) {
      const res = await post('/v1/historical/complete/', payload);
      expect(res.statusCode).toBe(200);
      expect(res.json().sellers).toEqual([]);
    }
  });
});

describe('POST /v2/detail/qmi/history', () => {
  const payload = { productId: 'A1', sellerId: 20, currency: 'CLP', fromDate: tDay(4), toDate: tDay(2) };

  it('answers the daily history of one listing', async () => {
    const res = await post('/v2/detail/qmi/history', payload);
    const body = qmiHistoryResponse.parse(res.json());
    expect(body._id).toBe(m.ids.A1);
    expect(body.prices.map((p) => [p.date, p.price, p.normal_price])).toEqual([
      [tDay(4), 950, 950],
      [tDay(3), 1100, 1100],
      [tDay(2), 1100, 1100],
    ]);
  });

  it('downloads the history as XLSX', async () => {
    const res = await post('/v2/detail/qmi/history', {
      ...payload,
      justPipeline: true,
      downloadablePipeline: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(`historico_Rival_A_A1_${tDay(4)}_${tDay(2)}.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const values = (n: number) => (ws.getRow(n).values as unknown[]).slice(1);
    // the price columns name their currency in the XLSX (the one workbook writer, issue 31 item 9)
    expect(values(1)).toEqual(QMI_HISTORY_COLUMNS.map((h, i) => (i >= 4 && i <= 7 ? `${h} (CLP)` : h)));
    expect(ws.rowCount).toBe(4);
    expect(values(2)).toEqual([
      new Date(`${tDay(4)}T00:00:00Z`),
      'Rival A',
      'A1',
      'Audífono X',
      950,
      950,
      undefined,
      undefined,
      'Normal',
      'Disponible',
      'CLP',
    ]);
    expect(values(3)[4]).toBe(1100);
  });

  it('downloads the history as CSV', async () => {
    const res = await post('/v2/detail/qmi/history', {
      ...payload,
      productId: 'B1',
      sellerId: 30,
      downloadablePipeline: true,
      format: 'csv',
    });
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(QMI_HISTORY_COLUMNS.join(';'));
    expect(lines.slice(1)).toEqual([
      `${tDay(4)};Rival B;B1;Audífono X;1000;1000;;;Normal;Disponible;CLP`,
      `${tDay(3)};Rival B;B1;Audífono X;1000;1000;;;Normal;Disponible;CLP`,
      `${tDay(2)};Rival B;B1;Audífono X;1000;1000;;;Normal;No Disponible;CLP`,
    ]);
  });

  it('is scoped and validated like the rest', async () => {
    expect(
      (await post('/v2/detail/qmi/history', { ...payload, sellerId: 40, productId: 'F1' })).statusCode,
    ).toBe(403);
    const unknown = await post('/v2/detail/qmi/history', { ...payload, productId: 'nope' });
    expect(unknown.json().prices).toEqual([]);
    expect(unknown.json()._id).toBeUndefined();
    const bad = await post('/v2/detail/qmi/history', { ...payload, fromDate: tDay(1) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('toDate');
  });
});

describe('OpenAPI', () => {
  it('documents the detail, list and dashboard routes', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/v1/new-detail/',
      '/v1/new-detail/info',
      '/v1/historical/complete/',
      '/v2/detail/qmi',
      '/v2/detail/qmi/history',
      '/v1/list-products/',
      '/v2/general/pre',
      '/v2/dashboard/pre',
      '/v2/quickFind',
    ]) {
      expect(paths).toContain(p);
    }
  });
});

describe('request dates', () => {
  it('a day that does not exist is a 400 naming the field, never a 500', async () => {
    for (const bad of ['2025-13-45', '2025-02-30', '0000-01-01', '2025-1-01']) {
      for (const field of ['from_date', 'to_date']) {
        const res = await post('/v1/historical/complete/', { product_id: m.ids.P1, [field]: bad });
        expect(res.statusCode, `${field}=${bad}`).toBe(400);
        expect(res.json().field).toBe(field);
      }
      for (const field of ['fromDate', 'toDate']) {
        const res = await post('/v2/detail/qmi/history', { sellerId: 10, productId: 'P1', [field]: bad });
        expect(res.statusCode, `${field}=${bad}`).toBe(400);
        expect(res.json().field).toBe(field);
      }
    }
    // a valid day with a time part is still accepted (cut to 10 characters)
    const ok = await post('/v1/historical/complete/', {
      product_id: m.ids.P1,
      to_date: `${tDay(0)}T12:00:00Z`,
    });
    expect(ok.statusCode).toBe(200);
  });
});
