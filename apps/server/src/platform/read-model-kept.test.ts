import type { DashboardPreResponse } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VersionedSlot } from '../lib/versioned-slot.js';
import type { PivotModel } from '../modules/pricing/index.js';
import { createSecondApp, createTestContext, type TestContext } from '../test/context.js';
import { authHeader } from '../test/fixtures-account.js';
import { type PricingFixture, SELLERS, seedPricingFixture, tokenOf } from '../test/pricing-fixture.js';
import { bumpChanges } from './change-signal.js';
import { readModelsOf } from './read-model.js';

// Answers kept across a restart (read-model.ts keptAcrossRestarts, migration 540; issue 30, cold start):
// an API process that closes saves the DPM KPIs and pages and the dashboard cards it answered; the next process on the
// same database answers the same questions from them before its pivot's model is read — and only while
// the market's data and the code are the same.

let ctx: TestContext;
let fx: PricingFixture;
let token: string;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedPricingFixture(db.pool);
    },
  });
  token = tokenOf(ctx.config.JWT_SECRET, fx.users.analyst, fx.users.orgAnalyst);
});
afterAll(() => ctx?.close());

/** An API process of its own on the test database (its own pool and read-model holder), keeping answers. */
async function process_() {
  const p = await createSecondApp(ctx);
  readModelsOf(p.db.pool).keepAnswers = true;
  return p;
}

const kpi = async (app: FastifyInstance) => {
  const res = await app.inject({ method: 'GET', url: '/v2/navigation/dpm/kpi', headers: authHeader(token) });
  expect(res.statusCode).toBe(200);
  return res.json() as { total: number; split: Record<string, number> };
};
const items = async (app: FastifyInstance) => {
  const res = await app.inject({
    method: 'GET',
    url: '/v2/navigation/dpm/items?page_size=5&sort_by=name&sort=asc',
    headers: authHeader(token),
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { items: { id: string }[]; total: number };
};
const cards = async (app: FastifyInstance) => {
  const res = await app.inject({
    method: 'POST',
    url: '/v2/dashboard/pre',
    payload: {},
    headers: authHeader(token),
  });
  expect(res.statusCode).toBe(200);
  return res.json() as DashboardPreResponse;
};
/** The pricing models the process holds (pivot → version), none while nothing read one. */
const heldModels = (pool: pg.Pool) =>
  [
    ...readModelsOf(pool)
      .state('pricing-models', () => new Map<number, VersionedSlot<PivotModel>>())
      .values(),
  ].filter((s) => s.value);

describe('answers kept across a restart', () => {
  it('a restarted process answers the KPIs, page and cards asked before without reading the model; a data change or other code makes them again', async () => {
    // the first process answers from its model, and saves both answers when it closes
    const first = await process_();
    const kpi1 = await kpi(first.app);
    const items1 = await items(first.app);
    const cards1 = await cards(first.app);
    expect(kpi1.total).toBeGreaterThan(0);
    expect(items1.items.length).toBeGreaterThan(0);
    expect(heldModels(first.db.pool).length).toBe(1);
    const holder1 = readModelsOf(first.db.pool);
    await first.close();
    expect(holder1.stats.saved).toBe(3);
    const { rows } = await ctx.db.pool.query<{ memo: string }>(
      'select memo from answer_memos_saved order by memo',
    );
    expect(rows.map((r) => r.memo)).toEqual(['dashboard-answers', 'dpm-items-answers', 'dpm-kpi-answers']);

    // the next one answers the same questions at once — the same answers — with no model read
    const second = await process_();
    expect(await kpi(second.app)).toEqual(kpi1);
    expect(await items(second.app)).toEqual(items1);
    expect(await cards(second.app)).toEqual(cards1);
    expect(readModelsOf(second.db.pool).stats.restored).toBe(3);
    expect(heldModels(second.db.pool)).toEqual([]);
    await second.close();

    // answers saved by other code are not used: the model is read again
    await ctx.db.pool.query(`update answer_memos_saved set code = 'other code'`);
    const third = await process_();
    expect(await kpi(third.app)).toEqual(kpi1);
    expect(readModelsOf(third.db.pool).stats.restored).toBe(0);
    expect(heldModels(third.db.pool).length).toBe(1);
    await third.close();

    // after a change of the market's data the saved answers are not found again (their key holds the
    // market version): the answer is made from the model
    const c = await ctx.db.pool.connect();
    try {
      await bumpChanges(c, [SELLERS.pivot], 'listings');
    } finally {
      c.release();
    }
    const fourth = await process_();
    expect(await kpi(fourth.app)).toEqual(kpi1);
    // (read: the KPIs the third process saved, at the market version before the change)
    expect(readModelsOf(fourth.db.pool).stats.restored).toBe(1);
    expect(heldModels(fourth.db.pool).length).toBe(1);
    await fourth.close();
  });

  it("a kept page names the sellers as they are: a renamed competitor's new name is shown at once", async () => {
    const p = await process_();
    const { rows } = await ctx.db.pool.query<{ name: string }>('select name from sellers where id = $1', [
      SELLERS.a,
    ]);
    try {
      const before = JSON.stringify(await items(p.app));
      expect(before).toContain(rows[0].name);
      // a seller's name is not market data (no data version moves): the key names the sellers instead
      await ctx.db.pool.query(`update sellers set name = 'Tienda Renombrada' where id = $1`, [SELLERS.a]);
      const after = JSON.stringify(await items(p.app));
      expect(after).toContain('Tienda Renombrada');
      expect(after).not.toContain(rows[0].name);
    } finally {
      await ctx.db.pool.query('update sellers set name = $2 where id = $1', [SELLERS.a, rows[0].name]);
      await p.close();
    }
  });

  it('a process that does not keep answers saves none', async () => {
    await ctx.db.pool.query('delete from answer_memos_saved');
    const p = await createSecondApp(ctx);
    await kpi(p.app);
    const holder = readModelsOf(p.db.pool);
    await p.close();
    expect(holder.stats.saved).toBe(0);
    const { rows } = await ctx.db.pool.query('select 1 from answer_memos_saved');
    expect(rows.length).toBe(0);
  });
});
