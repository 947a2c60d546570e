import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExporterServerEvents } from '@vigia/domain';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/database.js';
import { MAX_SESSION_SECONDS, signToken, verifyToken } from '../../lib/jwt.js';
import { recheckConnections } from '../../platform/exporter/channel.js';
import { userRateLimits } from '../../plugins/user-rate-limit.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { type AccountFixture, loginAs, seedAccountFixture, tokenFor } from '../../test/fixtures-account.js';

// Issue 26 findings 8 (sockets end with their authorisation), 9 (server-side logout, refresh chain,
// maximum session) and 10 (canonical token spellings); issue 24 item 5 (revocation and sign-in
// counters shared by processes: a second server process on the same database).

const root = fileURLToPath(new URL('../../../../../', import.meta.url));
let ctx: TestContext;
let fx: AccountFixture;
let base: string;
let other: { child: ChildProcess; url: string; dir: string; output: () => string };

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedAccountFixture(db);
    },
  });
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  // another API process on the same PostgreSQL (same secret): nothing shared but the database
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'vigia-second-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: ctx.db.url,
      JWT_SECRET: ctx.config.JWT_SECRET,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DEMO_DATA: 'none',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  other = { child, url: `http://127.0.0.1:${port}`, dir, output: () => out };
  const until = Date.now() + 120_000;
  for (;;) {
    const ok = await fetch(`${other.url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until || child.exitCode !== null) throw new Error(`second server: ${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 180_000);

afterAll(async () => {
  if (other?.child.exitCode === null) {
    other.child.kill('SIGTERM');
    await new Promise((r) => other.child.once('exit', r));
  }
  if (other) rmSync(other.dir, { recursive: true, force: true });
  await ctx?.close();
});

const me = (url: string, token: string) =>
  fetch(`${url}/v1/users/me/`, { headers: { authorization: `JWT ${token}` } }).then((r) => r.status);
/** A POST to this test's own app (in-process). */
const post = (path: string, body: object, ip?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: path,
    payload: body,
    ...(ip ? { remoteAddress: ip } : {}),
  });
const postTo = (url: string, path: string, body: object) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('finding 9: logout, refresh chain, maximum session', () => {
  it('logout revokes the token and every token refreshed from it, in this process and another', async () => {
    const first = await loginAs(ctx.app, fx.users.demo.email);
    const refreshed = (await post('/v1/auth-token-refresh/', { token: first })).json().token as string;
    expect(verifyToken(refreshed, ctx.config.JWT_SECRET)?.sid).toBe(
      verifyToken(first, ctx.config.JWT_SECRET)?.sid,
    );
    const another = await loginAs(ctx.app, fx.users.demo.email); // another session of the same user
    expect(await me(base, refreshed)).toBe(200);
    expect(await me(other.url, refreshed)).toBe(200);

    const out = await post('/v1/auth-token-logout/', { token: first });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toEqual({ detail: 'Sesión cerrada' });

    for (const url of [base, other.url]) {
      expect(await me(url, first)).toBe(401);
      expect(await me(url, refreshed)).toBe(401);
      expect(await me(url, another)).toBe(200); // the other session goes on
    }
    expect((await postTo(other.url, '/v1/auth-token-refresh/', { token: refreshed })).status).toBe(401);
    // logging out again, or with an expired token, is fine
    expect((await post('/v1/auth-token-logout/', { token: first })).statusCode).toBe(200);
    expect((await post('/v1/auth-token-logout/', {})).statusCode).toBe(400);
  });

  it('a session ends MAX_SESSION_SECONDS after login, whatever the refreshes', async () => {
    const u = fx.users.demo;
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: u.id, org: u.org_id, ver: u.token_version, sid: 'c2Vzc2lvbi1hbnRpZ3Vh' };
    // started almost MAX ago: a refresh gives a token that ends with the session, not 12 h later
    const old = signToken({ ...claims, sat: now - MAX_SESSION_SECONDS + 60 }, ctx.config.JWT_SECRET, 3600);
    const res = await post('/v1/auth-token-refresh/', { token: old });
    expect(res.statusCode, res.body).toBe(200);
    const exp = verifyToken(res.json().token, ctx.config.JWT_SECRET)!.exp;
    expect(exp).toBeLessThanOrEqual(now - MAX_SESSION_SECONDS + 60 + MAX_SESSION_SECONDS);
    // past it: refused, even with an unexpired exp
    const ancient = signToken({ ...claims, sat: now - MAX_SESSION_SECONDS - 1 }, ctx.config.JWT_SECRET, 3600);
    expect((await post('/v1/auth-token-refresh/', { token: ancient })).statusCode).toBe(401);
    expect(await me(base, ancient)).toBe(401);
  });

  it('a password change in one process revokes the older tokens in the other', async () => {
    const token = tokenFor(ctx, fx.users.limited);
    expect(await me(other.url, token)).toBe(200);
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: '/v1/users/me/',
      headers: { authorization: `JWT ${token}` },
      payload: { password: 'otra-clave-123' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await me(other.url, token)).toBe(401);
    expect(await me(other.url, res.json().token)).toBe(200);
  });
});

describe('issue 24 item 5: sign-in limits are counted once for every process', () => {
  it('failed logins of one e-mail spread over two processes share the limit of 10 a minute', async () => {
    const email = fx.users.inactive.email;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const url = i % 2 ? other.url : base;
      statuses.push((await postTo(url, '/v1/auth-token/', { email, password: 'mala-clave' })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const last = await postTo(base, '/v1/auth-token/', { email, password: 'mala-clave' });
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('issue 26 item 6 / issue 24: per-user limits with two API processes', () => {
  it("exports of one user spread over two processes share one budget (30 a minute); cheap reads are each process's", async () => {
    const limits = userRateLimits(1200); // both processes run the default USER_RATE_LIMIT_PER_MINUTE
    // its current token version (a test above changes its password)
    const u = fx.users.limited;
    const { rows } = await ctx.db.pool.query<{ token_version: number }>(
      'select token_version from users where id = $1',
      [u.id],
    );
    const token = tokenFor(ctx, { ...u, token_version: rows[0].token_version });
    // an export-class route (a feed run's rejections CSV): refused by its handler (not an administrator),
    // after the user's limit has counted it
    const rejections = (url: string) =>
      fetch(`${url}/v1/operations/run-rejections/1`, { headers: { authorization: `JWT ${token}` } });
    const statuses: number[] = [];
    for (let i = 0; i < limits.export + 2; i++)
      statuses.push((await rejections(i % 2 ? other.url : base)).status);
    expect(statuses.slice(0, limits.export).filter((s) => s === 429)).toEqual([]);
    expect(statuses.slice(limits.export)).toEqual([429, 429]);
    for (const url of [base, other.url]) {
      const res = await rejections(url);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // cheap reads are counted in each process's memory: this process's budget spent, the other's is whole
    for (let i = 0; i < limits.read; i++)
      await ctx.app.inject({
        method: 'GET',
        url: '/v1/users/me/',
        headers: { authorization: `JWT ${token}` },
      });
    expect(await me(base, token)).toBe(429);
    expect(await me(other.url, token)).toBe(200);
  }, 120_000);
});

type ClientSocket = Socket<ExporterServerEvents>;
function open(token: string): Promise<ClientSocket> {
  const s: ClientSocket = connect(base, {
    path: '/socket.io',
    query: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}
const closedWithin = (s: ClientSocket, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (!s.connected) return resolve(true);
    const t = setTimeout(() => resolve(false), ms);
    s.once('disconnect', () => {
      clearTimeout(t);
      resolve(true);
    });
  });

describe('finding 8: sockets end with their authorisation', () => {
  it('a socket is closed when its token expires', async () => {
    const u = fx.users.demo;
    const short = signToken({ sub: u.id, org: u.org_id, ver: u.token_version }, ctx.config.JWT_SECRET, 2);
    const s = await open(short);
    expect(await closedWithin(s, 4000)).toBe(true);
  });

  it('a socket is closed on logout of its session, and when its user is deactivated', async () => {
    const token = await loginAs(ctx.app, fx.users.demo.email);
    const s = await open(token);
    const keeps = await open(await loginAs(ctx.app, fx.users.demo.email));
    const closed = closedWithin(s, 3000);
    await post('/v1/auth-token-logout/', { token });
    expect(await closed).toBe(true);
    expect(keeps.connected).toBe(true);

    await ctx.db.pool.query('update users set is_active = false where id = $1', [fx.users.demo.id]);
    try {
      const gone = closedWithin(keeps, 3000);
      // the periodic check (every SOCKET_RECHECK_MS), run now
      expect(await recheckConnections(ctx.app)).toBe(1);
      expect(await gone).toBe(true);
    } finally {
      await ctx.db.pool.query('update users set is_active = true where id = $1', [fx.users.demo.id]);
    }
  });

  it('a logout in another process closes the socket at the next check', async () => {
    const token = await loginAs(ctx.app, fx.users.demo.email);
    const s = await open(token);
    expect((await postTo(other.url, '/v1/auth-token-logout/', { token })).status).toBe(200);
    const closed = closedWithin(s, 3000);
    expect(await recheckConnections(ctx.app)).toBe(1);
    expect(await closed).toBe(true);
  });
});

describe('finding 10: one spelling per token', () => {
  it('non-canonical base64url (padding, stray bits, other alphabet) is refused', async () => {
    const token = await loginAs(ctx.app, fx.users.demo.email);
    expect(await me(base, token)).toBe(200);
    const [h, p, s] = token.split('.');
    // a signature of 32 bytes is 43 characters: the last one carries 2 spare bits
    const last = s.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[(alphabet.indexOf(last) & ~3) | ((alphabet.indexOf(last) + 1) & 3)];
    expect(Buffer.from(`${s.slice(0, -1)}${sibling}`, 'base64url')).toEqual(Buffer.from(s, 'base64url'));
    const variants = [
      `${h}.${p}.${s.slice(0, -1)}${sibling}`, // same bytes, other spelling
      `${h}.${p}.${s}=`,
      `${h}.${p}=.${s}`,
      `${h}.${p}.${s.replace(/-/g, '+').replace(/_/g, '/')}`,
    ].filter((v) => v !== token);
    for (const v of variants) expect(await me(base, v), v).toBe(401);
  });
});

describe('finding 10: security headers', () => {
  it('every answer carries Content-Security-Policy, X-Frame-Options and X-Content-Type-Options', async () => {
    for (const url of ['/health', '/v1/users/me/', '/app/reports', '/no-such-file.js']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
    }
  });
});
