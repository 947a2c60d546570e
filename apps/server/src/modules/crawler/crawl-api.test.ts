import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import { type AccountFixture, seedAccountFixture, tokenFor } from '../../test/fixtures-account.js';
import { clearRobotsCache } from './run.js';

// Crawl sources through the Operaciones API: a source added on a seller, "Importar ahora" queues a crawl
// run that the app's own job worker executes against pages served on 127.0.0.1, the run's pages listed
// with their reasons, and "Reintentar fallidas" crawling only the pages that failed.

const FIX = join(import.meta.dirname, 'fixtures');
let ctx: TestContext;
let fx: AccountFixture;
let server: Server;
let base: string;
/** /vuelve answers 404 until this is true (a page that failed and then came back) */
let back = false;
/** the product page's price drops by more than 90 % (a reading the crawler must doubt) */
let doubted = false;
const hits = new Map<string, number>();

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedAccountFixture(db);
    },
    env: { FETCH_ALLOW_PRIVATE: 'true', CRAWLER_DELAY_MS: '20' },
  });
  clearRobotsCache();
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/robots.txt') return res.writeHead(200).end('User-agent: *\nDisallow: /privado\n');
    const file =
      path === '/refrigerador' || (path === '/vuelve' && back)
        ? 'vtex-jsonld.html'
        : path === '/captcha' || path === '/privado/x'
          ? 'captcha.html'
          : null;
    if (!file) return res.writeHead(404).end('no');
    const html = readFileSync(join(FIX, file), 'utf8');
    return res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(doubted ? html.replaceAll('349990', '9990') : html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await ctx?.close();
});

const api = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
  u: 'demo' | 'limited' = 'demo',
) =>
  ctx.app.inject({
    method,
    url,
    headers: { authorization: `JWT ${tokenFor(ctx, fx.users[u])}` },
    ...(payload ? { payload } : {}),
  });

async function waitRun(runId: number) {
  const end = Date.now() + 60_000;
  for (;;) {
    const res = await api('GET', '/v1/operations/runs');
    const run = res.json().items.find((r: { id: number }) => r.id === runId);
    if (run && (run.status === 'succeeded' || run.status === 'failed')) return run;
    if (Date.now() > end) throw new Error(`run ${runId} still ${run?.status}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('crawl sources on Operaciones', () => {
  let sellerId: number;
  let sourceId: number;
  let firstRun: number;

  it('validates the body (field named) and is for administrators only', async () => {
    const seller = await api('POST', '/v1/operations/sellers', {
      name: 'Tienda Sol',
      country: 'CL',
      currency: 'CLP',
    });
    expect(seller.statusCode, seller.body).toBe(200);
    sellerId = seller.json().id;
    const empty = await api('POST', '/v1/operations/crawl-sources', { seller_id: sellerId, name: 'x' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('urls');
    const bad = await api('POST', '/v1/operations/crawl-sources', {
      seller_id: sellerId,
      name: 'x',
      urls: ['ftp://a/b'],
    });
    expect(bad.statusCode).toBe(400);
    const limited = await api(
      'POST',
      '/v1/operations/crawl-sources',
      { seller_id: sellerId, name: 'x', urls: [`${base}/a`] },
      'limited',
    );
    expect(limited.statusCode).toBe(403);
  });

  it('adds a crawl source, imports now through the crawl queue, and counts its pages', async () => {
    const res = await api('POST', '/v1/operations/crawl-sources', {
      seller_id: sellerId,
      name: 'Rastreo Tienda Sol',
      urls: [
        `${base}/refrigerador`,
        `${base}/captcha`,
        `${base}/vuelve`,
        `${base}/privado/x`,
        `${base}/refrigerador`,
      ],
      sitemaps: [],
      pattern: null,
      schedule: '0 6 * * *',
    });
    expect(res.statusCode, res.body).toBe(200);
    const src = res.json();
    expect(src.kind).toBe('crawl');
    expect(src.crawl).toEqual({ urls: 4, sitemaps: [], pattern: null });
    sourceId = src.id;
    const started = await api('POST', `/v1/operations/source-imports/${sourceId}`);
    expect(started.statusCode, started.body).toBe(200);
    firstRun = started.json().run.id;
    const run = await waitRun(firstRun);
    expect(run.status).toBe('succeeded');
    expect(run.source_kind).toBe('crawl');
    expect(run.pages).toEqual({ planned: 4, fetched: 3, unchanged: 0, extracted: 1, rejected: 2, failed: 1 });
    expect(hits.get('/privado/x')).toBeUndefined(); // robots.txt honoured
    const price = await ctx.db.pool.query(
      `select lc.effective_price::float8 as p from products p join listing_current lc on lc.product_id = p.id
        where p.seller_id = $1`,
      [sellerId],
    );
    expect(price.rows.map((r) => r.p)).toEqual([349990]);
  });

  it('lists the run pages paged, by state, with reason and HTTP status', async () => {
    const all = await api('GET', `/v1/operations/run-pages/${firstRun}?page_size=2&page=2`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().total).toBe(4);
    expect(all.json().items.map((p: { seq: number }) => p.seq)).toEqual([3, 4]);
    const failed = (await api('GET', `/v1/operations/run-pages/${firstRun}?state=failed`)).json();
    expect(failed.items).toHaveLength(1);
    expect(failed.items[0]).toMatchObject({
      url: `${base}/vuelve`,
      http_status: 404,
      reason: 'página no encontrada (404)',
    });
    const rejected = (await api('GET', `/v1/operations/run-pages/${firstRun}?state=rejected`)).json();
    expect(rejected.items.map((p: { reason: string }) => p.reason)).toContain('robots.txt lo prohíbe');
    expect((await api('GET', `/v1/operations/run-pages/${firstRun}?state=nada`)).statusCode).toBe(400);
  });

  it('takes up to 100,000 pasted URLs (a body over the default limit), not one more', async () => {
    const many = Array.from({ length: 100_000 }, (_, i) => `${base}/p/${i}`);
    const ok = await api('POST', '/v1/operations/crawl-sources', {
      seller_id: sellerId,
      name: 'Catálogo entero',
      urls: many,
    });
    expect(ok.statusCode, ok.body.slice(0, 300)).toBe(200);
    expect(ok.json().crawl.urls).toBe(100_000);
    const over = await api('POST', '/v1/operations/crawl-sources', {
      seller_id: sellerId,
      name: 'Demasiadas',
      urls: [...many, `${base}/p/x`],
    });
    expect(over.statusCode).toBe(400);
    expect(over.body).toContain('urls');
    await api('DELETE', `/v1/operations/sources/${ok.json().id}`);
  }, 60_000);

  it('retries only the failed pages in a new run', async () => {
    back = true;
    const before = hits.get('/refrigerador');
    const res = await api('POST', `/v1/operations/run-retries/${firstRun}`);
    expect(res.statusCode, res.body).toBe(200);
    const run = await waitRun(res.json().run.id);
    expect(run.pages).toEqual({ planned: 1, fetched: 1, unchanged: 0, extracted: 1, rejected: 0, failed: 0 });
    expect(hits.get('/refrigerador')).toBe(before); // the others were not visited again
    const again = await api('POST', `/v1/operations/run-retries/${run.id}`);
    expect(again.statusCode).toBe(400);
  });

  it('a doubted price never reaches a screen: the listing detail keeps the trusted price and its freshness', async () => {
    const detail = async () => {
      const res = await api('POST', '/v2/detail/qmi', { productId: 'RF-300-INX', sellerId });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { min_price: number; sale_price: number; last_seen: string };
    };
    const trusted = await detail();
    expect(trusted).toMatchObject({ min_price: 349990, sale_price: 349990 });
    doubted = true; // 349,990 → 9,990: more than 90 % below the last trusted price
    try {
      const started = await api('POST', `/v1/operations/source-imports/${sourceId}`);
      expect(started.statusCode, started.body).toBe(200);
      const run = await waitRun(started.json().run.id);
      expect(run.status).toBe('succeeded');
      const rejected = (await api('GET', `/v1/operations/run-pages/${run.id}?state=rejected`)).json() as {
        items: { url: string; reason: string }[];
      };
      expect(
        rejected.items
          .filter((p) => p.reason === 'caída sospechosa')
          .map((p) => p.url)
          .sort(),
      ).toEqual([`${base}/refrigerador`, `${base}/vuelve`]);
      const after = await detail();
      // the price the screen shows is the trusted one, and its last observation did not move: the
      // freshness the screens show (priceFreshness of last_seen) tells the gap
      expect(after).toMatchObject({ min_price: 349990, sale_price: 349990, last_seen: trusted.last_seen });
    } finally {
      doubted = false;
    }
  });
});
