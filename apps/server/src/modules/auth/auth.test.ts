import { MESSAGES } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../lib/jwt.js';
import { jobsOf, waitForJob } from '../../platform/jobs/queue.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import {
  type AccountFixture,
  authHeader,
  FIXTURE_PASSWORD,
  loginAs,
  seedAccountFixture,
  tokenFor,
} from '../../test/fixtures-account.js';
import { readOutbox, resetLinkOf } from '../../test/mail.js';
import { hashResetToken } from './reset-email.js';

let ctx: TestContext;
let fx: AccountFixture;
let ip = 0;
/** A fresh client address per request, so per-IP limits only count where a test means them to. */
const nextIp = () => `10.1.${(++ip >> 8) & 255}.${ip & 255}`;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedAccountFixture(db);
    },
    env: { PUBLIC_URL: 'https://vigia.example.cl/' },
  });
});
afterAll(() => ctx?.close());

const post = (url: string, payload: unknown, remoteAddress = nextIp()) =>
  ctx.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress });
const me = (token: string) =>
  ctx.app.inject({ method: 'GET', url: '/v1/users/me/', headers: authHeader(token) });
const login = (email: string, password: string, remoteAddress?: string) =>
  post('/v1/auth-token/', { email, password }, remoteAddress);

async function emailJobs(to: string) {
  return (await jobsOf(ctx.db.pool, 'email')).filter((j) => (j.payload as { to?: string }).to === to);
}

describe('POST /v1/auth-token/', () => {
  it('returns a token and the session user', async () => {
    const res = await login('demo@example.com', FIXTURE_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toEqual({
      name: 'Usuaria Demo',
      email: 'demo@example.com',
      timezone: 'America/Santiago',
      pivot: { id: 116, name: 'Mercado Sur' },
      currency: 'CLP',
    });
    expect(body.token.split('.')).toHaveLength(3);
    expect((await me(body.token)).statusCode).toBe(200);
  });

  it('accepts the e-mail in any case and with spaces', async () => {
    const res = await login('  Demo@Example.COM ', FIXTURE_PASSWORD);
    expect(res.statusCode).toBe(200);
  });

  it('refuses a wrong password, an unknown e-mail and an inactive user alike, with no token', async () => {
    for (const [email, password] of [
      ['demo@example.com', 'wrong-password'],
      ['nobody@example.com', FIXTURE_PASSWORD],
      ['inactive@example.com', FIXTURE_PASSWORD],
    ]) {
      const res = await login(email, password);
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ code: 'invalid_credentials', detail: MESSAGES.wrongCredentials });
      expect(body.token).toBeUndefined();
      expect(body.user).toBeUndefined();
    }
  });

  it('takes as long for an unknown e-mail as for a wrong password (scrypt either way)', async () => {
    const time = async (email: string) => {
      const t = performance.now();
      await login(email, 'wrong-password-x');
      return performance.now() - t;
    };
    await time('timing@example.com'); // warm-up
    let known = 0;
    let unknown = 0;
    for (let i = 0; i < 3; i++) {
      known += await time('limited@example.com');
      unknown += await time(`nobody${i}@example.com`);
    }
    // scrypt (32 MiB) dominates both; without the dummy hash the unknown case would be ~1 ms.
    expect(unknown).toBeGreaterThan(known * 0.4);
  });

  it('names the wrong or missing field', async () => {
    const cases: [unknown, string][] = [
      [{ password: FIXTURE_PASSWORD }, 'email'],
      [{ email: 'not-an-email', password: FIXTURE_PASSWORD }, 'email'],
      [{ email: 'demo@example.com' }, 'password'],
      [{ email: 'demo@example.com', password: '' }, 'password'],
      [{ email: 'demo@example.com', password: 12345678 }, 'password'],
    ];
    for (const [payload, field] of cases) {
      const res = await post('/v1/auth-token/', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_error', field });
    }
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/v1/auth-token/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('limits attempts per e-mail (10 a minute), whatever the address they come from', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await login('ratelimit@example.com', 'wrong-password')).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    const res = await login('ratelimit@example.com', 'wrong-password');
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('rate_limited');
    expect(res.headers['retry-after']).toBeDefined();
    // another e-mail is not affected
    expect((await login('limited@example.com', FIXTURE_PASSWORD)).statusCode).toBe(200);
  });

  it('limits attempts per client address (30 a minute), whatever the e-mail', async () => {
    const address = '192.0.2.77';
    for (let i = 0; i < 30; i++) {
      const res = await login(`perip${i}@example.com`, 'wrong-password', address);
      expect(res.statusCode).toBe(400);
    }
    const res = await login('demo@example.com', FIXTURE_PASSWORD, address);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'rate_limited' });
  });
});

describe('POST /v1/auth-token-refresh/', () => {
  it('returns a new working token for a valid one', async () => {
    const token = tokenFor(ctx, fx.users.limited);
    const res = await post('/v1/auth-token-refresh/', { token });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().token;
    expect(typeof fresh).toBe('string');
    expect((await me(fresh)).statusCode).toBe(200);
  });

  it('refuses expired, tampered, foreign-key and malformed tokens with 401', async () => {
    const u = fx.users.limited;
    const expired = signToken({ sub: u.id, org: u.org_id, ver: u.token_version }, ctx.config.JWT_SECRET, -10);
    const foreign = signToken({ sub: u.id, org: u.org_id, ver: u.token_version }, 'x'.repeat(40), 3600);
    const good = tokenFor(ctx, u);
    const [h, p, s] = good.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const otherUser = Buffer.from(JSON.stringify({ ...claims, sub: fx.users.demo.id })).toString('base64url');
    const tampered = [`${h}.${otherUser}.${s}`, `${h}.${p}.${s.slice(0, -2)}xx`];
    for (const token of [expired, foreign, ...tampered, 'abc.def.ghi.jkl']) {
      const res = await post('/v1/auth-token-refresh/', { token });
      expect(res.statusCode, token).toBe(401);
      expect(res.json().token).toBeUndefined();
    }
  });

  it('refuses a revoked token (token_version changed) and an inactive user', async () => {
    const { rows } = await ctx.db.pool.query(
      `insert into users (org_id, email, name, password_hash) values ($1, 'revoked@example.com', 'R', 'x')
       returning id, org_id, token_version`,
      [fx.orgs.limited],
    );
    const token = tokenFor(ctx, rows[0]);
    expect((await post('/v1/auth-token-refresh/', { token })).statusCode).toBe(200);
    await ctx.db.pool.query('update users set token_version = token_version + 1 where id = $1', [rows[0].id]);
    expect((await post('/v1/auth-token-refresh/', { token })).statusCode).toBe(401);

    const inactive = tokenFor(ctx, fx.users.inactive);
    expect((await post('/v1/auth-token-refresh/', { token: inactive })).statusCode).toBe(401);
  });

  it('names the missing field', async () => {
    const res = await post('/v1/auth-token-refresh/', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('token');
  });
});

describe('password reset', () => {
  it('answers the same for unknown and inactive addresses, and sends nothing', async () => {
    for (const email of ['nobody-at-all@example.com', 'inactive@example.com']) {
      const res = await post('/v1/password/reset/', { email });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ detail: MESSAGES.recoverySentBody });
      expect(await emailJobs(email)).toEqual([]);
    }
    const bad = await post('/v1/password/reset/', { email: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('email');
  });

  it('runs the whole flow: e-mail in the outbox → confirm → new password works, old tokens do not', async () => {
    const user = fx.users.demo;
    const oldToken = await loginAs(ctx.app, user.email, FIXTURE_PASSWORD);
    expect((await me(oldToken)).statusCode).toBe(200);

    const res = await post('/v1/password/reset/', { email: 'DEMO@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: MESSAGES.recoverySentBody });

    const [job] = await emailJobs(user.email);
    expect(job).toBeDefined();
    const done = await waitForJob(ctx.db.pool, job.id);
    expect(done.status).toBe('succeeded');
    // the link (a secret) does not stay in the jobs table
    expect(done.payload).toEqual({ to: user.email, subject: expect.any(String), redacted: true });

    const mails = readOutbox(ctx.config.DATA_DIR);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.to).toBe('demo@example.com');
    expect(mail.subject).toBe('Vigía: restablece tu contraseña');
    expect(mail.text).toContain('Hola Usuaria Demo:');
    expect(mail.text).toContain('24 horas');
    const { url, uid, token } = resetLinkOf(mail);
    expect(url).toBe(`https://vigia.example.cl/password/reset/confirm/?uid=${user.id}&token=${token}`);
    expect(mail.html).toContain(url.replace('&', '&amp;'));
    expect(Number(uid)).toBe(user.id);
    expect(token).toHaveLength(43);

    // only the hash is stored
    const stored = await ctx.db.pool.query(
      'select token_hash, expires_at - now() as ttl from password_reset_tokens where user_id = $1 and used_at is null',
      [user.id],
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0].token_hash).toBe(hashResetToken(token));
    expect(stored.rows[0].token_hash).not.toContain(token);

    // too short a password: 400 on the field, token still usable
    const short = await post('/v1/password/reset/confirm/', { password: 'short', uid, token });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ field: 'password', code: 'validation_error' });
    expect(short.json().detail).toContain(MESSAGES.passwordTooShort);

    // wrong token, wrong uid
    for (const body of [
      // the last character changed (a token ending in 'A' must not stay the same token)
      { password: 'nueva-clave-1', uid, token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` },
      { password: 'nueva-clave-1', uid: String(fx.users.limited.id), token },
      { password: 'nueva-clave-1', uid: 'abc', token },
    ]) {
      const r = await post('/v1/password/reset/confirm/', body);
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ code: 'invalid_token', detail: MESSAGES.resetFailed });
    }

    const ok = await post('/v1/password/reset/confirm/', { password: 'nueva-clave-1', uid, token });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ detail: MESSAGES.resetDoneBody });

    // the old session is revoked; the old password no longer works; the new one does
    expect((await me(oldToken)).statusCode).toBe(401);
    expect((await post('/v1/auth-token-refresh/', { token: oldToken })).statusCode).toBe(401);
    expect((await login(user.email, FIXTURE_PASSWORD)).statusCode).toBe(400);
    const fresh = await login(user.email, 'nueva-clave-1');
    expect(fresh.statusCode).toBe(200);
    expect((await me(fresh.json().token)).statusCode).toBe(200);

    // the link cannot be used twice
    const again = await post('/v1/password/reset/confirm/', { password: 'otra-clave-22', uid, token });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('invalid_token');
    expect((await login(user.email, 'nueva-clave-1')).statusCode).toBe(200);
  });

  it('refuses an expired link and a link superseded by a newer request', async () => {
    const user = fx.users.limited;
    const tokenOf = async () => {
      const before = (await emailJobs(user.email)).length;
      expect((await post('/v1/password/reset/', { email: user.email })).statusCode).toBe(200);
      const jobs = await emailJobs(user.email);
      expect(jobs).toHaveLength(before + 1);
      await waitForJob(ctx.db.pool, jobs[before].id);
      const mine = readOutbox(ctx.config.DATA_DIR).filter((m) => m.to === user.email);
      return resetLinkOf(mine[mine.length - 1]).token;
    };
    const first = await tokenOf();
    const second = await tokenOf();
    expect(second).not.toBe(first);
    const superseded = await post('/v1/password/reset/confirm/', {
      password: 'nueva-clave-2',
      uid: String(user.id),
      token: first,
    });
    expect(superseded.statusCode).toBe(400);

    await ctx.db.pool.query(
      "update password_reset_tokens set expires_at = now() - interval '1 second' where token_hash = $1",
      [hashResetToken(second)],
    );
    const expired = await post('/v1/password/reset/confirm/', {
      password: 'nueva-clave-2',
      uid: String(user.id),
      token: second,
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe('invalid_token');
    expect((await login(user.email, FIXTURE_PASSWORD)).statusCode).toBe(200);
  });

  it('names missing confirmation fields', async () => {
    for (const [payload, field] of [
      [{ uid: '1', token: 'x' }, 'password'],
      [{ password: 'nueva-clave-1', token: 'x' }, 'uid'],
      [{ password: 'nueva-clave-1', uid: '1' }, 'token'],
    ] as const) {
      const res = await post('/v1/password/reset/confirm/', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe(field);
    }
  });

  it('limits reset requests per e-mail (5 an hour)', async () => {
    const email = 'reset-limit@example.com';
    for (let i = 0; i < 5; i++) expect((await post('/v1/password/reset/', { email })).statusCode).toBe(200);
    const res = await post('/v1/password/reset/', { email });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('rate_limited');
  });

  it('limits reset requests per client address (10 a minute)', async () => {
    const address = '192.0.2.88';
    for (let i = 0; i < 10; i++) {
      expect((await post('/v1/password/reset/', { email: `ip${i}@example.com` }, address)).statusCode).toBe(
        200,
      );
    }
    expect((await post('/v1/password/reset/', { email: 'ip-last@example.com' }, address)).statusCode).toBe(
      429,
    );
  });
});
