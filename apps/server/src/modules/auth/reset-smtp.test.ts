import { MESSAGES } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import {
  type AccountFixture,
  authHeader,
  FIXTURE_PASSWORD,
  loginAs,
  seedAccountFixture,
} from '../../test/fixtures-account.js';
import { readOutbox, resetLinkOf, startTestSmtpServer, type TestSmtpServer } from '../../test/mail.js';

// The password-reset flow with SMTP_URL set: the e-mail is delivered to a real SMTP server.

let ctx: TestContext;
let fx: AccountFixture;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedAccountFixture(db);
    },
    env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:8080' },
  });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

describe('password reset over SMTP', () => {
  it('delivers the link by SMTP; the link resets the password once', async () => {
    const oldToken = await loginAs(ctx.app, fx.users.limited.email);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/password/reset/',
      payload: { email: fx.users.limited.email },
    });
    expect(res.statusCode).toBe(200);
    await smtp.waitFor(1);
    const [mail] = smtp.received;
    expect(mail.envelope.to).toEqual(['limited@example.com']);
    expect(mail.subject).toBe('Vigía: restablece tu contraseña');
    const { url, uid, token } = resetLinkOf(mail);
    expect(
      url.startsWith(`http://localhost:8080/password/reset/confirm/?uid=${fx.users.limited.id}&token=`),
    ).toBe(true);
    expect(readOutbox(ctx.config.DATA_DIR)).toEqual([]); // nothing written to the outbox

    const confirm = (password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/password/reset/confirm/',
        payload: { password, uid, token },
      });
    const ok = await confirm('clave-por-smtp');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().detail).toBe(MESSAGES.resetDoneBody);
    expect((await confirm('otra-clave-smtp')).statusCode).toBe(400);

    const me = await ctx.app.inject({ method: 'GET', url: '/v1/users/me/', headers: authHeader(oldToken) });
    expect(me.statusCode).toBe(401);
    await expect(loginAs(ctx.app, fx.users.limited.email, FIXTURE_PASSWORD)).rejects.toThrow(/400/);
    expect(await loginAs(ctx.app, fx.users.limited.email, 'clave-por-smtp')).toBeTruthy();
  });
});
