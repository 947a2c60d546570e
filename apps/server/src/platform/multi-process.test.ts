import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../db/database.js';
import { createTestDatabase } from '../test/context.js';
import { tokenOf } from '../test/pricing-fixture.js';
import { type ReportsFixture, seedReportsFixture } from '../test/reports-fixture.js';
import { getJob, jobsOf } from './jobs/queue.js';
import { enqueueEmail } from './mail/index.js';

// The proof of issue 24: one PostgreSQL, two API processes and one worker, each a real server process
// (main.ts through tsx, as `node apps/server/dist/main.js --role …` would run the built one).
//
// Processes are started by `startProcess(role, env)`; `api(i)` calls API i over HTTP. To add an
// assertion after merging the other platform branches (change signal within 2 s on both APIs, a socket
// on API 2 receiving a report's progress, a password change revoking tokens everywhere, a burst to a
// full pool getting 503s), add an `it` below using the same processes.

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

interface Proc {
  role: 'api' | 'worker';
  child: ChildProcess;
  out: string[];
  port?: number;
}

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let fx: ReportsFixture;
let dataDir: string;
const secret = randomBytes(32).toString('hex');
const procs: Proc[] = [];
let apis: Proc[] = [];
let worker: Proc;
let ana: string;

function baseEnv(port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    VITEST: '', // a real server: its schedules and start-up work run
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    JWT_SECRET: secret,
    DEMO_DATA: 'none',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    WEB_DIST: '/nonexistent',
    JOBS_LEASE_SECONDS: '3',
    VIGIA_TEST_REPORT_PAUSE_MS: '4000',
  };
}

/** Starts `main.ts --role <role>` and waits until it says it is ready. */
async function startProcess(role: 'api' | 'worker', env: NodeJS.ProcessEnv = {}): Promise<Proc> {
  const port = role === 'api' ? await freePort() : 0;
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--role', role], {
    cwd: REPO,
    env: { ...baseEnv(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc: Proc = { role, child, out: [], port: role === 'api' ? port : undefined };
  procs.push(proc);
  const ready = role === 'api' ? /lista en http/ : /trabajando \(rol worker/;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${role} not ready in 90 s:\n${proc.out.join('')}`)),
      90_000,
    );
    const onData = (b: Buffer) => {
      proc.out.push(b.toString());
      if (ready.test(proc.out.join(''))) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${role} exited (${code}):\n${proc.out.join('')}`));
    });
  });
  child.removeAllListeners('exit');
  return proc;
}

async function stopProcess(p: Proc, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill(signal);
  await exited;
}

async function api(i: number, method: 'GET' | 'POST', path: string, body?: object) {
  const res = await fetch(`http://127.0.0.1:${apis[i].port}${path}`, {
    method,
    headers: { authorization: `JWT ${ana}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> & { items?: unknown[] } };
}

interface TaskItem {
  id: string;
  status: string;
  error?: string | null;
}

async function taskOn(i: number, id: string): Promise<TaskItem | undefined> {
  const res = await api(i, 'GET', '/v1/navigation-reports/');
  return (res.json.items as TaskItem[]).find((t) => t.id === id);
}

async function until<T>(
  what: string,
  f: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const isoDay = (d: Date) => d.toLocaleDateString('en-CA', { timeZone: 'America/Santiago' });
const reportBody = () => ({
  report_type: 'match',
  format: 'csv',
  from_date: isoDay(fx.t0),
  to_date: isoDay(new Date()),
  sellers: [7, 8, 9],
  currency: 'CLP',
});

beforeAll(async () => {
  db = await createTestDatabase();
  fx = await seedReportsFixture(db.pool);
  dataDir = mkdtempSync(join(tmpdir(), 'vigia-multi-'));
  ana = tokenOf(secret, fx.rep.ana, fx.rep.org);
  // one after the other: three tsx compilations at once are slow on a small machine
  apis = [await startProcess('api'), await startProcess('api')];
  worker = await startProcess('worker');
}, 300_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => stopProcess(p)));
  await db?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('two API processes and a worker on one PostgreSQL', () => {
  it('the APIs answer, hold no job runner, and the worker listens on no port', async () => {
    for (const i of [0, 1]) expect((await api(i, 'GET', '/health')).json.status).toBe('ok');
    expect(worker.out.join('')).not.toMatch(/lista en http/);
  });

  it('a report requested on API 1 is built by the worker and seen finished on API 2', async () => {
    const res = await api(0, 'POST', '/v1/navigation-reports/', reportBody());
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const id = res.json.id as string;
    const done = await until('the report on API 2', async () => {
      const t = await taskOn(1, id);
      return t && (t.status === 'succeeded' || t.status === 'failed') && t;
    });
    expect(done.status, done.error ?? '').toBe('succeeded');
  }, 60_000);

  it('a worker killed mid-report (SIGKILL) leaves no partial file; a restarted worker finishes the report', async () => {
    const res = await api(0, 'POST', '/v1/navigation-reports/', reportBody());
    expect(res.status).toBe(200);
    const id = res.json.id as string;
    // the build has started (file name recorded), and waits in the test pause
    const row = await until('the build to start', async () => {
      const { rows } = await db.pool.query<{ status: string; file_path: string | null; user_id: number }>(
        'select status, file_path, user_id from export_tasks where id = $1',
        [id],
      );
      const r = rows[0];
      return r?.status === 'running' && r.file_path ? r : undefined;
    });
    await stopProcess(worker, 'SIGKILL');
    const path = row.file_path!;
    expect(existsSync(path)).toBe(false); // no file under the task's name
    expect((await taskOn(1, id))?.status).toBe('running');

    worker = await startProcess('worker', { VIGIA_TEST_REPORT_PAUSE_MS: '0' });
    const done = await until(
      'the report after the restart',
      async () => {
        const t = await taskOn(1, id);
        return t && (t.status === 'succeeded' || t.status === 'failed') && t;
      },
      60_000,
    );
    expect(done.status, done.error ?? '').toBe('succeeded');
    expect(existsSync(path)).toBe(true);
    const dir = join(dataDir, 'reports', String(row.user_id));
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
    // one job, run twice: the killed attempt and the retry
    const jobs = (await jobsOf(db.pool, 'report')).filter(
      (j) => (j.payload as { taskId: string }).taskId === id,
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
  }, 150_000);

  it('an e-mail job is sent once, even when its worker is killed and it runs again', async () => {
    // enqueued as any process would; the worker sends it (outbox files: no SMTP_URL)
    const to = `uno-${randomBytes(3).toString('hex')}@ejemplo.cl`;
    const id = await enqueueEmail(db.pool, { to, subject: 'Una vez', text: 'hola' });
    await until('the e-mail', async () => (await getJob(db.pool, id))?.status === 'succeeded');
    // the job runs again (as after a worker died between sending and recording): nothing is sent
    await db.pool.query(`update pgboss.job set state = 'retry', start_after = now() where id = $1`, [id]);
    await db.pool.query(`select pg_notify('vigia_jobs', 'email')`);
    await until('the second run', async () => {
      const job = await getJob(db.pool, id);
      return job?.status === 'succeeded' && job.attempts === 2;
    });
    const outbox = join(dataDir, 'outbox');
    const sent = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    expect(sent.filter((f) => readFileSync(join(outbox, f), 'utf8').includes(to))).toHaveLength(1);
  }, 60_000);
});
