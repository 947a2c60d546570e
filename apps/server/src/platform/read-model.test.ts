import { isoDateInZone } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import type { VersionedSlot } from '../lib/versioned-slot.js';
import { rejectMatch } from '../modules/matching/index.js';
import type { PivotModel } from '../modules/pricing/index.js';
import { createSecondApp, createTestContext, type TestContext } from '../test/context.js';
import { observe } from '../test/fixtures.js';
import { type PricingFixture, SELLERS, seedPricingFixture, tokenOf } from '../test/pricing-fixture.js';
import { bumpChanges, type ChangeScope, selectMarketVersion } from './change-signal.js';
import { ownArrayBytes, readModelsOf } from './read-model.js';

// The change signal and the read-model holder across two app instances on one database (each with its
// own pool, so its own holder and LISTEN connection, as two API processes would have): a change
// committed through one pool reaches the other's answers and stores; an answer made across a change is
// made again at one version.

let one: TestContext;
let fx: PricingFixture;
let second: Awaited<ReturnType<typeof createSecondApp>>;
let db2: Database;
let two: FastifyInstance;
let token: string;

beforeAll(async () => {
  one = await createTestContext({
    seed: async (db) => {
      fx = await seedPricingFixture(db.pool);
      // the analyst may also read the promotions screens
      await db.pool.query(
        `insert into license_modules (license_id, module_code)
         select id, 'promotions' from licenses where org_id = $1`,
        [fx.users.orgAnalyst],
      );
    },
  });
  second = await createSecondApp(one);
  two = second.app;
  db2 = second.db;
  token = tokenOf(one.config.JWT_SECRET, fx.users.analyst, fx.users.orgAnalyst);
});

afterAll(async () => {
  await second?.close();
  await one?.close();
});

const headers = () => ({ authorization: `JWT ${token}`, 'x-module-authorization': 'promotions' });
const kpi = async (app: FastifyInstance) => {
  const res = await app.inject({ method: 'GET', url: '/v2/navigation/dpm/kpi', headers: headers() });
  expect(res.statusCode).toBe(200);
  return res.json() as { total: number; sale: number; normal: number; split: Record<string, number> };
};
// the market's today (America/Santiago): between 00:00 and 03:00 UTC, UTC's date is already tomorrow there
const today = () => isoDateInZone(new Date());
const promotionLevel = async (app: FastifyInstance) => {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/promotion/level',
    headers: headers(),
    payload: {
      from_date: today(),
      to_date: today(),
      currency: 'CLP',
      classificationsIds: [fx.classes.leches],
    },
  });
  expect(res.statusCode).toBe(200);
  const body = res.json() as {
    items: { seller: { id: number }; classifications: { id: number; weeks: { promoted: number }[] }[] }[];
  };
  const pivot = body.items.find((i) => i.seller.id === SELLERS.pivot);
  return pivot?.classifications[0]?.weeks.reduce((n, w) => n + w.promoted, 0) ?? 0;
};

/** Waits (checking every 100 ms, at most `ms`) until `done` holds; returns the time it took. */
async function within(ms: number, done: () => Promise<boolean> | boolean): Promise<number> {
  const t = Date.now();
  while (!(await done())) {
    if (Date.now() - t > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - t;
}

/** P1 as the fixture observes it, now on sale at 900 (NSE price 900: below B's 950, so cheapest). */
const p1OnSale = {
  productId: 'p1',
  sku: 'SKU-001',
  ean: 'E1',
  name: 'Leche Entera 1L',
  brand: 'Colun',
  categoryPath: ['Despensa', 'Lácteos'],
  normalPrice: 1000,
  salePrice: 900,
};

describe('an ingest committed through another pool', () => {
  it('reaches the second instance: its held model is refreshed by the signal, its answers change within 2 s', async () => {
    const holder2 = readModelsOf(db2.pool);
    expect(holder2.stats.listening).toBe(true);
    // answers of the second instance before: memoised there (KPIs: P2 the only sale; hand-computed in
    // pricing.test.ts: cheapest P2 P3)
    const before = await kpi(two);
    expect(before).toMatchObject({ total: 6, sale: 1, normal: 4, split: { cheapest: 2 } });
    expect(await kpi(two)).toEqual(before); // from the memo
    const promotedBefore = await promotionLevel(two);
    const notified = holder2.stats.notified;

    await observe(
      one.db.pool,
      SELLERS.pivot,
      new Date(Date.now() - 1_000),
      [{ ...p1OnSale, classificationId: fx.classes.leches }],
      'partial',
    );

    // the second process learns of the commit by NOTIFY (its own LISTEN connection) …
    const took = await within(2_000, () => holder2.stats.notified > notified);
    expect(took).toBeLessThan(2_000);
    await holder2.settled();
    // … and has brought its pivot model to the new version before any request asked for it
    const { rows } = await one.db.pool.query<{ version: number }>(
      'select version from pricing_pivots where seller_id = $1',
      [SELLERS.pivot],
    );
    const held = holder2
      .state('pricing-models', () => new Map<number, VersionedSlot<PivotModel>>())
      .get(SELLERS.pivot);
    expect(held?.value?.version).toBe(rows[0].version);

    // P1 on sale: sale 2, normal 3; its index 900 / 950 = 94.74 → cheapest P1 P2 P3
    const after = await kpi(two);
    expect(after).toMatchObject({ total: 6, sale: 2, normal: 3, split: { cheapest: 3 } });
    // the promotions answer of the second instance counts P1's day on promotion
    expect(await promotionLevel(two)).toBe(promotedBefore + 1);
    // and the first instance agrees
    expect(await kpi(one.app)).toMatchObject({ sale: 2, split: { cheapest: 3 } });
  });

  it('a match decision is a change too: the signal names the seller and the scope', async () => {
    const holder2 = readModelsOf(db2.pool);
    const seen: string[] = [];
    holder2.subscribe('test-spy', async (changes) => {
      if (changes !== 'all') for (const c of changes) seen.push(`${c.sellerId}:${c.scope}`);
    });
    const version = await holder2.version();
    // P4 (stock-out, 10000) against A 9000: 111.11, dearer than the range (dpm value 10)
    expect((await kpi(two)).split).toMatchObject({ in_range: 0, dearer: 1 });
    // Rival A's match of P4 (E4) rejected: P4's index needs B alone (10000 / 9500 = 105.26, in range)
    const { rows } = await one.db.pool.query<{ group_id: number; product_id: number }>(
      `select m.group_id, m.product_id::int as product_id from match_members m join products p on p.id = m.product_id
        where p.seller_id = $1 and p.product_id = 'a4'`,
      [SELLERS.a],
    );
    expect(rows).toHaveLength(1);
    await rejectMatch(one.db.pool, rows[0].group_id, rows[0].product_id, fx.users.analyst);
    expect(await holder2.version()).toBe(version + 1);
    await within(2_000, () => seen.includes(`${SELLERS.a}:matches`));
    expect((await kpi(two)).split).toMatchObject({ in_range: 1, dearer: 0 });
    holder2.unsubscribe('test-spy');
  });
});

describe('answers of the holder', () => {
  it('an answer whose making straddled a change is made again at one version', async () => {
    const holder = readModelsOf(one.db.pool);
    const memo = holder.memo<{ first: number; second: number; version: number }>('test-straddle', 4);
    const saleCount = async () => {
      const { rows } = await one.db.pool.query<{ n: number }>(
        `select count(*)::int as n from listing_current lc join products p on p.id = lc.product_id
          where p.seller_id = $1 and lc.sale_price is not null`,
        [SELLERS.pivot],
      );
      return rows[0].n;
    };
    let makings = 0;
    const make = async () => {
      makings++;
      const first = await saleCount();
      if (makings === 1) {
        // another process commits a run between the answer's two reads: P4 goes on sale
        await observe(
          one.db.pool,
          SELLERS.pivot,
          new Date(Date.now() - 500),
          [
            {
              productId: 'p4',
              sku: 'SKU-004',
              ean: 'E4',
              name: 'Detergente Líquido 3L',
              brand: 'Omo',
              classificationId: fx.classes.liquidos,
              categoryPath: ['Limpieza', 'Detergentes'],
              normalPrice: 10000,
              salePrice: 9000,
              stockOut: true,
            },
          ],
          'partial',
        );
      }
      const second = await saleCount();
      return { first, second, version: await selectMarketVersion(one.db.pool) };
    };
    const before = await holder.version();
    const remade = holder.stats.remade;
    const answer = await memo.answer(['sales'], make);
    // the first making read 2 then 3 sales: dropped; the second read 3 and 3
    expect(makings).toBe(2);
    expect(holder.stats.remade).toBe(remade + 1);
    expect(answer.first).toBe(answer.second);
    expect(answer.first).toBe(3);
    expect(answer.version).toBe(before + 1);
    // kept at that version: asked again, the same object without a making
    expect(await memo.answer(['sales'], make)).toBe(answer);
    expect(makings).toBe(2);
    // a later change drops it (older than the version now) once the signal arrives
    await holder.settled();
    expect(memo.size).toBe(1);
    const client = await one.db.pool.connect();
    try {
      await client.query('begin');
      await bumpChanges(client, [SELLERS.a], 'products');
      await client.query('commit');
    } finally {
      client.release();
    }
    await within(2_000, () => memo.size === 0);
  });

  it('concurrent version reads share one query; a read to be sent after a time joins none sent before', async () => {
    const holder = readModelsOf(one.db.pool);
    const pool = one.db.pool;
    const query = pool.query;
    let reads = 0;
    pool.query = function (this: pg.Pool, ...args: unknown[]) {
      if (String(args[0]).includes('from data_changes where scope')) reads++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pool.query;
    try {
      const [a, b, c] = await Promise.all([holder.version(), holder.version(), holder.version()]);
      expect(reads).toBe(1);
      expect([b, c]).toEqual([a, a]);
      // once settled, a read is not reused: the next one is sent
      await holder.version();
      expect(reads).toBe(2);
      // in flight: a caller with no bound joins it, one that needs a read sent from now on does not
      const first = holder.version();
      const joined = holder.version();
      const later = holder.version(performance.now());
      expect(reads).toBe(4);
      expect(await joined).toBe(await first);
      expect(await later).toBe(a);
    } finally {
      pool.query = query;
    }
  });

  it('concurrent misses wait for one making; the memo is bounded', async () => {
    const holder = readModelsOf(one.db.pool);
    const memo = holder.memo<{ n: number }>('test-join', 3);
    let makings = 0;
    const make = async () => {
      makings++;
      await new Promise((r) => setTimeout(r, 50));
      return { n: makings };
    };
    const [a, b, c] = await Promise.all([
      memo.answer(['same'], make),
      memo.answer(['same'], make),
      memo.answer(['same'], make),
    ]);
    expect(makings).toBe(1);
    expect(a).toBe(b);
    expect(b).toBe(c);
    for (const k of ['k1', 'k2', 'k3', 'k4', 'k5']) await memo.answer([k], make);
    expect(memo.size).toBe(3);
  });

  it('a memo with a room in bytes keeps the most recent entries that fit, and uses but does not keep a larger one', () => {
    const holder = readModelsOf(one.db.pool);
    // entries of 40, 40, 40 bytes in a room of 100: the first leaves when the third comes
    const memo = holder.memo<{ a: Float64Array }>('test-bytes', 10, false, {
      maxBytes: 100,
      bytes: (v) => ownArrayBytes(v),
    });
    const of = (n: number) => ({ a: new Float64Array(n) });
    memo.remember('a', () => of(5));
    memo.remember('b', () => of(5));
    expect(memo.size).toBe(2);
    memo.remember('c', () => of(5));
    expect(memo.size).toBe(2);
    expect(memo.get('a')).toBeUndefined();
    expect(memo.get('b')?.a.length).toBe(5);
    // 160 bytes: answered, not kept (and it does not push the others out)
    const big = memo.remember('big', () => of(20));
    expect(big.a.length).toBe(20);
    expect(memo.get('big')).toBeUndefined();
    expect(memo.size).toBe(2);
    // number arrays count 8 bytes an element; other fields nothing
    expect(ownArrayBytes({ x: [1, 2, 3], y: 'text', z: new Uint8Array(7) })).toBe(31);
  });

  it('a change rolled back is neither counted nor notified; an image check moves no answer', async () => {
    const holder = readModelsOf(one.db.pool);
    const bump = async (scope: ChangeScope, end: 'commit' | 'rollback') => {
      const client = await one.db.pool.connect();
      try {
        await client.query('begin');
        await bumpChanges(client, [SELLERS.b], scope);
        await client.query(end);
      } finally {
        client.release();
      }
    };
    const version = await holder.version();
    const notified = holder.stats.notified;
    await bump('listings', 'rollback');
    await new Promise((r) => setTimeout(r, 300));
    expect(await holder.version()).toBe(version);
    expect(holder.stats.notified).toBe(notified);
    // an image check is notified, but the answers (listings, matches, products) stay valid
    await bump('images', 'commit');
    await within(2_000, () => holder.stats.notified === notified + 1);
    expect(await holder.version()).toBe(version);
    // committed, a change of listings is both
    await bump('listings', 'commit');
    expect(await holder.version()).toBe(version + 1);
    await within(2_000, () => holder.stats.notified === notified + 2);
  });

  it('the listening connection comes back after it was cut, and the stores check everything again', async () => {
    const holder = readModelsOf(db2.pool);
    const batches = holder.stats.batches;
    const seen: string[] = [];
    holder.subscribe('test-spy', async (changes) => {
      seen.push(changes === 'all' ? 'all' : 'some');
    });
    // the database ends the listener's backend (as a restart or a network cut would)
    await one.db.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query ilike 'listen vigia_changes%' and pid <> pg_backend_pid()`,
    );
    await within(5_000, () => holder.stats.listening === false || seen.includes('all'));
    await within(5_000, () => holder.stats.listening && seen.includes('all'));
    expect(holder.stats.batches).toBeGreaterThan(batches);
    holder.unsubscribe('test-spy');
  });
});
