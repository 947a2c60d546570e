import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../../platform/jobs/index.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { type AccountFixture, seedAccountFixture, tokenFor } from '../../test/fixtures-account.js';
import { FEEDS_TICK_QUEUE } from './jobs.js';

// Operaciones end to end through the API: fixtures served by a local HTTP server on 127.0.0.1, imports
// run by the app's own job worker, data checked in the database.

const FIX = join(import.meta.dirname, 'fixtures');
let ctx: TestContext;
let fx: AccountFixture;
let server: Server;
let base: string;
/** Mutable feed served at /dyn.xml (no validators: every GET gets the body). */
let dynamic = '';

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedAccountFixture(db);
      await db.pool.query(
        `insert into currencies (acronym, name, decimals) values ('MXN', 'Peso mexicano', 2) on conflict do nothing;
         insert into countries (code, name, flag, currency) values ('MX', 'México', 'MX', 'MXN') on conflict do nothing`,
      );
    },
    env: { FETCH_ALLOW_PRIVATE: 'true', FEED_MAX_BYTES: '200000', INGEST_RATE_LIMIT_PER_MINUTE: '5' },
  });
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/dyn.xml') return res.writeHead(200, { 'content-type': 'application/xml' }).end(dynamic);
    if (path === '/big.xml') return res.writeHead(200).end(`<rss>${' '.repeat(300_000)}</rss>`);
    const m = /^\/(etag|plain)\/([\w.-]+)$/.exec(path);
    if (m) {
      let body: Buffer;
      try {
        body = readFileSync(join(FIX, m[2]));
      } catch {
        return res.writeHead(404).end();
      }
      if (m[1] === 'etag') {
        const tag = `"${createHash('sha1').update(body).digest('hex')}"`;
        if (req.headers['if-none-match'] === tag) return res.writeHead(304).end();
        return res.writeHead(200, { etag: tag }).end(body);
      }
      return res.writeHead(200).end(body);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await ctx?.close();
});

const auth = (u: keyof AccountFixture['users'] = 'demo') => ({
  authorization: `JWT ${tokenFor(ctx, fx.users[u])}`,
});
const api = async (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  u?: 'demo' | 'limited',
) => {
  const res = await ctx.app.inject({
    method,
    url,
    headers: auth(u),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return res;
};

async function waitRun(runId: number) {
  const end = Date.now() + 30_000;
  for (;;) {
    const { rows } = await ctx.db.pool.query('select * from import_runs where id = $1', [runId]);
    if (rows[0] && (rows[0].status === 'succeeded' || rows[0].status === 'failed')) return rows[0];
    if (Date.now() > end) throw new Error(`run ${runId} still ${rows[0]?.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function importNow(sourceId: number) {
  const res = await api('POST', `/v1/operations/source-imports/${sourceId}`);
  expect(res.statusCode).toBe(200);
  return waitRun(res.json().run.id);
}

async function addUrlSource(sellerId: number, url: string, extra: Record<string, unknown> = {}) {
  const res = await api('POST', '/v1/operations/sources', {
    seller_id: sellerId,
    name: `Feed ${url}`,
    origin: 'url',
    url,
    format: 'merchant-xml',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number };
}

/** Registers a seller on Operaciones; returns its id. */
async function registerSeller(name: string, country: string, currency: string): Promise<number> {
  const res = await api('POST', '/v1/operations/sellers', {
    name,
    country,
    currency,
    url: `https://${country.toLowerCase()}-${currency.toLowerCase()}.example`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
}

const listing = async (sellerId: number, productId: string) =>
  (
    await ctx.db.pool.query(
      `select p.name, p.published, lc.normal_price::float8 as normal, lc.sale_price::float8 as sale, lc.stock_out
         from products p join listing_current lc on lc.product_id = p.id
        where p.seller_id = $1 and p.product_id = $2`,
      [sellerId, productId],
    )
  ).rows[0];
const intervals = async (sellerId: number) =>
  Number(
    (
      await ctx.db.pool.query(
        'select count(*) from price_intervals pi join products p on p.id = pi.product_id where p.seller_id = $1',
        [sellerId],
      )
    ).rows[0].count,
  );

describe('who may use Operaciones', () => {
  it('administrators only; the limited account is not one', async () => {
    expect((await api('GET', '/v1/operations/sellers', undefined, 'limited')).statusCode).toBe(403);
    expect((await api('GET', '/v1/operations/sources', undefined, 'limited')).json().code).toBe('not_admin');
    const res = await api('GET', '/v1/operations/sellers');
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((s: { id: number }) => s.id)).toContain(116);
    expect((await api('GET', '/v1/users/me/')).json().is_admin).toBe(true);
    expect((await api('GET', '/v1/users/me/', undefined, 'limited')).json().is_admin).toBe(false);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/operations/sellers' })).statusCode).toBe(401);
  });

  it('validates input with the schema (400 naming the field)', async () => {
    const res = await api('POST', '/v1/operations/sources', {
      seller_id: 116,
      name: 'x',
      origin: 'url',
      format: 'merchant-xml',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('url');
    const cron = await api('POST', '/v1/operations/sources', {
      seller_id: 116,
      name: 'x',
      origin: 'upload',
      format: 'csv',
      schedule: '99 * * * *',
    });
    expect(cron.statusCode).toBe(400);
    expect(cron.json().field).toBe('schedule');
    const foreign = await api('POST', '/v1/operations/sources', {
      seller_id: 300,
      name: 'x',
      origin: 'upload',
      format: 'csv',
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().field).toBe('seller_id');
  });
});

describe('feed import from a URL', () => {
  it('imports a Merchant RSS feed: prices exact, rejected rows with line and reason, CSV neutralised', async () => {
    const src = await addUrlSource(116, `${base}/plain/merchant-rss.xml`);
    const run = await importNow(src.id);
    expect(run).toMatchObject({
      status: 'succeeded',
      rows_read: 6,
      rows_written: 3,
      rows_rejected: 3,
      error: null,
    });
    expect(await listing(116, 'SUR-001')).toMatchObject({
      normal: 1299990,
      sale: null,
      stock_out: false,
      published: true,
    });
    expect(await listing(116, 'SUR-002')).toMatchObject({ normal: 89990, sale: 69990 });
    expect(await listing(116, 'SUR-003')).toMatchObject({ stock_out: true });
    expect(await listing(116, 'SUR-004')).toBeUndefined(); // USD row: rejected, never converted

    const csv = await api('GET', `/v1/operations/run-rejections/${run.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.body.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'línea;id;motivo',
      '43;SUR-004;"moneda USD distinta de la del eCommerce (CLP); no se convierte"',
      '49;SUR-005;falta el precio',
      '54;;falta el id',
      '',
    ]);

    // The same feed again changes nothing.
    const before = await intervals(116);
    const again = await importNow(src.id);
    expect(again).toMatchObject({ status: 'succeeded', rows_written: 3, rows_changed: 0, unpublished: 0 });
    expect(await intervals(116)).toBe(before);

    const runs = await api('GET', `/v1/operations/runs?source_id=${src.id}`);
    expect(runs.json().items).toHaveLength(2);
    expect(runs.json().items[0].duration_ms).toBeGreaterThanOrEqual(0);
    const sellers = (await api('GET', '/v1/operations/sellers')).json().items;
    expect(sellers.find((s: { id: number }) => s.id === 116)).toMatchObject({ stale: false });
    expect(sellers.find((s: { id: number }) => s.id === 125).last_import_at).toBeNull();
  });

  it('asks again with the ETag: a 304 changes nothing and counts as fresh', async () => {
    const src = await addUrlSource(125, `${base}/etag/merchant-rss.xml`, { mode: 'delta' });
    const first = await importNow(src.id);
    expect(first).toMatchObject({ status: 'succeeded', rows_written: 3 });
    const second = await importNow(src.id);
    expect(second).toMatchObject({ status: 'succeeded', rows_read: 0, rows_written: 0, ingest_run_id: null });
  });

  it('a full feed unpublishes what it no longer lists; a delta does not', async () => {
    const item = (id: string, price: string) =>
      `<item><g:id>${id}</g:id><g:title>${id}</g:title><g:price>${price}</g:price></item>`;
    const feed = (...items: string[]) =>
      `<?xml version="1.0"?><rss xmlns:g="http://base.google.com/ns/1.0"><channel>${items.join('')}</channel></rss>`;
    const mx = await registerSeller('Competidor MX', 'MX', 'MXN');
    expect(mx).toBeGreaterThanOrEqual(100000);
    const full = await addUrlSource(mx, `${base}/dyn.xml`, { mode: 'full' });
    dynamic = feed(item('A', '100.00 MXN'), item('B', '200.50 MXN'), item('C', '300 MXN'));
    expect(await importNow(full.id)).toMatchObject({ status: 'succeeded', rows_written: 3 });
    expect(await listing(mx, 'B')).toMatchObject({ normal: 200.5 });
    dynamic = feed(item('A', '100.00 MXN'), item('B', '199.90 MXN'));
    expect(await importNow(full.id)).toMatchObject({ status: 'succeeded', rows_changed: 1, unpublished: 1 });
    expect((await listing(mx, 'C')).published).toBe(false);

    await api('PATCH', `/v1/operations/sources/${full.id}`, { mode: 'delta' });
    dynamic = feed(item('C', '300 MXN'));
    expect(await importNow(full.id)).toMatchObject({ status: 'succeeded', unpublished: 0 });
    expect((await listing(mx, 'A')).published).toBe(true);
    expect((await listing(mx, 'C')).published).toBe(true);
  });

  it('a feed that fails as a whole changes nothing and says why', async () => {
    const before = await intervals(116);
    const cases: [string, RegExp][] = [
      [`${base}/plain/not-a-feed.xml`, /no es un feed|no es XML/],
      [`${base}/plain/empty-channel.xml`, /no tiene productos/],
      [`${base}/plain/missing.xml`, /404/],
      [`${base}/big.xml`, /límite/],
      ['http://127.0.0.1:1/feed.xml', /no se pudo descargar/],
    ];
    for (const [url, reason] of cases) {
      const src = await addUrlSource(116, url);
      const run = await importNow(src.id);
      expect(run.status, url).toBe('failed');
      expect(run.error, url).toMatch(reason);
    }
    // a full feed whose every row is rejected does not unpublish the catalogue
    dynamic = `<rss xmlns:g="http://base.google.com/ns/1.0"><channel><item><g:id>X</g:id><g:price>5 USD</g:price></item></channel></rss>`;
    const src = await addUrlSource(116, `${base}/dyn.xml`);
    expect(await importNow(src.id)).toMatchObject({ status: 'failed', rows_rejected: 1 });
    expect(await intervals(116)).toBe(before);
    expect((await listing(116, 'SUR-001')).published).toBe(true);
  });
});

describe('scheduled URL sources', () => {
  it('a source whose cron is due is imported by the feeds-tick job; the cron is read in the organisation zone', async () => {
    await ctx.db.pool.query(`update organisations set market_zone = 'America/Mexico_City' where id = $1`, [
      fx.orgs.demo,
    ]);
    try {
      const sellerId = await registerSeller('Tienda programada', 'CL', 'CLP');
      // 06:30 in Mexico City (UTC−6 all year, no DST since 2022) is 12:30 UTC: the next one after now.
      const next0630 = () => {
        const now = new Date();
        const t = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12, 30);
        return new Date(t > now.getTime() ? t : t + 86_400_000).toISOString();
      };
      const nextRun = async (id: number) =>
        (
          await ctx.db.pool.query<{ at: Date }>(
            'select next_run_at as at from import_sources where id = $1',
            [id],
          )
        ).rows[0].at.toISOString();
      const before = next0630();
      const due = await addUrlSource(sellerId, `${base}/plain/merchant-rss.xml`, { schedule: '30 6 * * *' });
      expect([before, next0630()]).toContain(await nextRun(due.id));
      const notDue = await addUrlSource(sellerId, `${base}/plain/merchant-rss.xml`, {
        schedule: '0 3 * * *',
      });
      // 03:00 in Mexico City = 09:00 UTC
      const n = new Date(await nextRun(notDue.id));
      expect([n.getUTCHours(), n.getUTCMinutes()]).toEqual([9, 0]);

      // The first source's time comes; the tick (the worker's every-minute schedule, enqueued here at once)
      // queues its run, which the worker imports.
      await ctx.db.pool.query(
        `update import_sources set next_run_at = now() - interval '1 minute' where id = $1`,
        [due.id],
      );
      const t0 = next0630();
      await enqueue(ctx.db.pool, FEEDS_TICK_QUEUE, {});
      const end = Date.now() + 30_000;
      let runId: number | undefined;
      while (!runId && Date.now() < end) {
        const { rows } = await ctx.db.pool.query('select id from import_runs where source_id = $1', [due.id]);
        runId = rows[0]?.id;
        if (!runId) await new Promise((r) => setTimeout(r, 100));
      }
      expect(runId).toBeDefined();
      const run = await waitRun(Number(runId));
      expect(run).toMatchObject({
        status: 'succeeded',
        trigger: 'schedule',
        rows_read: 6,
        rows_written: 3,
        rows_rejected: 3,
      });
      expect(await listing(sellerId, 'SUR-002')).toMatchObject({ normal: 89990, sale: 69990 });
      // the source's next run is its next 06:30 in the zone again; the other source was not run
      expect([t0, next0630()]).toContain(await nextRun(due.id));
      const { rows } = await ctx.db.pool.query(
        'select count(*)::int n from import_runs where source_id = $1',
        [notDue.id],
      );
      expect(rows[0].n).toBe(0);
    } finally {
      await ctx.db.pool.query(`update organisations set market_zone = 'America/Santiago' where id = $1`, [
        fx.orgs.demo,
      ]);
    }
  });
});

describe('uploaded CSV with a column mapping', () => {
  it('uploads, previews with the mapping applied, imports', async () => {
    const created = await api('POST', '/v1/operations/sources', {
      seller_id: 5,
      name: 'Planilla Latin-1',
      origin: 'upload',
      format: 'csv',
      mode: 'delta',
    });
    const id = created.json().id;
    const up = await ctx.app.inject({
      method: 'PUT',
      url: `/v1/operations/source-files/${id}`,
      headers: { ...auth(), 'content-type': 'application/octet-stream', 'x-file-name': 'lista.csv' },
      payload: readFileSync(join(FIX, 'spanish-latin1.csv')),
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().has_file).toBe(true);

    const guessed = await api('POST', `/v1/operations/source-previews/${id}`, {});
    expect(guessed.statusCode, guessed.body).toBe(200);
    expect(guessed.json().columns).toContain('Nombre del producto');
    expect(guessed.json().mapping).toMatchObject({ id: 'Código', price: 'Precio', gtin: 'EAN' });

    const mapping = {
      id: 'Código',
      title: 'Nombre del producto',
      price: 'Precio',
      sale_price: 'Precio oferta',
    };
    const preview = await api('POST', `/v1/operations/source-previews/${id}`, { mapping });
    const rows = preview.json().rows;
    expect(rows[0]).toMatchObject({
      line: 2,
      product_id: 'CL-1',
      title: 'Cafetera Ñandú Express',
      price: '1299990',
      error: null,
    });
    expect(rows[2]).toMatchObject({ line: 4, error: expect.stringMatching(/decimales/) });
    expect((await api('PATCH', `/v1/operations/sources/${id}`, { mapping })).json().mapping).toEqual(mapping);

    const run = await importNow(id);
    expect(run).toMatchObject({ status: 'succeeded', rows_read: 6, rows_written: 3, rows_rejected: 3 });
    expect(await listing(5, 'CL-2')).toMatchObject({
      name: 'Hervidor eléctrico "Pingüino"',
      normal: 24990,
      sale: 19990,
    });
  });

  it('refuses an upload past the size limit', async () => {
    const created = await api('POST', '/v1/operations/sources', {
      seller_id: 5,
      name: 'Grande',
      origin: 'upload',
      format: 'csv',
    });
    const up = await ctx.app.inject({
      method: 'PUT',
      url: `/v1/operations/source-files/${created.json().id}`,
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(300_000, 65),
    });
    expect(up.statusCode).toBe(413);
  });
});

describe('API keys and POST /v1/ingest/observations', () => {
  const push = (key: string | null, sellerId: number, payload: unknown, type = 'application/json') =>
    ctx.app.inject({
      method: 'POST',
      url: `/v1/ingest/observations?seller_id=${sellerId}`,
      headers: { 'content-type': type, ...(key ? { authorization: `ApiKey ${key}` } : {}) },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('creates a key shown once and stored hashed; scoped to sellers; revocable; last use recorded', async () => {
    const created = await api('POST', '/v1/operations/api-keys', { name: 'ERP', seller_ids: [116] });
    expect(created.statusCode, created.body).toBe(200);
    const { key, item } = created.json();
    expect(key).toMatch(/^vk_[0-9a-f]{8}_/);
    const { rows } = await ctx.db.pool.query('select * from api_keys where id = $1', [item.id]);
    expect(rows[0].key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(rows[0])).not.toContain(key.slice(12));
    expect(JSON.stringify((await api('GET', '/v1/operations/api-keys')).json())).not.toContain(key.slice(12));
    expect(item.last_used_at).toBeNull();

    const res = await push(key, 116, {
      rows: [
        { id: 'API-1', title: 'Por API', price: '15990 CLP', availability: 'in stock' },
        { id: '=1+1', price: '10 USD' },
        { id: 'API-2', price: 12 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      accepted: 1,
      rejected: 2,
      results: [
        { line: 1, id: 'API-1', status: 'accepted' },
        { line: 2, id: '=1+1', status: 'rejected', reason: expect.stringMatching(/moneda USD/) },
        { line: 3, status: 'rejected', reason: expect.stringMatching(/price/) },
      ],
    });
    expect(await listing(116, 'API-1')).toMatchObject({ normal: 15990 });
    const csv = await api('GET', `/v1/operations/run-rejections/${res.json().run_id}`);
    expect(csv.body).toContain('\r\n2;"\'=1+1";');

    const nd = await push(
      key,
      116,
      '{"id":"API-3","price":"990 CLP"}\n{"id":"API-4","price":"5 PEN"}\n',
      'application/x-ndjson',
    );
    expect(nd.json()).toMatchObject({ accepted: 1, rejected: 1 });
    const broken = await push(
      key,
      116,
      '{"id":"API-5","price":"990 CLP"}\n{not json}\n',
      'application/x-ndjson',
    );
    expect(broken.statusCode).toBe(400);
    expect(broken.json().detail).toMatch(/línea 2/);
    expect(await listing(116, 'API-5')).toBeUndefined();

    expect((await push(key, 125, { rows: [{ id: 'X', price: '1 CLP' }] })).statusCode).toBe(403);
    expect((await push(null, 116, { rows: [{ id: 'X', price: '1 CLP' }] })).statusCode).toBe(401);
    expect(
      (await push(`${key.slice(0, 12)}${'A'.repeat(43)}`, 116, { rows: [{ id: 'X', price: '1 CLP' }] }))
        .statusCode,
    ).toBe(401);
    const used = (await api('GET', '/v1/operations/api-keys'))
      .json()
      .items.find((k: { id: number }) => k.id === item.id);
    expect(used.last_used_at).not.toBeNull();

    expect((await api('DELETE', `/v1/operations/api-keys/${item.id}`)).statusCode).toBe(200);
    expect((await push(key, 116, { rows: [{ id: 'X', price: '1 CLP' }] })).statusCode).toBe(401);
    // A key cannot be scoped to a seller outside the license.
    expect((await api('POST', '/v1/operations/api-keys', { name: 'x', seller_ids: [300] })).statusCode).toBe(
      400,
    );
  });

  it('is rate limited per key', async () => {
    const { key } = (
      await api('POST', '/v1/operations/api-keys', { name: 'Ráfaga', seller_ids: [116] })
    ).json();
    const codes: number[] = [];
    for (let i = 0; i < 7; i++)
      codes.push((await push(key, 116, { rows: [{ id: `R${i}`, price: '100 CLP' }] })).statusCode);
    expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(codes.slice(5)).toEqual([429, 429]);
  });
});
