import { addDays, brandComparatorResponse, DEFAULT_TIMEZONE, isoDateInZone } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import { type PricingFixture, seedPricingFixture, tokenOf } from '../../test/pricing-fixture.js';
import { trendDays } from './service.js';

// The brand price comparator over the pricing fixture (pricing-fixture.ts, docs/metrics.md "Worked
// example"): Colun (the analyst's own brand) = P1, P2, P6 at the pivot.

let ctx: TestContext;
let fx: PricingFixture;
let analyst: string;
let reportsOnly: string;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedPricingFixture(db.pool);
    },
  });
  analyst = tokenOf(ctx.config.JWT_SECRET, fx.users.analyst, fx.users.orgAnalyst);
  reportsOnly = tokenOf(ctx.config.JWT_SECRET, fx.users.reportsOnly, fx.users.orgReportsOnly);
});
afterAll(() => ctx?.close());

async function get(url: string, token = analyst) {
  const res = await ctx.app.inject({ method: 'GET', url, headers: { authorization: `JWT ${token}` } });
  return { status: res.statusCode, body: res.json() };
}
const URL = '/v2/navigation/dpm/brand-comparator';

describe('GET /v2/navigation/dpm/brand-comparator', () => {
  it('shows the own brands by default, each brand’s index per competitor (worked by hand)', async () => {
    const { status, body } = await get(URL);
    expect(status).toBe(200);
    expect(brandComparatorResponse.parse(body)).toBeTruthy();
    expect(body.competitors.map((c: { id: number }) => c.id)).toEqual([7, 8, 9]);
    expect(body.items).toHaveLength(1);
    const colun = body.items[0];
    // against the market: P1 1000 / 950 (B's sale) = 105.263; P2 850 / 900 (A) = 94.444; P6 none
    expect(colun).toMatchObject({ name: 'Colun', own: true, products: 3, average_index: 99.85 });
    const bySeller = Object.fromEntries(colun.sellers.map((s: { seller_id: number }) => [s.seller_id, s]));
    // A: P1 1000/1000 = 100, P2 850/900 = 94.444 → 97.22; B: P1 1000/950 (P2's b2 out of stock) → 105.26;
    // Perú: P1 1000 / (4 PEN × 260) = 96.15
    expect(bySeller[7]).toMatchObject({ products: 2, average_index: 97.22 });
    expect(bySeller[8]).toMatchObject({ products: 2, average_index: 105.26 });
    expect(bySeller[9]).toMatchObject({ products: 1, average_index: 96.15 });
    // trend: the pivot was first observed today, so only the last day has an index, equal to today's
    expect(body.trend_days.at(-1)).toBe(body.to_date);
    expect(bySeller[7].trend.at(-1)).toBe(97.22);
    expect(bySeller[8].trend.at(-1)).toBe(105.26);
    expect(bySeller[7].trend[0]).toBeNull();
    expect(bySeller[7].change).toBeNull();
  });

  it('agrees with DPM by brand and DPM by e-commerce for the same selection', async () => {
    const filters = `brands=${fx.brands.colun},${fx.brands.omo}`;
    const cmp = (await get(`${URL}?${filters}`)).body;
    const dpm = (await get(`/v2/navigation/dpm/brands?${filters}`)).body;
    expect(cmp.items.map((i: { name: string }) => i.name)).toEqual(['Colun', 'Omo']); // own first
    for (const item of cmp.items) {
      const group = dpm.items.find((g: { id: number }) => g.id === item.brand_id);
      expect(item.products).toBe(group.products);
      expect(item.average_index).toBe(group.average_index);
      const sellers = (await get(`/v2/navigation/dpm/sellers?brands=${item.brand_id}`)).body;
      for (const s of item.sellers) {
        const g = sellers.items.find((x: { id: number }) => x.id === s.seller_id);
        expect(s.average_index).toBe(g.average_index);
        expect(s.products).toBe(g.products);
      }
    }
  });

  it('answers a period ending on a closed day (own brands, then picked ones)', async () => {
    // the pivot was first observed today: yesterday no brand has a product (the route then asks the
    // whole model, after its own brands' rows alone)
    const to = addDays(isoDateInZone(new Date(), DEFAULT_TIMEZONE), -1);
    for (const filters of ['', `&brands=${fx.brands.colun},${fx.brands.omo}`]) {
      const { status, body } = await get(`${URL}?to_date=${to}${filters}`);
      expect(status).toBe(200);
      expect(brandComparatorResponse.parse(body).to_date).toBe(to);
      expect(body.items).toEqual([]);
    }
  });

  it('needs the dpm module and a licensed seller; a bad field is a 400 naming it', async () => {
    expect((await get(URL, reportsOnly)).status).toBe(403);
    expect((await get(`${URL}?sellersIds=10`)).status).toBe(403);
    expect((await get(`${URL}?mpi_value=abc`)).body).toMatchObject({ field: 'mpi_value' });
    expect((await get(`${URL}?from_date=2026-13-01`)).body).toMatchObject({ field: 'from_date' });
  });
});

describe('trendDays', () => {
  it('spreads the points evenly over the period, the last one its end', () => {
    expect(trendDays('2026-01-01', '2026-01-31', 6)).toEqual([
      '2026-01-01',
      '2026-01-07',
      '2026-01-13',
      '2026-01-19',
      '2026-01-25',
      '2026-01-31',
    ]);
    expect(trendDays('2026-01-01', '2026-01-03', 6)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03']);
    expect(trendDays('2026-01-05', '2026-01-05', 6)).toEqual(['2026-01-05']);
  });
});
