import {
  promotionItemsResponse,
  promotionPricesResponse,
  promotionRangeResponse,
  promotionScatterResponse,
} from '@vigia/domain';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../lib/jwt.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { observe } from '../../test/fixtures.js';
import { type PromotionsFixture, seedPromotionsFixture } from '../../test/promotions-fixture.js';
import { checkPromotions } from './check.js';

// API tests over the hand-computed fixture (promotions-fixture.ts; docs/metrics.md "Promotions").
// Window: 2026-11-02 (Monday) .. 2026-11-11; week 1 = 02..08 (7 days), week 2 = 09..11 (3 days).

let ctx: TestContext;
let fx: PromotionsFixture;
let analyst: string;
let noModule: string;
let food: string;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedPromotionsFixture(db.pool);
    },
  });
  const tok = (sub: number, org: number) => signToken({ sub, org, ver: 0 }, ctx.config.JWT_SECRET, 3600);
  analyst = tok(fx.users.analyst, fx.users.orgAnalyst);
  noModule = tok(fx.users.noModule, fx.users.orgNoModule);
  food = tok(fx.users.food, fx.users.orgFood);
});
afterAll(() => ctx?.close());

const WINDOW = { from_date: '2026-11-02', to_date: '2026-11-11', currency: 'CLP' };

async function post(path: string, payload: object, token = analyst) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/v1/promotion/${path}`,
    headers: { authorization: `JWT ${token}`, 'x-module-authorization': 'promotions' },
    payload,
  });
  const json = String(res.headers['content-type']).startsWith('application/json');
  return { status: res.statusCode, body: json ? res.json() : null, raw: res };
}

type Item = { seller: { id: number }; classifications: Record<string, unknown>[] };
// biome-ignore lint/suspicious/noExplicitAny: the tests read the answers' shapes loosely
const of = (items: Item[], seller: number, cls: number): any =>
  items.find((i) => i.seller.id === seller)?.classifications.find((c) => c.id === cls);

describe('read model', () => {
  it('equals its recomputation from the price history', async () => {
    expect(await checkPromotions(ctx.db.pool)).toEqual([]);
  });
});

describe('POST /v1/promotion/level', () => {
  it('gives the weekly share of listing-days on promotion per seller and classification', async () => {
    const { status, body } = await post('level', {
      ...WINDOW,
      classificationsIds: [fx.classes.leches, fx.classes.alimentos],
    });
    expect(status).toBe(200);
    promotionItemsResponse.parse(body);
    // the pivot first, then the licensed competitors; never the unlicensed seller 10
    expect(body.items.map((i: Item) => i.seller.id)).toEqual([5, 7, 9]);
    expect(body.items[0].seller).toEqual({ id: 5, name: 'Pivote', color: '#6a1b9a' });
    const leches = of(body.items, 5, fx.classes.leches) as { weeks: Record<string, unknown>[] };
    // week 1: L1..L4 published 7 days = 28; on promotion L1 02 03 04 + L2 06 07 08 = 6 → 21.43 %
    // week 2 (09..11): 4 × 3 = 12; L2 09 10 + L3 09 10 11 = 5 → 41.67 %
    expect(leches.weeks).toEqual([
      {
        week: '2026-11-02',
        from: '2026-11-02',
        to: '2026-11-08',
        promoted: 6,
        published: 28,
        percentage: 21.43,
        spike: false,
      },
      {
        week: '2026-11-09',
        from: '2026-11-09',
        to: '2026-11-11',
        promoted: 5,
        published: 12,
        percentage: 41.67,
        spike: false,
      },
    ]);
    // Alimentos = Leches + Yogures (Y1 on sale every day): week 1 13 / 35, week 2 8 / 15
    const alim = of(body.items, 5, fx.classes.alimentos) as { weeks: { percentage: number }[] };
    expect(alim.weeks.map((w) => w.percentage)).toEqual([37.14, 53.33]);
    // Rival: week 1 R1 7 + R2 02..07 6 published = 13, promoted R1 7 + R2 05 = 8 → 61.54 %;
    // week 2: R1 3 + R2 10 11 = 5 published, R1 3 promoted → 60 %
    const rival = of(body.items, 7, fx.classes.leches) as { weeks: { percentage: number }[] };
    expect(rival.weeks.map((w) => w.percentage)).toEqual([61.54, 60]);
  });

  it('validates before reading: classifications required, field-named 400s', async () => {
    const none = await post('level', WINDOW);
    expect(none.status).toBe(400);
    expect(none.body.field).toBe('classificationsIds');
    const badDate = await post('level', {
      ...WINDOW,
      from_date: '2026-13-45',
      classificationsIds: [fx.classes.leches],
    });
    expect(badDate.status).toBe(400);
    expect(badDate.body.field).toBe('from_date');
    const order = await post('level', {
      ...WINDOW,
      from_date: '2026-11-20',
      classificationsIds: [fx.classes.leches],
    });
    expect(order.body.field).toBe('to_date');
    const badId = await post('level', { ...WINDOW, classificationsIds: ['x'] });
    expect(badId.status).toBe(400);
    expect(badId.body.field).toBe('classificationsIds.0'); // the error plugin names the item
    const unknown = await post('level', { ...WINDOW, classificationsIds: [999_999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('classificationsIds');
  });

  it('enforces the module and the license', async () => {
    expect(
      (await post('level', { ...WINDOW, classificationsIds: [fx.classes.leches] }, noModule)).status,
    ).toBe(403);
    const unauth = await ctx.app.inject({ method: 'POST', url: '/v1/promotion/level', payload: WINDOW });
    expect(unauth.statusCode).toBe(401);
    const seller = await post('level', {
      ...WINDOW,
      sellersIds: [10],
      classificationsIds: [fx.classes.leches],
    });
    expect(seller.status).toBe(403);
    expect(seller.body.code).toBe('seller_not_licensed');
    const cur = await post('level', { ...WINDOW, currency: 'MXN', classificationsIds: [fx.classes.leches] });
    expect(cur.body.code).toBe('currency_not_licensed');
    const pivot = await post('level', { ...WINDOW, pivot_id: 7, classificationsIds: [fx.classes.leches] });
    expect(pivot.body.code).toBe('pivot_not_licensed');
    const cls = await post('level', { ...WINDOW, classificationsIds: [fx.classes.limpieza] }, food);
    expect(cls.status).toBe(403);
    expect(cls.body.code).toBe('classification_not_licensed');
    expect((await post('level', { ...WINDOW, classificationsIds: [fx.classes.leches] }, food)).status).toBe(
      200,
    );
  });

  it('restricts to the sellers asked', async () => {
    const { body } = await post('level', {
      ...WINDOW,
      sellersIds: [9],
      classificationsIds: [fx.classes.leches],
    });
    expect(body.items.map((i: Item) => i.seller.id)).toEqual([5, 9]);
  });
});

describe('POST /v1/promotion/duration', () => {
  it('shares promotions by length in days, with average prices, one classification per call', async () => {
    const { status, body } = await post('duration', { ...WINDOW, classification: fx.classes.leches });
    expect(status).toBe(200);
    promotionItemsResponse.parse(body);
    const pivot = of(body.items, 5, fx.classes.leches) as { total: number; days: unknown[] };
    // L1 02–04: 3 days; L2 06–10: 5 days; L3 09–11, running at the pivot's latest run: 3 days
    expect(pivot.total).toBe(3);
    expect(pivot.days).toEqual([
      // L1 and L3: normal 1000 / 1000, promotion 800 / 700, discounts 20 % and 30 %
      {
        day: 3,
        count: 2,
        running: 1,
        percentage: 66.67,
        prices: { normal: 1000, promotion: 750, discount: 25 },
      },
      {
        day: 5,
        count: 1,
        running: 0,
        percentage: 33.33,
        prices: { normal: 1000, promotion: 900, discount: 10 },
      },
    ]);
    // R2's single day and R1's ten; Perú's P1 converted at 250 CLP per PEN
    expect(
      (of(body.items, 7, fx.classes.leches) as { days: { day: number; percentage: number }[] }).days.map(
        (d) => [d.day, d.percentage],
      ),
    ).toEqual([
      [1, 50],
      [10, 50],
    ]);
    expect((of(body.items, 9, fx.classes.leches) as { days: unknown[] }).days).toEqual([
      {
        day: 10,
        count: 1,
        running: 1,
        percentage: 100,
        prices: { normal: 1000, promotion: 750, discount: 25 },
      },
    ]);
    // a window that only touches a promotion still counts its whole length
    const late = await post('duration', {
      ...WINDOW,
      from_date: '2026-11-10',
      classification: fx.classes.leches,
    });
    expect(
      (of(late.body.items, 5, fx.classes.leches) as { days: { day: number; count: number }[] }).days.map(
        (d) => [d.day, d.count],
      ),
    ).toEqual([
      [3, 1],
      [5, 1],
    ]);
    // a window ending before the running L3 began (11-09), asked after the answers above kept the
    // running promotions: L1 (3 days) and L2 (5 days) only, nothing running
    const early = await post('duration', {
      ...WINDOW,
      to_date: '2026-11-08',
      classification: fx.classes.leches,
    });
    expect((of(early.body.items, 5, fx.classes.leches) as { days: unknown[] }).days).toEqual([
      {
        day: 3,
        count: 1,
        running: 0,
        percentage: 50,
        prices: { normal: 1000, promotion: 800, discount: 20 },
      },
      {
        day: 5,
        count: 1,
        running: 0,
        percentage: 50,
        prices: { normal: 1000, promotion: 900, discount: 10 },
      },
    ]);
  });

  it('needs its classification', async () => {
    const r = await post('duration', WINDOW);
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('classification');
  });
});

describe('POST /v1/promotion/type', () => {
  it('gives exclusive, quantity and sale shares of listing-days and their average prices', async () => {
    const { body } = await post('type', { ...WINDOW, classificationsIds: [fx.classes.leches] });
    promotionItemsResponse.parse(body);
    const c = of(body.items, 5, fx.classes.leches) as Record<string, unknown>;
    // 4 listings × 10 days = 40 listing-days; sale L1 3, exclusive L2 5, by quantity L3 3
    expect(c.published).toBe(40);
    expect(c.sale).toEqual({
      percentage: 7.5,
      promoted: 3,
      count: 1,
      prices: { normal: 1000, promotion: 800, discount: 20 },
    });
    expect(c.exclusive).toEqual({
      percentage: 12.5,
      promoted: 5,
      count: 1,
      prices: { normal: 1000, promotion: 900, discount: 10 },
    });
    expect(c.quantity).toEqual({
      percentage: 7.5,
      promoted: 3,
      count: 1,
      prices: { normal: 1000, promotion: 700, discount: 30 },
    });
  });

  it('converts prices to the currency asked', async () => {
    const { body } = await post('type', {
      ...WINDOW,
      currency: 'PEN',
      classificationsIds: [fx.classes.leches],
    });
    expect((of(body.items, 5, fx.classes.leches) as { sale: { prices: unknown } }).sale.prices).toEqual({
      normal: 4,
      promotion: 3.2,
      discount: 20,
    });
  });
});

describe('POST /v1/promotion/range', () => {
  it('splits the pooled promotion prices in four ranges and stacks each seller over them', async () => {
    const { status, body } = await post('range', { ...WINDOW, classification: fx.classes.leches, range: 4 });
    expect(status).toBe(200);
    promotionRangeResponse.parse(body);
    const r = body.items[0];
    expect(r.classification).toEqual({ id: fx.classes.leches, name: 'Leches' });
    // prices 550 700 750 800 900 990: quartiles at positions 0, 1.25, 2.5, 3.75, 5
    expect(r.range_points).toEqual([550, 712.5, 775, 875, 990]);
    const by = (id: number) => r.sellers.find((s: { id: number }) => s.id === id);
    // pivot: L3 700 → 1st, L1 800 → 3rd, L2 900 → 4th
    expect(by(5).prices).toEqual([
      { price: 33.33, count: 1 },
      { price: 0, count: 0 },
      { price: 33.33, count: 1 },
      { price: 33.33, count: 1 },
    ]);
    expect(by(7).prices.map((p: { count: number }) => p.count)).toEqual([1, 0, 0, 1]); // R2 550, R1 990
    expect(by(9).prices.map((p: { price: number }) => p.price)).toEqual([0, 100, 0, 0]); // P1 750
  });
});

describe('POST /v1/promotion/scatter-plot', () => {
  it('counts products per promotion price bucket and seller', async () => {
    const { body } = await post('scatter-plot', {
      ...WINDOW,
      classificationsIds: [fx.classes.leches],
      simple: false,
    });
    promotionScatterResponse.parse(body);
    // p95 of 550 … 990 = 967.5; 967.5 / 20 = 48.4 → bucket 50
    expect(body.bucket).toBe(50);
    const pivot = body.items.find((i: Item) => i.seller.id === 5);
    expect(pivot.prices.map((p: { price: number; count: number }) => [p.price, p.count])).toEqual([
      [700, 1],
      [800, 1],
      [900, 1],
    ]);
    expect(pivot.prices[0].data).toEqual([{ id: expect.any(Number), name: 'Producto L3' }]);
    const simple = await post('scatter-plot', {
      ...WINDOW,
      classificationsIds: [fx.classes.leches],
      simple: true,
    });
    expect(simple.body.items[0].prices[0].data).toBeUndefined();
  });
});

describe('POST /v1/promotion/prices (drill-down)', () => {
  it('level: the promotions of the week; their days add up to the numerator', async () => {
    const { body } = await post('prices', {
      ...WINDOW,
      classificationsIds: [fx.classes.leches],
      promotion: 'level',
      seller_id: 5,
      classification: fx.classes.leches,
      week: '2026-11-02',
    });
    promotionPricesResponse.parse(body);
    expect(body.total).toBe(2);
    expect(body.total_days).toBe(6); // = week 1's numerator
    expect(
      body.items.map((p: { name: string; days: number; first_day: string; last_day: string }) => [
        p.name,
        p.days,
        p.first_day,
        p.last_day,
      ]),
    ).toEqual([
      ['Producto L1', 3, '2026-11-02', '2026-11-04'],
      ['Producto L2', 3, '2026-11-06', '2026-11-10'],
    ]);
    expect(body.items[0]).toMatchObject({
      normal_price: 1000,
      promotion_price: 800,
      discount: 20,
      price_type: 'SALE',
      running: false,
      seller: { id: 5, name: 'Pivote' },
    });
  });

  it('type and duration: totals equal the numerators', async () => {
    const base = { ...WINDOW, seller_id: 5, classification: fx.classes.alimentos };
    const type = await post('prices', { ...base, promotion: 'type', kind: 'sale' });
    // sale over Alimentos: L1 3 + Y1 10 listing-days
    expect([type.body.total, type.body.total_days]).toEqual([2, 13]);
    const t = await post('type', { ...WINDOW, classificationsIds: [fx.classes.alimentos] });
    expect((of(t.body.items, 5, fx.classes.alimentos) as { sale: { promoted: number } }).sale.promoted).toBe(
      13,
    );
    const duration = await post('prices', {
      ...base,
      classification: fx.classes.leches,
      promotion: 'duration',
      day: 3,
    });
    expect(duration.body.total).toBe(2);
    expect(duration.body.items.map((p: { running: boolean }) => p.running).sort()).toEqual([false, true]);
    const rival = await post('prices', {
      ...base,
      seller_id: 7,
      classification: fx.classes.leches,
      promotion: 'duration',
      day: 10,
    });
    expect(rival.body.items.map((p: { name: string }) => p.name)).toEqual(['Producto R1']);
  });

  it('validates what it drills into', async () => {
    const r = await post('prices', {
      ...WINDOW,
      promotion: 'level',
      seller_id: 5,
      classification: fx.classes.leches,
    });
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('week');
    const other = await post('prices', {
      ...WINDOW,
      promotion: 'level',
      seller_id: 10,
      classification: fx.classes.leches,
      week: '2026-11-02',
    });
    expect(other.status).toBe(403);
    const bad = await post('prices', {
      ...WINDOW,
      promotion: 'nope',
      seller_id: 5,
      classification: fx.classes.leches,
    });
    expect(bad.body.field).toBe('promotion');
  });
});

describe('POST /v1/promotion/download', () => {
  it('downloads a table as XLSX', async () => {
    const { status, raw } = await post('download', {
      ...WINDOW,
      promotion: 'level',
      classificationsIds: [fx.classes.leches],
    });
    expect(status).toBe(200);
    expect(raw.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(raw.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).getCell(1).value).toBe('eCommerce');
    expect(ws.rowCount).toBe(1 + 3 * 2); // 3 sellers × 2 weeks
    // weeks as date cells (issue 31 item 9), the file named for the screen, its classification and window
    expect(raw.headers['content-disposition']).toContain(
      `filename="promociones_por_dia_Leches_${WINDOW.from_date}_${WINDOW.to_date}.xlsx"`,
    );
    expect(ws.getRow(2).values).toEqual([
      undefined,
      'Pivote',
      'Leches',
      new Date('2026-11-02T00:00:00Z'),
      new Date('2026-11-02T00:00:00Z'),
      new Date('2026-11-08T00:00:00Z'),
      21.43,
      6,
      28,
      '',
    ]);
    const drill = await post('download', {
      ...WINDOW,
      promotion: 'prices',
      drilldown: 'level',
      seller_id: 5,
      classification: fx.classes.leches,
      week: '2026-11-02',
    });
    expect(drill.status).toBe(200);
    expect(drill.raw.headers['content-disposition']).toContain(
      'filename="promociones_productos_Pivote_Leches_2026-11-02_2026-11-08.xlsx"',
    );
    const dwb = new ExcelJS.Workbook();
    await dwb.xlsx.load(drill.raw.rawPayload as unknown as ArrayBuffer);
    const dws = dwb.worksheets[0];
    const head = (dws.getRow(1).values as unknown[]).slice(1);
    // every price column names its currency; the days are date cells; CLP prices without decimals
    expect(head).toContain('Precio normal (CLP)');
    expect(head).toContain('Precio promoción (CLP)');
    const first = dws.getRow(2);
    expect(first.getCell(head.indexOf('Primer día') + 1).value).toBeInstanceOf(Date);
    const promo = first.getCell(head.indexOf('Precio promoción (CLP)') + 1).value;
    expect(Number.isInteger(promo)).toBe(true);
    const range = await post('download', {
      ...WINDOW,
      promotion: 'range',
      classificationsIds: [fx.classes.leches],
    });
    expect(range.status).toBe(200);
    const none = await post('download', { ...WINDOW, promotion: 'duration' });
    expect(none.body.field).toBe('classificationsIds');
  });
});

describe('memoised answers', () => {
  it('are recomputed once new data is ingested', async () => {
    const body = {
      ...WINDOW,
      to_date: '2026-11-12',
      sellersIds: [7],
      classificationsIds: [fx.classes.leches],
    };
    const week2 = async () =>
      (
        of((await post('level', body)).body.items, 7, fx.classes.leches) as {
          weeks: { published: number; promoted: number }[];
        }
      ).weeks[1];
    // week 2 up to the 11th: R1 3 days on sale, R2 10 11 → 5 published, 3 promoted
    expect(await week2()).toMatchObject({ published: 5, promoted: 3 });
    expect(await week2()).toMatchObject({ published: 5, promoted: 3 });
    await observe(ctx.db.pool, 7, '2026-11-12T12:00:00Z', [
      {
        productId: 'R1',
        name: 'Producto R1',
        brand: 'Marca',
        classificationId: fx.classes.leches,
        normalPrice: 1100,
      },
    ]);
    // the 12th: R1 at its normal price, R2 unpublished → +1 published, +0 promoted
    expect(await week2()).toMatchObject({ published: 6, promoted: 3 });
  });
});
