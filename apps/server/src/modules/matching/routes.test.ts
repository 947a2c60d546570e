import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import { observe } from '../../test/fixtures.js';
import {
  type AccountFixture,
  authHeader,
  seedAccountFixture,
  tokenFor,
} from '../../test/fixtures-account.js';
import { runMatching } from './pipeline.js';

// The API of Coincidencias under two licenses (fixtures-account.ts): demo sees sellers 5, 116, 125 and 200;
// limited sees 5 and 125 only. Pivot 5's listings are matched with 125's (visible to both) and 200's
// (demo only): the queue, decisions and history of limited never show or touch the pair with 200.

let ctx: TestContext;
let fx: AccountFixture;
const id: Record<string, number> = {};
let demo: string;
let limited: string;

const post = (token: string, url: string, payload: Record<string, unknown>) =>
  ctx.app.inject({ method: 'POST', url, headers: authHeader(token), payload });

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedAccountFixture(db);
    },
  });
  const { pool } = ctx.db;
  await pool.query(
    `insert into fx_rates (currency, day, clp_per_unit) values ('USD', '2026-01-01', 950), ('PEN', '2026-01-01', 250)`,
  );
  await observe(pool, 5, '2026-11-01T12:00:00Z', [
    { productId: 'P1', brand: 'Tucapel', name: 'Arroz Grado 2 Tucapel 1 kg', normalPrice: 1500 },
    { productId: 'P2', brand: 'Colun', name: 'Leche Entera Colun 1 L', normalPrice: 1000 },
  ]);
  await observe(pool, 125, '2026-11-01T12:00:00Z', [
    // suggestion (a variant said by one side only)
    { productId: 'N1', brand: 'Tucapel', name: 'Arroz Tucapel Grado 2 Integral 1 kg', normalPrice: 1400 },
  ]);
  await observe(pool, 200, '2026-11-01T12:00:00Z', [
    { productId: 'L1', brand: 'Colun', name: 'Leche Colun Entera Frutilla 1000 ml', normalPrice: 5 },
  ]);
  const r = await runMatching(pool);
  expect(r).toMatchObject({ suggested: 2, auto: 0 });
  const { rows } = await pool.query<{ product_id: string; id: number }>(
    'select product_id, id::int from products',
  );
  for (const x of rows) id[x.product_id] = x.id;
  demo = tokenFor(ctx, fx.users.demo);
  limited = tokenFor(ctx, fx.users.limited);
});
afterAll(() => ctx?.close());

describe('POST /v1/matches/queue', () => {
  it('shows each user only pairs of its licensed sellers, with parts and both prices', async () => {
    const d = await post(demo, '/v1/matches/queue', {});
    expect(d.statusCode).toBe(200);
    expect(
      d
        .json()
        .items.map((i: { productId: number }) => i.productId)
        .sort(),
    ).toEqual([id.N1, id.L1].sort());
    const l = await post(limited, '/v1/matches/queue', {});
    expect(l.json()).toMatchObject({ total: 1, page: 1, pageSize: 25 });
    const item = l.json().items[0];
    expect(item).toMatchObject({
      productId: id.N1,
      status: 'suggested',
      source: 'title',
      candidate: { sellerId: 125, price: 1400, currency: 'CLP', convertedCurrency: 'CLP', pack: '1 kg' },
      pivot: { productId: id.P1, sellerId: 5, name: 'Arroz Grado 2 Tucapel 1 kg' },
    });
    expect(item.parts).toContainEqual({ part: 'quantity', verdict: 'agree', a: '1 kg', b: '1 kg' });
    // the PEN listing converted to the demo user's currency at 250 CLP per PEN
    const lima = d.json().items.find((i: { productId: number }) => i.productId === id.L1);
    expect(lima.candidate).toMatchObject({ price: 5, currency: 'PEN' });
  });

  it('filters by seller, brand, score and refuses sellers outside the license', async () => {
    const bySeller = await post(demo, '/v1/matches/queue', { sellerIds: [200] });
    expect(bySeller.json().items.map((i: { productId: number }) => i.productId)).toEqual([id.L1]);
    const high = await post(demo, '/v1/matches/queue', { minScore: 0.99 });
    expect(high.json().total).toBe(0);
    expect((await post(limited, '/v1/matches/queue', { sellerIds: [200] })).statusCode).toBe(403);
    const bad = await post(demo, '/v1/matches/queue', { minScore: 2 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('minScore');
  });
});

describe('POST /v1/matches/decide', () => {
  it('refuses a decision on a listing outside the license', async () => {
    const g = (
      await ctx.db.pool.query('select group_id::int as g from match_members where product_id = $1', [id.L1])
    ).rows[0].g;
    const r = await post(limited, '/v1/matches/decide', {
      decisions: [{ listingId: id.L1, groupId: g, action: 'accept' }],
    });
    expect(r.statusCode).toBe(403);
  });

  it('accepts, keeps who and when, and undoes', async () => {
    const g = (
      await ctx.db.pool.query('select group_id::int as g from match_members where product_id = $1', [id.N1])
    ).rows[0].g;
    const a = await post(limited, '/v1/matches/decide', {
      decisions: [{ listingId: id.N1, groupId: g, action: 'accept' }],
    });
    expect(a.json()).toEqual({ changed: 1 });
    const confirmed = await post(limited, '/v1/matches/queue', { status: 'confirmed' });
    expect(confirmed.json().items[0]).toMatchObject({
      productId: id.N1,
      status: 'confirmed',
      decidedBy: fx.users.limited.name,
    });
    const h = await post(limited, '/v1/matches/history', { listingId: id.P1 });
    expect(h.statusCode).toBe(200);
    expect(h.json().matches).toMatchObject([{ productId: id.N1, status: 'confirmed' }]);
    expect(h.json().decisions.map((x: { action: string }) => x.action)).toEqual(['accept', 'auto', 'auto']); // the listing's and its anchor's (P1)
    const u = await post(limited, '/v1/matches/decide', {
      decisions: [{ listingId: id.N1, groupId: g, action: 'undo' }],
    });
    expect(u.json()).toEqual({ changed: 1 });
    expect((await post(limited, '/v1/matches/queue', {})).json().items[0]).toMatchObject({
      productId: id.N1,
      status: 'suggested',
    });
  });

  it('bulk-accepts a brand above a score and a wrong match can be reported back to review', async () => {
    const brand = (
      await ctx.db.pool.query(
        `select id from brands where normalized_name = 'colun' or lower(name) = 'colun'`,
      )
    ).rows[0].id;
    const r = await post(demo, '/v1/matches/accept-brand', { brandId: brand, minScore: 0.5 });
    expect(r.json()).toEqual({ changed: 1 });
    const g = (
      await ctx.db.pool.query('select group_id::int as g from match_members where product_id = $1', [id.L1])
    ).rows[0].g;
    const rep = await post(demo, '/v1/matches/report', {
      listingId: id.L1,
      groupId: g,
      note: 'frutilla ≠ natural',
    });
    expect(rep.json()).toEqual({ changed: 1 });
    const q = await post(demo, '/v1/matches/queue', { sellerIds: [200] });
    expect(q.json().items[0]).toMatchObject({ productId: id.L1, status: 'suggested' });
    const anchor = await post(demo, '/v1/matches/report', { listingId: id.P2, groupId: g });
    expect(anchor.statusCode).toBe(400);
  });

  it('validates the body (400 naming the field) and requires the dpm module', async () => {
    const r = await post(demo, '/v1/matches/decide', { decisions: [] });
    expect(r.statusCode).toBe(400);
    expect(r.json().field).toBe('decisions');
    const none = await ctx.app.inject({ method: 'POST', url: '/v1/matches/queue', payload: {} });
    expect(none.statusCode).toBe(401);
  });
});
