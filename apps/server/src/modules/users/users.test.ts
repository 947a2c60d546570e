import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import {
  type AccountFixture,
  authHeader,
  FIXTURE_PASSWORD,
  loginAs,
  seedAccountFixture,
  tokenFor,
} from '../../test/fixtures-account.js';

let ctx: TestContext;
let fx: AccountFixture;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedAccountFixture(db);
    },
  });
});
afterAll(() => ctx?.close());

const get = (token?: string) =>
  ctx.app.inject({ method: 'GET', url: '/v1/users/me/', headers: token ? authHeader(token) : {} });
const patch = (token: string, payload: unknown) =>
  ctx.app.inject({
    method: 'PATCH',
    url: '/v1/users/me/',
    headers: authHeader(token),
    payload: payload as object,
  });

describe('GET /v1/users/me/', () => {
  it('returns the profile of the signed-in user', async () => {
    const res = await get(tokenFor(ctx, fx.users.demo));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      pivot: { pk: 116, name: 'Mercado Sur' },
      pivot_pk: 116,
      name: 'Usuaria Demo',
      email: 'demo@example.com',
      currency: 'CLP',
      timezone: 'America/Santiago',
      // the organisation's zone (read-only here): the user's own timezone does not move it
      market_zone: 'America/Santiago',
      is_admin: true,
    });
  });

  it('needs a valid token', async () => {
    expect((await get()).statusCode).toBe(401);
    expect((await get('not.a.token')).statusCode).toBe(401);
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/v1/users/me/',
      headers: { authorization: `Bearer ${tokenFor(ctx, fx.users.inactive)}` },
    });
    expect(res.statusCode).toBe(401);
    expect((await get(tokenFor(ctx, { ...fx.users.demo, token_version: 99 }))).statusCode).toBe(401);
  });
});

describe('PATCH /v1/users/me/ (profile)', () => {
  it('updates any subset of pivot_pk, name, currency and timezone', async () => {
    const token = tokenFor(ctx, fx.users.demo);
    let res = await patch(token, { name: '  Ana Pérez ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Ana Pérez', pivot_pk: 116, currency: 'CLP' });
    expect(res.json().token).toBeUndefined();

    res = await patch(token, { pivot_pk: 5, currency: 'usd', timezone: 'America/Lima' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      pivot: { pk: 5, name: 'Tienda Cinco' },
      pivot_pk: 5,
      name: 'Ana Pérez',
      email: 'demo@example.com',
      currency: 'USD',
      timezone: 'America/Lima',
      market_zone: 'America/Santiago',
      is_admin: true,
    });
    expect((await get(token)).json().timezone).toBe('America/Lima');

    res = await patch(token, { pivot_pk: null });
    expect(res.json()).toMatchObject({ pivot: null, pivot_pk: null });

    res = await patch(token, {
      pivot_pk: 116,
      currency: 'CLP',
      timezone: 'America/Santiago',
      name: 'Usuaria Demo',
    });
    expect(res.statusCode).toBe(200);
    // the login answer reflects the profile
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/v1/auth-token/',
      payload: { email: 'demo@example.com', password: FIXTURE_PASSWORD },
    });
    expect(login.json().user.pivot).toEqual({ id: 116, name: 'Mercado Sur' });
  });

  it('refuses a pivot or a currency outside the license with 403', async () => {
    const token = tokenFor(ctx, fx.users.limited);
    for (const [payload, code] of [
      [{ pivot_pk: 116 }, 'pivot_not_licensed'],
      [{ pivot_pk: 300 }, 'pivot_not_licensed'],
      [{ pivot_pk: 125 }, 'pivot_not_licensed'], // a licensed competitor is not a pivot
      [{ currency: 'USD' }, 'currency_not_licensed'],
      [{ name: 'X', currency: 'PEN' }, 'currency_not_licensed'],
    ] as const) {
      const res = await patch(token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
      expect(res.json().code).toBe(code);
    }
    // nothing was changed by the refused requests
    expect((await get(token)).json()).toMatchObject({
      name: 'Usuario Limitado',
      pivot_pk: 5,
      currency: 'CLP',
    });
  });

  it('names the wrong field', async () => {
    const token = tokenFor(ctx, fx.users.limited);
    for (const [payload, field] of [
      [{ timezone: 'Marte/Olympus' }, 'timezone'],
      [{ currency: 'PESOS' }, 'currency'],
      [{ pivot_pk: 'abc' }, 'pivot_pk'],
      [{ pivot_pk: -3 }, 'pivot_pk'],
      [{ name: 'x'.repeat(151) }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ password: 'corta' }, 'password'],
      [{ password: 'suficientemente-larga', name: 'y' }, 'password'],
    ] as const) {
      const res = await patch(token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_error', field });
    }
    const unknown = await patch(token, { email: 'otro@example.com' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('validation_error');
  });

  it('needs a token', async () => {
    const res = await ctx.app.inject({ method: 'PATCH', url: '/v1/users/me/', payload: { name: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('PATCH /v1/users/me/ (password)', () => {
  it('changes the password, revokes older tokens and returns a fresh one', async () => {
    const { rows } = await ctx.db.pool.query(
      `insert into users (org_id, email, name, password_hash, pivot_id, currency)
       select org_id, 'cambio@example.com', 'Cambio', password_hash, pivot_id, currency from users where id = $1
       returning id, org_id, token_version`,
      [fx.users.limited.id],
    );
    const oldToken = await loginAs(ctx.app, 'cambio@example.com', FIXTURE_PASSWORD);
    const other = tokenFor(ctx, rows[0]);

    const res = await patch(oldToken, { password: 'una-clave-nueva' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ email: 'cambio@example.com', name: 'Cambio', pivot_pk: 5 });
    expect(typeof body.token).toBe('string');

    expect((await get(oldToken)).statusCode).toBe(401);
    expect((await get(other)).statusCode).toBe(401);
    expect((await get(body.token)).statusCode).toBe(200);

    await expect(loginAs(ctx.app, 'cambio@example.com', FIXTURE_PASSWORD)).rejects.toThrow(/400/);
    expect(await loginAs(ctx.app, 'cambio@example.com', 'una-clave-nueva')).toBeTruthy();
  });
});
