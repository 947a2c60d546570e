import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../lib/password.js';
import { heldPivots, licensedPivots } from '../modules/pricing/model.js';
import { createTestContext, type TestContext } from '../test/context.js';
import { loginAs } from '../test/fixtures-account.js';
import { type PricingFixture, SELLERS, seedPricingFixture, tokenOf } from '../test/pricing-fixture.js';
import { PAUSE_MAX_MS, ReadModels, readModelsOf, START_QUIET_MS } from './read-model.js';

// Cold start (issue 30): the warm-ups give way to the requests. A warm-up step waits for a request's own
// load (a pivot asked for before its warm-up reached it) and, at most PAUSE_MAX_MS, for the requests in
// flight; while a warm-up runs, a sign-in and a screen whose pivot it has not loaded yet are answered.

/** Lets the event loop turn `n` times (I/O, immediates). */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('a warm-up step (ReadModels.pause)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("waits for a request's own load, however long, and goes on when it is done", async () => {
    const holder = new ReadModels({} as pg.Pool);
    let release = () => {};
    const load = holder.forRequest(
      () =>
        new Promise<string>((r) => {
          release = () => r('model');
        }),
    );
    let stepped = false;
    const step = holder.pause().then(() => {
      stepped = true;
    });
    await turns(20);
    expect(holder.yielding).toBe(true);
    expect(stepped).toBe(false);
    release();
    expect(await load).toBe('model');
    await step;
    expect(stepped).toBe(true);
    expect(holder.yielding).toBe(false);
  });

  it('waits while requests are answered, PAUSE_MAX_MS at most', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const holder = new ReadModels({} as pg.Pool);
    // a request answered: the step goes on as soon as it is
    holder.requestStarted();
    let stepped = false;
    const step = holder.pause().then(() => {
      stepped = true;
    });
    await turns(20);
    expect(stepped).toBe(false);
    holder.requestEnded();
    await step;
    expect(stepped).toBe(true);
    // a request that takes long: the step goes on after PAUSE_MAX_MS, not later
    holder.requestStarted();
    let stepped2 = false;
    const step2 = holder.pause().then(() => {
      stepped2 = true;
    });
    await turns(20);
    await vi.advanceTimersByTimeAsync(PAUSE_MAX_MS - 1);
    expect(stepped2).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await step2;
    expect(stepped2).toBe(true);
    holder.requestEnded();
  });

  it("a warm-up's making gives way to a request's own load, not to the requests being answered (giveWay)", async () => {
    const holder = new ReadModels({} as pg.Pool);
    // a request being answered (it may be waiting for this very making): no wait
    holder.requestStarted();
    let gave = false;
    await holder.giveWay().then(() => {
      gave = true;
    });
    expect(gave).toBe(true);
    holder.requestEnded();
    // a request's own load in flight: waits until it is done
    let release = () => {};
    const load = holder.forRequest(
      () =>
        new Promise<void>((r) => {
          release = r;
        }),
    );
    let gave2 = false;
    const step = holder.giveWay().then(() => {
      gave2 = true;
    });
    await turns(20);
    expect(gave2).toBe(false);
    release();
    await load;
    await step;
    expect(gave2).toBe(true);
  });

  it('goes on at once when nothing is asked', async () => {
    const holder = new ReadModels({} as pg.Pool);
    let stepped = false;
    const step = holder.pause().then(() => {
      stepped = true;
    });
    await step;
    expect(stepped).toBe(true);
  });
});

describe('when the warm-ups begin', () => {
  it('START_QUIET_MS after the last request was answered, not after it arrived', async () => {
    // no database: the listening connection fails (port 1) and is retried behind; the warm-ups wait
    const holder = new ReadModels({ options: { host: '127.0.0.1', port: 1 } } as unknown as pg.Pool);
    holder.warmUp('noop', async () => {}, { inTests: true });
    // a sign-in arrives as the app is ready and is answered 400 ms later (scrypt on a busy start)
    holder.requestStarted();
    await holder.start({ warn: () => {}, error: () => {} });
    let begun = 0;
    void holder.warmUpsBegin.then(() => {
      begun = performance.now();
    });
    await new Promise((r) => setTimeout(r, 400));
    const answered = performance.now();
    holder.requestEnded();
    await new Promise((r) => setTimeout(r, START_QUIET_MS + 300));
    await holder.close();
    // the first screens, asked right after the sign-in's answer, come before any warm-up step
    expect(begun).toBeGreaterThan(0);
    expect(begun - answered).toBeGreaterThanOrEqual(START_QUIET_MS - 20);
  });
});

describe('quietFor (platform/memory.ts collects in the quiet)', () => {
  it('is 0 while a request is answered, and counts from its answer', async () => {
    const holder = new ReadModels({} as pg.Pool);
    holder.requestStarted();
    await new Promise((r) => setTimeout(r, 30));
    expect(holder.quietFor()).toBe(0);
    holder.requestEnded();
    await new Promise((r) => setTimeout(r, 60));
    expect(holder.quietFor()).toBeGreaterThanOrEqual(50);
    expect(holder.quietFor()).toBeLessThan(1000);
  });
});

describe('requests while a warm-up runs', () => {
  let ctx: TestContext;
  let fx: PricingFixture;
  let started = false;
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });

  beforeAll(async () => {
    ctx = await createTestContext({
      seed: async (db) => {
        fx = await seedPricingFixture(db.pool);
        await db.pool.query('update users set password_hash = $1 where id = $2', [
          await hashPassword('clave-de-prueba'),
          fx.users.analyst,
        ]);
        // a second licensed pivot (Rival A), for the pricing warm-up to load after the gate
        await db.pool.query(
          'insert into license_pivots (license_id, seller_id) select id, $2 from licenses where org_id = $1',
          [fx.users.orgAnalyst, SELLERS.a],
        );
        // a warm-up registered before every feature's, that runs until the test lets it end: the pricing
        // models' warm-up waits behind it
        readModelsOf(db.pool).warmUp(
          'test-gate',
          async () => {
            started = true;
            await gate;
          },
          { inTests: true, stop: async () => release() },
        );
      },
    });
  });

  afterAll(async () => {
    release();
    await ctx?.close();
  });

  it("answers /health, a sign-in and a screen (its pivot loaded by the request); the rest is warmed after the requests' loads", async () => {
    const pool = ctx.db.pool;
    for (let t = Date.now(); !started; await new Promise((r) => setTimeout(r, 20)))
      if (Date.now() - t > 10_000) throw new Error('the warm-up did not start');
    // the warm-up is in progress: no model is loaded yet, and the work that waits for the warm-ups
    // (detail/routes.ts: the export threads' warm-up) has not begun
    expect(heldPivots(pool)).toEqual([]);
    let warmUpsDone = false;
    void readModelsOf(pool).warmUpsDone.then(() => {
      warmUpsDone = true;
    });

    const health = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(await loginAs(ctx.app, 'analista@example.com', 'clave-de-prueba')).toMatch(/\./);

    // the DPM screen of the pivot: its model is loaded by the request, ahead of the warm-ups
    const token = tokenOf(ctx.config.JWT_SECRET, fx.users.analyst, fx.users.orgAnalyst);
    const kpi = await ctx.app.inject({
      method: 'GET',
      url: `/v2/navigation/dpm/kpi?pivot_id=${SELLERS.pivot}`,
      headers: { authorization: `JWT ${token}` },
    });
    expect(kpi.statusCode).toBe(200);
    // hand-computed in pricing.test.ts: P2 the only sale, cheapest P2 and P3
    expect(kpi.json()).toMatchObject({ total: 6, sale: 1, normal: 4, split: { cheapest: 2 } });
    expect(heldPivots(pool)).toEqual([SELLERS.pivot]);
    expect(started).toBe(true);

    // the gate lifted while a request's own load is in flight: the queued warm-ups wait for it …
    const licensed = await licensedPivots(pool);
    expect(licensed).toEqual([SELLERS.pivot, SELLERS.a]);
    let loaded = () => {};
    const requestLoad = readModelsOf(pool).forRequest(
      () =>
        new Promise<void>((r) => {
          loaded = r;
        }),
    );
    release();
    await new Promise((r) => setTimeout(r, 500));
    expect(heldPivots(pool)).toEqual([SELLERS.pivot]);
    expect(warmUpsDone).toBe(false);
    // … and load every licensed pivot once it is done
    loaded();
    await requestLoad;
    for (let t = Date.now(); heldPivots(pool).length < licensed.length; ) {
      if (Date.now() - t > 20_000) throw new Error('the pricing warm-up did not run');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect([...heldPivots(pool)].sort((a, b) => a - b)).toEqual(licensed);
    // every warm-up ran: what waits for them may start
    for (let t = Date.now(); !warmUpsDone; await new Promise((r) => setTimeout(r, 50)))
      if (Date.now() - t > 20_000) throw new Error('warmUpsDone did not resolve');
  });
});
