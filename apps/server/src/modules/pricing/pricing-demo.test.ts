import {
  dpmGroupsResponse,
  newNavigationPricesResponse,
  priceRangeScoresQmpResponse,
  priceRangeScoresResponse,
  pricingItemsResponse,
  pricingKpisResponse,
} from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import { loginAs } from '../../test/fixtures-account.js';
import { seedDemoMarket } from '../demo/seed-demo.js';

// The pricing endpoints on the tiny demo market, signed in as the demo accounts: every endpoint answers
// with its contract's shape, pages through the whole pivot with the cursor, and the narrower license of
// limited@example.com (dpm + reports) is refused navigation.

let ctx: TestContext;
let demo: string;
let limited: string;

beforeAll(async () => {
  ctx = await createTestContext({ seed: (db) => seedDemoMarket(db.pool, { size: 'tiny' }).then(() => {}) });
  demo = await loginAs(ctx.app, 'demo@example.com', 'demo1234');
  limited = await loginAs(ctx.app, 'limited@example.com', 'demo1234');
});
afterAll(() => ctx?.close());

const call = async (method: 'GET' | 'POST', url: string, token: string, payload?: object) => {
  const res = await ctx.app.inject({ method, url, headers: { authorization: `JWT ${token}` }, payload });
  return { status: res.statusCode, body: res.json() };
};

describe('pricing on the tiny demo market', () => {
  it('every endpoint answers with its contract', async () => {
    const checks: [string, 'GET' | 'POST', string, { parse: (v: unknown) => unknown }][] = [
      ['kpi', 'GET', '/v2/navigation/dpm/kpi', pricingKpisResponse],
      ['items', 'GET', '/v2/navigation/dpm/items', pricingItemsResponse],
      ['brands', 'GET', '/v2/navigation/dpm/brands', dpmGroupsResponse],
      ['classifications', 'GET', '/v2/navigation/dpm/classifications', dpmGroupsResponse],
      ['sellers', 'GET', '/v2/navigation/dpm/sellers', dpmGroupsResponse],
      ['nav', 'POST', '/v2/navigation/', pricingItemsResponse],
      ['navOld', 'POST', '/v2/navigationOld/', pricingItemsResponse],
      ['navKpi', 'GET', '/v2/navigation/kpi', pricingKpisResponse],
      ['prices', 'POST', '/v1/new-navigation/prices/', newNavigationPricesResponse],
      ['range', 'GET', '/v2/navigation/price-range-scores', priceRangeScoresResponse],
      ['rangeQmp', 'GET', '/v2/navigation/price-range-scores-qmp', priceRangeScoresQmpResponse],
    ];
    for (const [name, method, url, schema] of checks) {
      const { status, body } = await call(method, url, demo, method === 'POST' ? {} : undefined);
      expect(status, name).toBe(200);
      schema.parse(body);
    }
    const kpi = (await call('GET', '/v2/navigation/dpm/kpi', demo)).body;
    expect(kpi.total).toBeGreaterThan(0);
    expect(kpi.match).toBeGreaterThan(0);
    expect(kpi.publishedMatch).toBeLessThanOrEqual(kpi.match);
    const { split } = kpi;
    expect(split.cheapest + split.in_range + split.dearer + split.without_index).toBe(kpi.total);
  });

  it('the cursor walks the whole pivot once, in order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let total = 0;
    let last = Number.POSITIVE_INFINITY;
    do {
      const body: {
        items: { id: string; my_price: number | null }[];
        next_cursor: string | null;
        total: number;
      } = (
        await call('POST', '/v2/navigation/', demo, {
          page_size: 37,
          sort_by: 'price',
          sort: 'desc',
          ...(cursor ? { cursor } : {}),
        })
      ).body;
      total = body.total;
      for (const it of body.items) {
        seen.push(it.id);
        if (it.my_price !== null) {
          expect(it.my_price).toBeLessThanOrEqual(last);
          last = it.my_price;
        }
      }
      cursor = body.next_cursor;
    } while (cursor);
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('limited@example.com (dpm + reports) gets DPM and its price slider but not navigation', async () => {
    expect((await call('GET', '/v2/navigation/dpm/kpi', limited)).status).toBe(200);
    expect((await call('POST', '/v2/navigation/', limited, {})).status).toBe(403);
    expect((await call('GET', '/v2/navigation/kpi', limited)).status).toBe(403);
    // the price slider serves DPM too
    expect((await call('GET', '/v2/navigation/price-range-scores', limited)).status).toBe(200);
  });
});
