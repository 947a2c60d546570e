import { readFileSync } from 'node:fs';
import { addDays, dashboardPreResponse, isoDateInZone, round2, share } from '@vigia/domain';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from './lib/jwt.js';
import type { Observation } from './modules/ingest/index.js';
import { checkPromotions } from './modules/promotions/check.js';
import { createTestContext, type TestContext } from './test/context.js';
import {
  insertClassification,
  insertFxRate,
  insertOrgWithLicense,
  insertSeller,
  insertUser,
  observe,
  seedReferenceData,
} from './test/fixtures.js';
import { downloadReport } from './test/report-download.js';

// One figure, every route that shows it (issue 25): the discount % of a promotion. Hand-built market,
// runs at 16:00Z (midday in Santiago) of days T−3 … T−1 (T = today in Santiago):
//
//   listing  seller      EAN   T−3    T−2             T−1
//   PA       5 Pivote    A     1000   1000            1000
//   PB       5 Pivote    B     1000   1000            1000
//   RA       7 Rival     A     1000   SALE at 0       1000        → a promotion priced at 0, 1 day, ended
//   RB       7 Rival     B     1000   SALE 800        SALE 800    → 20 %, 2 days, running
//
// The one definition (domain discountPercent / SQL vigia_discount_pct) gives a discount only when
// 0 < promo < normal: RA has none, RB 20 %. Every screen, report and notification must say so — before,
// Promociones counted RA as a 100 % discount (average 60 %) and the notifications as 0 % (average 10 %).

const T = (n: number) => addDays(isoDateInZone(new Date(), 'America/Santiago'), -n);

let ctx: TestContext;
let token: string;
let leaf: number;
let userId: number;

/** Listing `id` (PA, RA: EAN …11; PB, RB: EAN …22). */
const item = (id: string, p: Partial<Observation> = {}): Observation => ({
  productId: id,
  ean: id.endsWith('A') ? '7800000000011' : '7800000000022',
  name: `Producto ${id}`,
  brand: 'Marca',
  classificationId: leaf,
  normalPrice: 1000,
  ...p,
});

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      const pool = db.pool;
      await seedReferenceData(pool);
      await insertSeller(pool, { id: 5, name: 'Pivote' });
      await insertSeller(pool, { id: 7, name: 'Rival' });
      await insertSeller(pool, { id: 9, name: 'Rival Perú', country: 'PE', currency: 'PEN' });
      await insertFxRate(pool, 'PEN', T(10), 250);
      leaf = await insertClassification(pool, 'Leches');
      const { orgId } = await insertOrgWithLicense(pool, {
        sellers: [7, 9],
        pivots: [5],
        currencies: ['CLP', 'PEN'],
        modules: ['promotions', 'dpm', 'reports', 'ecommerce_navigation'],
      });
      userId = await insertUser(pool, orgId, 'figuras@example.com');
      await pool.query(
        `insert into notification_subscriptions (user_id, namespace, enabled, channel, min_size)
         values ($1, 'promotions', true, 'app', 0)`,
        [userId],
      );
      const at = (n: number) => `${T(n)}T16:00:00Z`;
      for (const n of [3, 2, 1]) {
        await observe(pool, 5, at(n), [item('PA'), item('PB')]);
        await observe(pool, 7, at(n), [
          item('RA', n === 2 ? { salePrice: 0 } : {}),
          item('RB', n < 3 ? { salePrice: 800 } : {}),
        ]);
        await observe(pool, 9, at(n), [item('PEA', { normalPrice: n > 1 ? 5 : 3 })]);
      }
    },
  });
  const { rows } = await ctx.db.pool.query<{ org_id: number }>('select org_id from users where id = $1', [
    userId,
  ]);
  token = signToken({ sub: userId, org: rows[0].org_id, ver: 0 }, ctx.config.JWT_SECRET, 3600);
}, 120_000);
afterAll(() => ctx?.close());

const auth = () => ({ authorization: `JWT ${token}` });
async function promo(path: string, payload: object) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/v1/promotion/${path}`,
    headers: { ...auth(), 'x-module-authorization': 'promotions' },
    payload: { from_date: T(3), to_date: T(1), currency: 'CLP', ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}
async function xlsx(buf: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const out: unknown[][] = [];
  for (const ws of wb.worksheets)
    ws.eachRow({ includeEmpty: false }, (row) => {
      out.push((row.values as unknown[]).slice(1));
    });
  return out;
}
/** The drill-down of Rival's sale figure (Promociones por tipo). */
const saleDrillDown = async () =>
  (
    await promo('prices', {
      classificationsIds: [leaf],
      promotion: 'type',
      kind: 'sale',
      seller_id: 7,
      classification: leaf,
    })
  ).json();
// biome-ignore lint/suspicious/noExplicitAny: the answers are read loosely here, parsed by their own tests
type Any = any;
const rival = (body: Any) => body.items.find((i: Any) => i.seller.id === 7).classifications[0];

describe('discount %: a promotion priced at 0 has none, on every route that shows it', () => {
  it('Promociones por tipo: the sale promotions average 20 % (RB only)', async () => {
    const { body } = { body: (await promo('type', { classificationsIds: [leaf] })).json() };
    expect(rival(body).sale.prices.discount).toBe(20);
  });

  it('Promociones por duración: 1 day (RA at 0) has no discount, 2 days (RB) 20 %', async () => {
    const body = (await promo('duration', { classification: leaf })).json();
    const days = rival(body).days.map((d: Any) => [d.day, d.count, d.prices.discount]);
    expect(days).toEqual([
      [1, 1, null],
      [2, 1, 20],
    ]);
  });

  it('the drill-down lists RA without a discount and RB with 20 %', async () => {
    const body = await saleDrillDown();
    const got = body.items.map((p: Any) => [p.name, p.promotion_price, p.discount]).sort();
    expect(got).toEqual([
      ['Producto RA', 0, null],
      ['Producto RB', 800, 20],
    ]);
  });

  it('the Promociones downloads carry the same figures', async () => {
    const res = await promo('download', {
      promotion: 'prices',
      drilldown: 'type',
      kind: 'sale',
      seller_id: 7,
      classification: leaf,
      classificationsIds: [leaf],
    });
    const rows = await xlsx(res.rawPayload);
    const ra = rows.find((r) => r.includes('Producto RA'));
    const rb = rows.find((r) => r.includes('Producto RB'));
    expect(ra).toBeDefined();
    expect(rb).toContain(20);
    expect(ra).not.toContain(100);
    const dur = await xlsx(
      (await promo('download', { promotion: 'duration', classificationsIds: [leaf] })).rawPayload,
    );
    expect(dur.flat()).not.toContain(100);
  });

  it('the dashboard: average and mode discount 20 %, monetary discount 200', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v2/dashboard/pre',
      headers: auth(),
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = dashboardPreResponse.parse(res.json());
    const card = (k: string) => body.groups.flatMap((g) => g.cards).find((c) => c.key === k)?.value;
    expect([card('average_discount'), card('mode_discount'), card('monetary_discount')]).toEqual([
      20, 20, 200,
    ]);
  });

  it('the promotions report: RA without a discount, RB 20 %', async () => {
    const rows = await downloadReport(ctx.app, auth(), {
      report_type: 'promotions',
      format: 'xlsx',
      from_date: T(3),
      to_date: T(1),
    });
    const header = rows[0];
    const col = header.indexOf('Descuento (%)');
    expect(col).toBeGreaterThan(0);
    const of = (sku: string) => rows.find((r) => r[1] === sku);
    expect(of('RA')?.[col] ?? null).toBeNull();
    expect(of('RB')?.[col]).toBe(20);
  });

  it('the notifications: a start averaging 20 % (RA has none), an end without a discount', async () => {
    const deadline = Date.now() + 30_000;
    let results: { kind: string; body: string }[] = [];
    for (;;) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/v1/notifications/?page_size=100',
        headers: auth(),
      });
      expect(res.statusCode).toBe(200);
      results = res.json().results;
      if (results.length >= 3 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const start = results.find((n) => n.kind === 'promotion_start');
    const end = results.find((n) => n.kind === 'promotion_end');
    expect(start?.body).toBe('Rival puso en promoción 2 productos tuyos con un descuento promedio de 20 %.');
    expect(end?.body).toBe('Rival volvió al precio normal en Producto PA.');
  });

  it("a Peruvian seller's prices reach a CLP user in CLP, at the rate of the event's day, named", async () => {
    // PEA 5 PEN → 3 PEN at T−1 (250 CLP per PEN: 1250 → 750 CLP): 3rd (after PA and RA at 1000 CLP) → 1st
    const deadline = Date.now() + 30_000;
    let gained: { kind: string; body: string } | undefined;
    while (!gained && Date.now() < deadline) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/v1/notifications/?page_size=100',
        headers: auth(),
      });
      gained = (res.json().results as { kind: string; body: string }[]).find(
        (n) => n.kind === 'cheapest_gained',
      );
      if (!gained) await new Promise((r) => setTimeout(r, 100));
    }
    expect(gained?.body).toBe(
      'Rival Perú bajó 40 % el precio de Producto PA (de $1.250 a $750 CLP) y ahora es el más barato del mercado (antes 3.º).',
    );
  });
});

describe('average promotion price: a promotion priced at 0 has none, on every route that shows one', () => {
  // RA (SALE at 0, 1 day) and RB (SALE 800, 2 days) of Rival: the averages count RB only — 800, not
  // (0 + 800) / 2 = 400; RA's duration (1 day) has no promotion price at all. Normal prices: 1000 both.
  it('Promociones por tipo: the sale promotions average 800 (normal 1000)', async () => {
    const body = (await promo('type', { classificationsIds: [leaf] })).json();
    expect(rival(body).sale.count).toBe(2);
    expect(rival(body).sale.prices).toEqual({ normal: 1000, promotion: 800, discount: 20 });
  });

  it('Promociones por duración: 1 day (RA at 0) has no promotion price, 2 days 800', async () => {
    const body = (await promo('duration', { classification: leaf })).json();
    const days = rival(body).days.map((d: Any) => [d.day, d.prices.normal, d.prices.promotion]);
    expect(days).toEqual([
      [1, 1000, null],
      [2, 1000, 800],
    ]);
  });

  it('Rango de precios: only RB (800) is placed in a range', async () => {
    const body = (await promo('range', { classification: leaf, range: 4 })).json();
    const chart = body.items[0];
    expect(chart.range_points).toEqual([800, 800, 800, 800, 800]);
    const seller = chart.sellers.find((s: Any) => s.id === 7);
    expect(seller.total).toBe(1);
    expect(seller.prices.reduce((n: number, p: Any) => n + p.count, 0)).toBe(1);
  });

  it('Dispersión: one point of one promotion, in the bucket of 800', async () => {
    const body = (await promo('scatter-plot', { classificationsIds: [leaf], simple: true })).json();
    const points = body.items.find((i: Any) => i.seller.id === 7).prices;
    expect(points.map((p: Any) => p.count)).toEqual([1]);
    expect(points[0].price).toBeLessThanOrEqual(800);
    expect(points[0].price + body.bucket).toBeGreaterThan(800);
  });

  it('the type and duration downloads carry 800 and no 400', async () => {
    const type = await xlsx(
      (await promo('download', { promotion: 'type', classificationsIds: [leaf] })).rawPayload,
    );
    const sale = type.find((r) => r[0] === 'Rival' && r.length >= 10 && r[6] === 2);
    // the amounts name their currency
    expect(type[0]).toContain('Precio promoción promedio (CLP)');
    const cells = (r: unknown[] | undefined, from: number) => [0, 1, 2].map((i) => r?.[from + i] ?? null);
    expect(cells(sale, 7)).toEqual([1000, 800, 20]);
    const dur = await xlsx(
      (await promo('download', { promotion: 'duration', classificationsIds: [leaf] })).rawPayload,
    );
    const one = dur.find((r) => r[0] === 'Rival' && r[2] === 1);
    const two = dur.find((r) => r[0] === 'Rival' && r[2] === 2);
    expect(cells(one, 6)).toEqual([1000, null, null]);
    expect(cells(two, 6)).toEqual([1000, 800, 20]);
    expect([...type.flat(), ...dur.flat()]).not.toContain(400);
  });
});

describe('share of listing-days on promotion: the same figure on every route that returns it', () => {
  // Rival publishes RA and RB on T−3, T−2, T−1: 6 listing-days; on a sale: RA on T−2 (priced at 0: still
  // on a sale, without a discount), RB on T−2 and T−1 → 3 → 50 %. 2 promotions; durations 1 and 2 days:
  // each 50 % of Rival's 2 promotions.
  it('Promociones por tipo: 50 % (3 of 6), in the answer and its download', async () => {
    const c = rival((await promo('type', { classificationsIds: [leaf] })).json());
    expect([c.sale.percentage, c.sale.promoted, c.published]).toEqual([50, 3, 6]);
    const rows = await xlsx(
      (await promo('download', { promotion: 'type', classificationsIds: [leaf] })).rawPayload,
    );
    const row = rows.find((r) => r[0] === 'Rival' && r[2] === 'Oferta');
    expect(row?.slice(3, 6)).toEqual([50, 3, 6]);
  });

  it('Promociones por día: the weeks add up to 3 of 6, each week its own share', async () => {
    const weeks = rival((await promo('level', { classificationsIds: [leaf] })).json()).weeks as Any[];
    expect(weeks.reduce((n, w) => n + w.promoted, 0)).toBe(3);
    expect(weeks.reduce((n, w) => n + w.published, 0)).toBe(6);
    // each week: 100 × promoted / published, to 2 decimals (hand-checked above for the whole window)
    for (const w of weeks) expect(w.percentage).toBe(round2(share(w.promoted, w.published)));
  });

  it('the drill-down of the sale figure counts the same 3 listing-days in 2 promotions', async () => {
    const body = await saleDrillDown();
    expect([body.total, body.total_days, body.products]).toEqual([2, 3, 2]);
  });

  it('Promociones por duración: 1 day 50 %, 2 days 50 % of 2 promotions', async () => {
    const c = rival((await promo('duration', { classification: leaf })).json());
    expect(c.total).toBe(2);
    expect(c.days.map((d: Any) => [d.day, d.percentage, d.count])).toEqual([
      [1, 50, 1],
      [2, 50, 1],
    ]);
  });
});

describe('price index and position: the same figure on every route that returns it', () => {
  // Today's prices (CLP; PEN at 250): PA 1000 against RA 1000 and PEA 3 PEN = 750 → index
  // 100 × 1000 / 750 = 133.33, difference 250 (33.33 %), position 1 + 1 strictly cheaper = 2 (RA ties
  // and does not count), 3 ranked. PB 1000 against RB's sale 800 → 125, position 2, 2 ranked.
  // Average index of the two: (133.333… + 125) / 2 = 129.17.
  const want = { PA: [133.33, 33.33, 2, 3], PB: [125, 25, 2, 2] };
  const dpmHeaders = () => ({ ...auth(), 'x-module-authorization': 'dpm' });
  const figures = (items: Any[]) =>
    Object.fromEntries(
      items.map((i: Any) => [i.product_id, [i.index, i.difference_pct, i.position, i.ranked]]).sort(),
    );

  it('DPM items (GET /v2/navigation/dpm/items)', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/v2/navigation/dpm/items?currency=CLP',
      headers: dpmHeaders(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(figures(res.json().items)).toEqual(want);
  });

  it('Precios por eCommerce (POST /v2/navigation/)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v2/navigation/',
      headers: { ...auth(), 'x-module-authorization': 'ecommerce_navigation' },
      payload: { currency: 'CLP' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(figures(res.json().items)).toEqual(want);
  });

  it('DPM KPIs: the average index 129.17 (GET /v2/navigation/dpm/kpi)', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/v2/navigation/dpm/kpi?currency=CLP',
      headers: dpmHeaders(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().split.average_index).toBe(129.17);
  });

  it("the product detail of PA: 2nd (RA's tie does not put it behind), PEA 25 % below it", async () => {
    const { rows } = await ctx.db.pool.query<{ id: number }>(
      `select id from products where seller_id = 5 and product_id = 'PA'`,
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/new-detail/',
      headers: auth(),
      payload: { product_id: rows[0].id, currency: 'CLP' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.pivotQmItemPosition).toBe(2);
    const pea = body.qm_items.find((i: Any) => i.seller_id === 9);
    expect([pea.min_price, pea.difference, pea.difference_percent]).toEqual([750, -250, -25]);
  });

  it('the match report: Índice de precios, Diferencia (%), Posición, eCommerce comparados', async () => {
    const rows = await downloadReport(ctx.app, auth(), {
      report_type: 'match',
      format: 'xlsx',
      from_date: T(1),
      to_date: T(0),
      currency: 'CLP',
    });
    const h = rows[0] as string[];
    const col = (name: string) => h.indexOf(name);
    const got = Object.fromEntries(
      rows
        .slice(1)
        .map((r) => [
          r[col('ID eCommerce')],
          [
            r[col('Índice de precios')],
            r[col('Diferencia (%)')],
            r[col('Posición')],
            r[col('eCommerce comparados')],
          ],
        ])
        .sort(),
    );
    expect(got).toEqual(want);
  });
});

describe('migration 310', () => {
  it('takes out of the stored sums what the old roll-up added for a promotion priced at 0', async () => {
    const pool = ctx.db.pool;
    expect(await checkPromotions(pool)).toEqual([]);
    // the old roll-up summed RA's promotion price 0 and counted it: put that back …
    await pool.query(
      `update promo_type_cum set s_promo_n = s_promo_n + 1, e_promo_n = e_promo_n + 1
        where seller_id = 7 and price_type = 'SALE' and day >= $1::date`,
      [T(2)],
    );
    await pool.query(
      `update promo_duration_cum set e_promo_n = e_promo_n + 1 where seller_id = 7 and duration = 1 and day >= $1::date`,
      [T(2)],
    );
    expect((await checkPromotions(pool)).length).toBeGreaterThan(0);
    // … and the migration takes it out again
    await pool.query(
      readFileSync(new URL('../migrations/310_promotion_price_needs_positive.sql', import.meta.url), 'utf8'),
    );
    expect(await checkPromotions(pool)).toEqual([]);
  });
});

describe('migration 230', () => {
  it('takes out of the stored sums exactly what the old rule added for a promotion priced at 0', async () => {
    const pool = ctx.db.pool;
    expect(await checkPromotions(pool)).toEqual([]);
    // the old roll-up counted RA (normal 1000, promotion 0) as a 100 % discount: put that back …
    await pool.query(
      `update promo_type_cum c set s_disc = s_disc + 100, s_disc_n = s_disc_n + 1
                       where seller_id = 7 and price_type = 'SALE' and day >= $1::date`,
      [T(2)],
    );
    await pool.query(
      `update promo_type_cum c set e_disc = e_disc + 100, e_disc_n = e_disc_n + 1
                       where seller_id = 7 and price_type = 'SALE' and day >= $1::date`,
      [T(2)],
    );
    await pool.query(
      `update promo_duration_cum c set e_disc = e_disc + 100, e_disc_n = e_disc_n + 1
                       where seller_id = 7 and duration = 1 and day >= $1::date`,
      [T(2)],
    );
    expect((await checkPromotions(pool)).length).toBeGreaterThan(0);
    // … and the migration takes it out again
    await pool.query(
      readFileSync(new URL('../migrations/230_discount_needs_positive_promo.sql', import.meta.url), 'utf8'),
    );
    expect(await checkPromotions(pool)).toEqual([]);
  });
});
