import { dayNameSpa, productListResponse } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import { authHeader, tokenFor } from '../../test/fixtures-account.js';
import { seedTestMarket, type TestMarket, tDay } from '../../test/test-market.js';

// Expected values are worked out by hand from the market in ../../test/test-market.ts.

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

const list = async (payload: object, t = token) => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/list-products/',
    payload,
    headers: authHeader(t),
  });
  expect(res.statusCode, res.body).toBe(200);
  return productListResponse.parse(res.json());
};
const post = (payload: object, t = token) =>
  ctx.app.inject({ method: 'POST', url: '/v1/list-products/', payload, headers: authHeader(t) });

describe('POST /v1/list-products/', () => {
  it("lists the pivot's listings under the license, 10 per page, by name", async () => {
    const body = await list({});
    expect(body.listTitle).toBe('Lista de productos');
    expect([body.totalItems, body.page, body.page_size]).toEqual([2, 1, 10]);
    expect(body.items.map((i) => i.product_id)).toEqual(['P3', 'P1']); // 'Audífono Pro' < 'Audífono X'
    const p1 = body.items[1];
    expect(p1).toMatchObject({
      id: m.ids.P1,
      ean: '7800000000001',
      sku: 'SKU-P1',
      seller_id: 10,
      seller_name: 'Pivote',
      brand: 'Acme',
      url: 'https://pivote.cl/p1',
      name: 'Audífono X',
      price: 900,
      normal_price: 1000,
      price_type: 'SALE',
      stock_out: false,
      categories: [
        { name: 'Tecnología', url: null },
        { name: 'Audio', url: null },
      ],
      currency: 'CLP',
      plp: null,
      observation: { tag: 'promotion', text: 'En promoción' },
      day_name_spa: dayNameSpa(tDay(5)),
      sale_duration_in_weeks: 0, // on sale since T−5
      matches: 3, // A1, B1, C1 (F1's seller is not licensed)
      published: true,
    });
    expect(p1.updated.slice(0, 10)).toBe(tDay(5));
    expect(Date.now() - Date.parse(p1.extracted)).toBeLessThan(5 * 60_000);
    expect(body.items[0]).toMatchObject({ price: 3000, observation: { tag: null, text: null }, matches: 0 });
  });

  it('pages: page size, past the end, nulls last', async () => {
    const narrow = await list({ page: 2, page_size: 2 }, narrowToken);
    expect(narrow.totalItems).toBe(3); // whole tree: P1, P2, P3
    expect(narrow.items.map((i) => [i.product_id, i.name])).toEqual([['P2', null]]);
    const past = await list({ page: 5 });
    expect([past.items.length, past.totalItems]).toEqual([0, 2]);
    // sorted by price or last update, the page counts what it sorts: the same totals, past the end too
    for (const sort of ['price', 'updated'] as const) {
      const first = await list({ page: 2, page_size: 2, sort }, narrowToken);
      expect([first.items.length, first.totalItems]).toEqual([1, 3]);
      expect((await list({ page: 5, sort })).totalItems).toBe(2);
      expect((await list({ page: 1, sort, search: 'acme pro' })).totalItems).toBe(0);
      expect((await list({ page: 1, sort, search: 'ac' })).totalItems).toBe(1);
    }
  });

  it('filters: sellers, unpublished, match, stock, search, sort, currency', async () => {
    const a = await list({ sellers: [20], include_unpublished: true });
    expect(a.items.map((i) => [i.product_id, i.observation.tag])).toEqual([
      ['A1', 'price_up'], // 950 → 1100 at T−3
      ['D1', 'unpublished'],
    ]);
    expect((await list({ sellers: [20] })).items.map((i) => i.product_id)).toEqual(['A1']);
    expect((await list({ match: true })).items.map((i) => i.product_id)).toEqual(['P1']);
    expect((await list({ match: false })).items.map((i) => i.product_id)).toEqual(['P3']);
    const out = await list({ sellers: [30], stockOut: true });
    expect(out.items.map((i) => [i.product_id, i.price, i.observation.text])).toEqual([
      ['B1', 1000, 'Sin stock'],
    ]);
    expect((await list({ search: 'PRO' })).items.map((i) => i.product_id)).toEqual(['P3']);
    // accents and case ignored; a word may be in the brand (P1 'Audífono X' is Acme's, P3 has no brand)
    expect((await list({ search: 'AUDIFONO  acmé' })).items.map((i) => i.product_id)).toEqual(['P1']);
    expect((await list({ search: 'sku-p1' })).items.map((i) => i.product_id)).toEqual(['P1']);
    // a word found only in the brand, and a brand word that is no listing's: nothing
    expect((await list({ search: 'acme' })).items.map((i) => i.product_id)).toEqual(['P1']);
    expect((await list({ search: 'acme pro' })).totalItems).toBe(0);
    expect((await list({ search: '100%' })).totalItems).toBe(0); // LIKE's % is a plain character
    // words shorter than a trigram (the index of migration 521): in the name, in the brand, with a longer one
    expect((await list({ search: 'X' })).items.map((i) => i.product_id)).toEqual(['P1']);
    expect((await list({ search: 'ac' })).items.map((i) => i.product_id)).toEqual(['P1']);
    expect((await list({ search: 'x pro' })).totalItems).toBe(0);
    expect((await list({ search: 'pr x' })).totalItems).toBe(0);
    // by name: 'audifono pro' < 'audifono x'
    expect((await list({ order: 'desc' })).items.map((i) => i.product_id)).toEqual(['P1', 'P3']);
    expect((await list({})).items.map((i) => i.product_id)).toEqual(['P3', 'P1']);
    expect((await list({ sort: 'price', order: 'desc' })).items.map((i) => i.price)).toEqual([3000, 900]);
    // a search reads the current rows per listing (queries.ts currentJoin): the same prices, order and filters
    const audio = await list({ search: 'audifono', sort: 'price', order: 'desc' });
    expect(audio.items.map((i) => [i.product_id, i.price])).toEqual([
      ['P3', 3000],
      ['P1', 900],
    ]);
    expect(audio.totalItems).toBe(2);
    expect((await list({ search: 'audifono', sort: 'price' })).items.map((i) => i.product_id)).toEqual([
      'P1',
      'P3',
    ]);
    expect((await list({ search: 'audifono', match: true })).items.map((i) => i.product_id)).toEqual(['P1']);
    expect((await list({ search: 'audifono', match: false })).items.map((i) => i.product_id)).toEqual(['P3']);
    expect((await list({ search: 'audifono', stockOut: true })).totalItems).toBe(0);
    expect((await list({ currency: 'USD', sort: 'price' })).items.map((i) => i.price)).toEqual([1, 3.33]);
  });

  it("searches one seller's listings through the seller-led trigram index of migration 500", async () => {
    const { rows } = await ctx.db.pool.query(
      `select indexname, indexdef from pg_indexes where tablename = 'products' and indexdef like '%gin_trgm_ops%'`,
    );
    // 042's market-wide index is replaced by 500's, led by the seller
    expect(rows.map((r) => r.indexname)).toEqual(['products_seller_search_trgm_idx']);
    expect(rows[0].indexdef).toMatch(/gin \(seller_id, search_key gin_trgm_ops\)/);
    // (that PostgreSQL chooses it for a seller's word is measured on the large market: docs/benchmarks.md)
  });

  it('is scoped to the license and validated', async () => {
    expect((await post({ sellers: [40] })).statusCode).toBe(403);
    expect((await post({ classificationsIds: [m.cls.moda] })).statusCode).toBe(403);
    expect((await post({ currency: 'PEN' })).statusCode).toBe(403);
    const big = await post({ page_size: 101 });
    expect(big.statusCode).toBe(400);
    expect(big.json().field).toBe('page_size');
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/v1/list-products/', payload: {} })).statusCode,
    ).toBe(401);
  });
});
