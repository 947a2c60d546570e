import { rmSync } from 'node:fs';
import type { ExporterServerEvents } from '@vigia/domain';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../lib/jwt.js';
import { createSecondApp, createTestContext, type TestContext } from '../../test/context.js';
import {
  type AccountFixture,
  authHeader,
  seedAccountFixture,
  tokenFor,
} from '../../test/fixtures-account.js';
import { connectionsOf, emitToUser } from './channel.js';

let ctx: TestContext;
let fx: AccountFixture;
let base: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedAccountFixture(db);
    },
  });
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(() => ctx?.close());

type ClientSocket = Socket<ExporterServerEvents>;

function open(
  opts: { token?: string; auth?: string; transports?: string[]; url?: string } = {},
): ClientSocket {
  const socket: ClientSocket = connect(opts.url ?? base, {
    path: '/socket.io',
    query: opts.token !== undefined ? { token: opts.token } : {},
    auth: opts.auth !== undefined ? { token: opts.auth } : {},
    transports: opts.transports ?? ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  return socket;
}

const connected = (s: ClientSocket) =>
  new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
const refused = (s: ClientSocket) =>
  new Promise<Error>((resolve, reject) => {
    s.once('connect', () => reject(new Error('connected, but should have been refused')));
    s.once('connect_error', resolve);
  });

/**
 * A new user connects to `url`; its password changes through the first app; its connection is closed by
 * the server. Returns the fresh token of the answer.
 */
async function passwordChangeCloses(email: string, url: string): Promise<string> {
  const { rows } = await ctx.db.pool.query(
    `insert into users (org_id, email, name, password_hash) values ($1, $2, 'S', 'x')
     returning id, org_id, token_version`,
    [fx.orgs.limited, email],
  );
  const token = tokenFor(ctx, rows[0]);
  const socket = open({ token, url });
  await connected(socket);
  const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
  const res = await ctx.app.inject({
    method: 'PATCH',
    url: '/v1/users/me/',
    headers: authHeader(token),
    payload: { password: `clave-nueva-${email}` },
  });
  expect(res.statusCode).toBe(200);
  expect(await closed).toBe('io server disconnect');
  return res.json().token;
}

describe('exporter channel', () => {
  it("connects with a valid token and receives events of its own user's room only", async () => {
    const mine = open({ token: tokenFor(ctx, fx.users.demo) });
    const mineToo = open({ token: tokenFor(ctx, fx.users.demo), transports: ['polling'] });
    const theirs = open({ auth: tokenFor(ctx, fx.users.limited) }); // socket.io's auth.token works too
    await Promise.all([connected(mine), connected(mineToo), connected(theirs)]);
    expect(await connectionsOf(ctx.app, fx.users.demo.id)).toBe(2);

    const got: unknown[] = [];
    const gotToo: unknown[] = [];
    const leaked: unknown[] = [];
    mine.on('task:progress', (p) => got.push(p));
    mineToo.on('task:progress', (p) => gotToo.push(p));
    theirs.on('task:progress', (p) => leaked.push(p));
    theirs.on('notification', (p) => leaked.push(p));

    const progress = {
      id: '6f1c2b1e-0000-4000-8000-000000000001',
      status: 'succeeded' as const,
      progress: 1,
      file_name: 'reporte.xlsx',
      size_bytes: 2048,
    };
    expect(emitToUser(ctx.app, fx.users.demo.id, 'task:progress', progress)).toBe(true);
    const notification = new Promise((resolve) => mine.once('notification', resolve));
    emitToUser(ctx.app, fx.users.demo.id, 'notification', {
      id: 1,
      namespace: 'price_change',
      title: 'Cambio de precio',
      body: 'Un producto bajó su precio',
      link: null,
      created_at: new Date(0).toISOString(),
    });
    expect(await notification).toMatchObject({ id: 1, title: 'Cambio de precio' });
    await new Promise((r) => setTimeout(r, 150));
    expect(got).toEqual([progress]);
    expect(gotToo).toEqual([progress]);
    expect(leaked).toEqual([]);
  });

  it('refuses a missing, bad, expired or revoked token', async () => {
    const u = fx.users.demo;
    const tokens = [
      undefined,
      '',
      'not-a-token',
      signToken({ sub: u.id, org: u.org_id, ver: u.token_version }, ctx.config.JWT_SECRET, -5),
      signToken({ sub: u.id, org: u.org_id, ver: u.token_version }, 'y'.repeat(40), 3600),
      tokenFor(ctx, { ...u, token_version: u.token_version + 1 }),
      tokenFor(ctx, fx.users.inactive),
    ];
    for (const token of tokens) {
      const err = await refused(open({ token }));
      expect(err.message, String(token)).toBe('unauthorized');
    }
  });

  it('closes the connections of a user whose password changes', async () => {
    const fresh = await passwordChangeCloses('socket@example.com', base);
    // the fresh token of the answer connects again
    await connected(open({ token: fresh }));
  });

  it('emitToUser is harmless for a user with no connection', () => {
    expect(emitToUser(ctx.app, 987654, 'task:progress', { id: 'x', status: 'queued', progress: 0 })).toBe(
      true,
    );
  });
});

describe('exporter channel across processes (PostgreSQL adapter)', () => {
  // A second app on the same database with its own pool, as a second API process would be.
  let second: Awaited<ReturnType<typeof createSecondApp>>;
  let secondUrl: string;
  beforeAll(async () => {
    second = await createSecondApp(ctx);
    secondUrl = await second.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => second?.close());

  const progress = {
    id: '6f1c2b1e-0000-4000-8000-000000000002',
    status: 'running' as const,
    progress: 0.5,
  };

  it('an event emitted in one process reaches the user connected to the other, and only that user', async () => {
    const onSecond = open({ token: tokenFor(ctx, fx.users.demo), url: secondUrl });
    const otherUser = open({ token: tokenFor(ctx, fx.users.limited), url: secondUrl });
    await Promise.all([connected(onSecond), connected(otherUser)]);
    const leaked: unknown[] = [];
    otherUser.on('task:progress', (p) => leaked.push(p));
    const got = new Promise((resolve) => onSecond.once('task:progress', resolve));
    // emitted by the first app (say, the process that runs the report), not the one holding the socket
    expect(emitToUser(ctx.app, fx.users.demo.id, 'task:progress', progress)).toBe(true);
    expect(await got).toEqual(progress);
    await new Promise((r) => setTimeout(r, 150));
    expect(leaked).toEqual([]);
    // the first process counts the connection held by the second
    expect(await connectionsOf(ctx.app, fx.users.demo.id)).toBe(1);
  });

  it("a password change in one process closes the user's connections in the other", async () => {
    await passwordChangeCloses('socket2@example.com', secondUrl);
  });

  it("closing one process leaves the other's connections open", async () => {
    const onFirst = open({ token: tokenFor(ctx, fx.users.demo) });
    await connected(onFirst);
    let dropped = false;
    onFirst.on('disconnect', () => {
      dropped = true;
    });
    await second.app.close();
    await new Promise((r) => setTimeout(r, 300));
    expect(dropped).toBe(false);
    const got = new Promise((resolve) => onFirst.once('task:progress', resolve));
    emitToUser(ctx.app, fx.users.demo.id, 'task:progress', progress);
    expect(await got).toEqual(progress);
  });
});

describe('exporter channel shutdown', () => {
  it('app.close() ends open connections and completes', async () => {
    const other = await createTestContext({
      seed: async (db) => {
        await seedAccountFixture(db);
      },
    });
    const url = await other.app.listen({ port: 0, host: '127.0.0.1' });
    const { rows } = await other.db.pool.query('select id, org_id, token_version from users limit 1');
    const socket: ClientSocket = connect(url, {
      query: { token: tokenFor(other, rows[0]) },
      transports: ['websocket'],
      reconnection: false,
    });
    await connected(socket);
    const closed = new Promise((resolve) => socket.once('disconnect', resolve));
    // the app's own close (the test database's drop after it is timed apart: seconds on a busy machine)
    const started = Date.now();
    await other.app.close();
    await closed;
    expect(Date.now() - started).toBeLessThan(5000);
    await other.db.close();
    rmSync(other.config.DATA_DIR, { recursive: true, force: true });
    expect(
      emitToUser(other.app, rows[0].id, 'task:progress', { id: 'x', status: 'queued', progress: 0 }),
    ).toBe(false);
  });
});
