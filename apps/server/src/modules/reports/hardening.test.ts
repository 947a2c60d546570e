import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isoDateInZone, reportTasksResponse } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { enqueue } from '../../platform/jobs/index.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { insertOrgWithLicense } from '../../test/fixtures.js';
import { type ReportsFixture, reportsToken, seedReportsFixture } from '../../test/reports-fixture.js';
import { deliver } from '../notifications/dispatch.js';
import { readFileLink, signFileLink, unsubscribeIdOf } from './signing.js';
import { dispatchDueSubscriptions } from './subscriptions.js';
import { ABANDONED_REASON, MAX_ACTIVE_TASKS, reportsDir, settleAbandonedTasks } from './tasks.js';

// Issue 26 on reports: a report type needs its module (finding 0), and tasks end with their jobs —
// a killed process, a job that fails, a lost connection (finding 2).

let ctx: TestContext;
let fx: ReportsFixture;
let limited: { org: number; user: number; token: string };
let ana: string;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedReportsFixture(db.pool);
      // a third organisation licensed as limited@example.com: dpm and reports only
      const org = await insertOrgWithLicense(db.pool, {
        orgName: 'Limitada SA',
        sellers: [7, 8, 9],
        pivots: [5],
        currencies: ['CLP'],
        modules: ['dpm', 'reports'],
      });
      const { rows } = await db.pool.query<{ id: number }>(
        `insert into users (org_id, email, name, password_hash, pivot_id, currency)
         values ($1, 'limitada@limitada.cl', 'Limitada', 'x', 5, 'CLP') returning id`,
        [org.orgId],
      );
      limited = { org: org.orgId, user: rows[0].id, token: '' };
    },
  });
  limited.token = reportsToken(ctx.config.JWT_SECRET, limited.user, limited.org);
  ana = reportsToken(ctx.config.JWT_SECRET, fx.rep.ana, fx.rep.org);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

const today = () => isoDateInZone(new Date());
const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  ctx.app.inject({
    method,
    url,
    headers: { authorization: `JWT ${token}` },
    ...(payload ? { payload } : {}),
  });

async function waitTask(id: string, token: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call('GET', '/v1/navigation-reports/', token);
    const task = reportTasksResponse.parse(res.json()).items.find((t) => t.id === id);
    if (task && (task.status === 'succeeded' || task.status === 'failed')) return task;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${task?.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('finding 0: a report type requires the module whose data it carries', () => {
  it('a license with dpm and reports gets 403 for promotions and assortment reports and subscriptions', async () => {
    for (const report_type of ['promotions', 'assortment'] as const) {
      const res = await call('POST', '/v1/navigation-reports/', limited.token, {
        report_type,
        from_date: today(),
        to_date: today(),
      });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'module_not_licensed',
        detail: `Módulo no incluido en la licencia: ${report_type}`,
      });
      const sub = await call('POST', '/v1/subscriptions/', limited.token, {
        report_type,
        email: 'limitada@limitada.cl',
      });
      expect(sub.statusCode, sub.body).toBe(403);
    }
    // what dpm carries is still granted
    const ok = await call('POST', '/v1/navigation-reports/', limited.token, {
      report_type: 'match',
      format: 'csv',
      from_date: today(),
      to_date: today(),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await waitTask(ok.json().id, limited.token)).status).toBe('succeeded');
  });

  it('a queued task whose module left the license fails at build time with a Spanish reason', async () => {
    // the task was accepted while the license had promotions; the module is gone when the job runs
    const promo = await ctx.db.pool.query<{ id: number }>(`select l.id from licenses l where l.org_id = $1`, [
      fx.rep.org,
    ]);
    const licenseId = promo.rows[0].id;
    await ctx.app.jobRunner?.stop();
    try {
      const res = await call('POST', '/v1/navigation-reports/', ana, {
        report_type: 'promotions',
        from_date: today(),
        to_date: today(),
      });
      expect(res.statusCode, res.body).toBe(200);
      await ctx.db.pool.query(
        `delete from license_modules where license_id = $1 and module_code = 'promotions'`,
        [licenseId],
      );
      await ctx.app.jobRunner?.start();
      const task = await waitTask(res.json().id, ana);
      expect(task.status).toBe('failed');
      expect(task.error).toBe(
        'No fue posible generar el reporte: la licencia ya no incluye el módulo promotions',
      );
      expect(task.gs_url).toBeNull();
    } finally {
      await ctx.app.jobRunner?.start();
      await ctx.db.pool.query(
        `insert into license_modules (license_id, module_code) values ($1, 'promotions') on conflict do nothing`,
        [licenseId],
      );
    }
  });
});

// A process that took a report task the way the job handler does (the task's advisory lock on a
// connection of its own, claimed, 'running', a partial file on disk) and is then killed with SIGKILL.
const CRASHING_BUILDER = `
const pg = require('pg');
const fs = require('fs');
(async () => {
  const c = new pg.Client({ connectionString: process.env.DB, application_name: 'builder-' + process.env.TASK });
  c.on('error', () => {}); // its session may be ended under it (a test drops it)
  await c.connect();
  await c.query('select pg_advisory_lock(22087, hashtext($1))', [process.env.TASK]);
  await c.query("update export_tasks set claimed_at = now(), status = 'running', file_path = $2, rows_total = 1000, rows_done = 400, progress = 0.4 where id = $1", [process.env.TASK, process.env.FILE]);
  fs.mkdirSync(require('path').dirname(process.env.FILE), { recursive: true });
  fs.writeFileSync(process.env.FILE, 'PK partial');
  process.stdout.write('ready\\n');
  setInterval(() => {}, 1000);
})();
`;

/** A builder process holding a running task (see CRASHING_BUILDER), alive. */
async function runningTask(userId: number): Promise<{ id: string; file: string; child: ChildProcess }> {
  const { rows } = await ctx.db.pool.query<{ id: string }>(
    `insert into export_tasks (user_id, kind, params)
     values ($1, 'report:prices', $2::jsonb) returning id`,
    [
      userId,
      JSON.stringify({
        report_type: 'prices',
        format: 'xlsx',
        pivot: 5,
        sellers: [7],
        currency: 'CLP',
        roots: [],
        from: today(),
        to: today(),
      }),
    ],
  );
  const id = rows[0].id;
  const file = join(reportsDir(ctx.config.DATA_DIR), String(userId), `${id}.xlsx`);
  const child = spawn(process.execPath, ['-e', CRASHING_BUILDER], {
    env: { ...process.env, DB: ctx.db.url, TASK: id, FILE: file },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`builder exited ${code}`)));
  });
  // while the builder lives, its task is live: nothing settles it
  expect(
    await settleAbandonedTasks({ pool: ctx.db.pool, config: ctx.config, log: console }, userId),
  ).not.toContain(id);
  return { id, file, child };
}

/** A running task whose process was then killed with SIGKILL. */
async function crashedTask(userId: number): Promise<{ id: string; file: string }> {
  const { id, file, child } = await runningTask(userId);
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  return { id, file };
}

async function taskRow(id: string) {
  return (
    await ctx.db.pool.query<{ status: string; error: string | null; file_path: string | null }>(
      'select status, error, file_path from export_tasks where id = $1',
      [id],
    )
  ).rows[0];
}

/** Until PostgreSQL has noticed the killed client's connection (its lock is then free). */
async function untilLockFree(id: string) {
  for (let i = 0; i < 200; i++) {
    const { rows } = await ctx.db.pool.query<{ held: boolean }>(
      `select exists(select 1 from pg_locks where locktype = 'advisory' and classid = 22087
                       and objid = (hashtext($1)::bigint & 4294967295)::oid and granted) as held`,
      [id],
    );
    if (!rows[0].held) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('finding 2: tasks and jobs end together', () => {
  it('start-up fails the task a killed process left running, with a Spanish reason, and removes its partial file', async () => {
    const { id, file } = await crashedTask(fx.rep.beto);
    await untilLockFree(id);
    expect(existsSync(file)).toBe(true);
    expect((await taskRow(id)).status).toBe('running');
    // the restarted server (another app on the same database) settles it while starting
    const restarted = await buildApp({ config: ctx.config, db: { ...ctx.db, close: async () => {} } });
    try {
      await restarted.ready();
      // the worker's start-up work runs beside readiness (platform/jobs atWorkerStart), not before it
      let row = await taskRow(id);
      for (let i = 0; i < 200 && row.status === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        row = await taskRow(id);
      }
      expect(row).toEqual({ status: 'failed', error: ABANDONED_REASON, file_path: null });
      // the file goes right after the row says so
      for (let i = 0; i < 100 && existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
      expect(existsSync(file)).toBe(false);
    } finally {
      await restarted.close();
    }
  });

  it('a build whose database session ends under it (a fast shutdown, a terminated backend) is settled though its process lives', async () => {
    const { id, file, child } = await runningTask(fx.rep.beto);
    try {
      // what a PostgreSQL fast shutdown does to every session: the builder's is terminated, its lock freed
      const { rows } = await ctx.db.pool.query<{ ended: boolean }>(
        `select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1`,
        [`builder-${id}`],
      );
      expect(rows.map((r) => r.ended)).toEqual([true]);
      await untilLockFree(id);
      expect(child.exitCode).toBeNull(); // the process goes on, its task must not stay 'running'
      const settled = await settleAbandonedTasks({ pool: ctx.db.pool, config: ctx.config, log: console });
      expect(settled).toContain(id);
      expect(await taskRow(id)).toEqual({ status: 'failed', error: ABANDONED_REASON, file_path: null });
      for (let i = 0; i < 100 && existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
      expect(existsSync(file)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('report slots count only live tasks: five crashed builds do not lock the user out', async () => {
    const user = fx.rep.mxn;
    const token = reportsToken(ctx.config.JWT_SECRET, user, fx.rep.org);
    const crashed = [];
    for (let i = 0; i < MAX_ACTIVE_TASKS; i++) crashed.push(await crashedTask(user));
    for (const c of crashed) await untilLockFree(c.id);
    await ctx.app.jobRunner?.stop(); // so that the new request stays queued: it is the only live task
    try {
      const res = await call('POST', '/v1/navigation-reports/', token, {
        report_type: 'match',
        format: 'csv',
        from_date: today(),
        to_date: today(),
        currency: 'CLP',
      });
      expect(res.statusCode, res.body).toBe(200);
      for (const c of crashed) {
        expect((await taskRow(c.id)).status).toBe('failed');
        expect(existsSync(c.file)).toBe(false);
      }
    } finally {
      await ctx.app.jobRunner?.start();
    }
  });

  it('a job that cannot build its task fails the task with a reason (not queued for ever)', async () => {
    // a task whose params name no pivot: its job ends at once, and so does the task
    const { rows } = await ctx.db.pool.query<{ id: string }>(
      `insert into export_tasks (user_id, kind, params) values ($1, 'report:match', '{"report_type": "match"}'::jsonb)
       returning id`,
      [fx.rep.ana],
    );
    await enqueue(ctx.db.pool, 'report', { taskId: rows[0].id }, { maxAttempts: 1 });
    for (let i = 0; i < 400 && (await taskRow(rows[0].id)).status === 'queued'; i++)
      await new Promise((r) => setTimeout(r, 25));
    const task = await taskRow(rows[0].id);
    expect(task.status).toBe('failed');
    expect(task.error).toMatch(/^No fue posible generar el reporte: /);
  });

  it('expired-file cleanup removes a partial file left without its task', async () => {
    const { id, file } = await crashedTask(fx.rep.beto);
    await untilLockFree(id);
    // the scheduler's tick: settle, then expired files
    await settleAbandonedTasks({ pool: ctx.db.pool, config: ctx.config, log: console });
    expect((await taskRow(id)).status).toBe('failed');
    expect(existsSync(file)).toBe(false);
    // a file whose task row says nothing of it (killed before the path was recorded)
    const { id: id2 } = await crashedTask(fx.rep.beto);
    await ctx.db.pool.query('update export_tasks set file_path = null where id = $1', [id2]);
    const file2 = join(reportsDir(ctx.config.DATA_DIR), String(fx.rep.beto), `${id2}.xlsx`);
    mkdirSync(join(reportsDir(ctx.config.DATA_DIR), String(fx.rep.beto)), { recursive: true });
    writeFileSync(file2, 'partial');
    await untilLockFree(id2);
    await settleAbandonedTasks({ pool: ctx.db.pool, config: ctx.config, log: console });
    expect(existsSync(file2)).toBe(false);
  });
});

describe('finding 10: one spelling per signed link', () => {
  it('leading zeros and non-canonical base64url are refused', () => {
    const secret = ctx.config.JWT_SECRET;
    const p = { t: '0b5c6f5e-8c1a-4c3e-9a51-0f8d2c1b7a90', u: 42, e: 1_900_000_000 };
    const link = signFileLink(secret, p);
    expect(readFileLink(secret, link)).toEqual(p);
    const [t, u, e, mac] = link.split('.');
    expect(readFileLink(secret, [t, `0${u}`, e, mac].join('.'))).toBeNull();
    expect(readFileLink(secret, [t, u, `00${e}`, mac].join('.'))).toBeNull();
    expect(readFileLink(secret, [t, u, e, `${mac}=`].join('.'))).toBeNull();
    // the MAC is 18 bytes = 24 characters exactly: no spare bits; another alphabet is refused
    expect(readFileLink(secret, [t, u, e, mac.replace(/-/g, '+').replace(/_/g, '/')].join('.'))).toEqual(
      /[-_]/.test(mac) ? null : p,
    );
    expect(unsubscribeIdOf('12.abc')).toBe(12);
    expect(unsubscribeIdOf('012.abc')).toBeNull();
  });
});

describe('finding 1: deliveries check the recipient when they run', () => {
  const subscriptionOf = async (email: string) =>
    (await call('GET', `/v1/subscriptions/?email=${encodeURIComponent(email)}`, ana)).json().items[0] as {
      id: number;
      suspended: string | null;
      next_run_at: string;
    };
  const tasksOfSubscription = async (id: number) =>
    (
      await ctx.db.pool.query<{ id: string; params: { sellers: number[] } }>(
        'select id, params from export_tasks where subscription_id = $1 order by created_at',
        [id],
      )
    ).rows;

  it('a deactivated recipient’s subscription is suspended with a line in the list, and resumes when active again', async () => {
    const email = 'beto@reportes.cl';
    const res = await call('POST', '/v1/subscriptions/', ana, { report_type: 'match', email, format: 'csv' });
    expect(res.statusCode, res.body).toBe(200);
    const sub = await subscriptionOf(email);
    await ctx.db.pool.query('update users set is_active = false where id = $1', [fx.rep.beto]);
    await ctx.app.jobRunner?.stop();
    try {
      const due = new Date(Date.parse(sub.next_run_at) + 1000);
      expect(await dispatchDueSubscriptions(ctx.db.pool, ctx.config, due)).toEqual([]);
      expect(await tasksOfSubscription(sub.id)).toEqual([]);
      expect((await subscriptionOf(email)).suspended).toBe(
        'Suspendida: el usuario beto@reportes.cl está desactivado',
      );

      await ctx.db.pool.query('update users set is_active = true where id = $1', [fx.rep.beto]);
      const next = await subscriptionOf(email);
      const created = await dispatchDueSubscriptions(
        ctx.db.pool,
        ctx.config,
        new Date(Date.parse(next.next_run_at) + 1000),
      );
      expect(created).toHaveLength(1);
      expect((await subscriptionOf(email)).suspended).toBeNull();
    } finally {
      await ctx.db.pool.query('update users set is_active = true where id = $1', [fx.rep.beto]);
      await ctx.db.pool.query('delete from export_tasks where subscription_id = $1', [sub.id]);
      await ctx.app.jobRunner?.start();
    }
  });

  it('a seller gone from the license is left out of the next send; a module gone suspends it', async () => {
    const email = 'mx@reportes.cl';
    const res = await call('POST', '/v1/subscriptions/', ana, {
      report_type: 'prices',
      email,
      format: 'csv',
    });
    expect(res.statusCode, res.body).toBe(200);
    const sub = await subscriptionOf(email);
    const { rows } = await ctx.db.pool.query<{ id: number }>('select id from licenses where org_id = $1', [
      fx.rep.org,
    ]);
    const license = rows[0].id;
    await ctx.app.jobRunner?.stop();
    try {
      await ctx.db.pool.query('delete from license_sellers where license_id = $1 and seller_id = 9', [
        license,
      ]);
      const [taskId] = await dispatchDueSubscriptions(
        ctx.db.pool,
        ctx.config,
        new Date(Date.parse(sub.next_run_at) + 1000),
      );
      const task = (await tasksOfSubscription(sub.id)).find((t) => t.id === taskId)!;
      expect(task.params.sellers).toEqual([7, 8]); // subscribed with 7, 8, 9

      await ctx.db.pool.query(
        `delete from license_modules where license_id = $1 and module_code = 'reports'`,
        [license],
      );
      const next = await subscriptionOf(email).catch(() => null);
      expect(next).toBeNull(); // the list itself needs the module now (403)
      const { rows: s } = await ctx.db.pool.query<{ next_run_at: Date }>(
        'select next_run_at from report_subscriptions where id = $1',
        [sub.id],
      );
      expect(
        await dispatchDueSubscriptions(ctx.db.pool, ctx.config, new Date(s[0].next_run_at.getTime() + 1000)),
      ).toEqual([]);
      const { rows: after } = await ctx.db.pool.query<{ suspended_reason: string }>(
        'select suspended_reason from report_subscriptions where id = $1',
        [sub.id],
      );
      expect(after[0].suspended_reason).toBe('Suspendida: la licencia ya no incluye el módulo reports');
    } finally {
      await ctx.db.pool.query(
        `insert into license_sellers (license_id, seller_id) values ($1, 9) on conflict do nothing`,
        [license],
      );
      await ctx.db.pool.query(
        `insert into license_modules (license_id, module_code) values ($1, 'reports') on conflict do nothing`,
        [license],
      );
      await ctx.db.pool.query('delete from export_tasks where subscription_id = $1', [sub.id]);
      await ctx.app.jobRunner?.start();
    }
  });

  it('notifications are pushed and e-mailed only while their user is active and licensed for the module and seller', async () => {
    const insert = async (userId: number, namespace: string, sellerId: number | null) =>
      (
        await ctx.db.pool.query<{ id: string }>(
          `insert into notifications (user_id, namespace, kind, seller_id, occurred_at, channel, title, body)
           values ($1, $2, 'price_drop', $3, now(), 'email', 'Aviso', 'Un aviso') returning id`,
          [userId, namespace, sellerId],
        )
      ).rows[0].id;
    const ok = await insert(fx.rep.ana, 'prices', 7);
    const inactive = await insert(fx.rep.beto, 'prices', 7);
    const unlicensedSeller = await insert(fx.rep.ana, 'prices', 10); // 'Fuera': not in the license
    const unlicensedModule = await insert(limited.user, 'promotions', 7); // limited: no promotions
    await ctx.db.pool.query('update users set is_active = false where id = $1', [fx.rep.beto]);
    const pushed: string[] = [];
    try {
      await deliver(ctx.db.pool, ctx.config, (userId, n) => {
        pushed.push(`${userId}:${n.id}`);
      });
    } finally {
      await ctx.db.pool.query('update users set is_active = true where id = $1', [fx.rep.beto]);
    }
    expect(pushed).toEqual([`${fx.rep.ana}:${ok}`]);
    const { rows } = await ctx.db.pool.query<{ ids: string[] }>(
      `select notification_ids::text[] as ids from notification_sends where kind = 'email'`,
    );
    expect(rows.flatMap((r) => r.ids)).toEqual([String(ok)]);
    for (const id of [inactive, unlicensedSeller, unlicensedModule])
      expect(pushed.join()).not.toContain(`:${id}`);
  });
});
