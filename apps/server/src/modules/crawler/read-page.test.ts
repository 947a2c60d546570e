import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPage } from './read-page.js';

// Fixture pages served by a real HTTP server on 127.0.0.1 (never the internet).
const page = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

let server: Server;
let base: string;
const hits = new Map<string, number>();
let price = '349990';

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/flaky') {
      // 503 with Retry-After the first time, then the page
      if (hits.get(path) === 1) {
        res.writeHead(503, { 'retry-after': '0' });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(page('vtex-jsonld.html'));
    }
    if (path === '/etag') {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/html', etag: '"v1"' });
      return res.end(page('microdata.html'));
    }
    if (path === '/latin1') {
      res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' });
      return res.end(
        Buffer.from(
          '<html><head><script type="application/ld+json">{"@type":"Product","name":"Caf\xe9 Org\xe1nico","sku":"C1","offers":{"price":"4990","priceCurrency":"CLP"}}</script></head></html>',
          'latin1',
        ),
      );
    }
    if (path === '/moving') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(
        `<html><head><script type="application/ld+json">{"@type":"Product","name":"X","sku":"MV1","offers":{"price":"${price}","priceCurrency":"CLP"}}</script></head></html>`,
      );
    }
    res.writeHead(404);
    res.end('no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const opts = (extra: Partial<Parameters<typeof readPage>[1]> = {}) => ({
  seller: { country: 'CL', currency: 'CLP' },
  fetch: { allowPrivate: true },
  lastTrustedPrice: async () => null,
  sleep: async () => {},
  ...extra,
});

describe('reading a page over HTTP', () => {
  it('retries a 503 (Retry-After honoured) and then reads the page', async () => {
    const r = await readPage(`${base}/flaky`, opts());
    expect(r).toMatchObject({
      state: 'extracted',
      httpStatus: 200,
      attempts: 2,
      observation: { productId: 'RF-300-INX', salePrice: 349_990 },
    });
  });

  it('sends the validators it holds and reports a 304 as unchanged', async () => {
    const first = await readPage(`${base}/etag`, opts());
    expect(first).toMatchObject({ state: 'extracted', etag: '"v1"' });
    const again = await readPage(`${base}/etag`, opts({ etag: first.etag }));
    expect(again).toMatchObject({ state: 'unchanged', httpStatus: 304, observation: null });
  });

  it('a 404 fails with its reason, without retrying', async () => {
    const before = hits.get('/gone') ?? 0;
    expect(await readPage(`${base}/gone`, opts())).toMatchObject({
      state: 'failed',
      httpStatus: 404,
      reason: 'página no encontrada (404)',
    });
    expect(hits.get('/gone')).toBe(before + 1);
  });

  it('decodes the charset the server declares', async () => {
    expect(await readPage(`${base}/latin1`, opts())).toMatchObject({
      state: 'extracted',
      observation: { name: 'Café Orgánico' },
    });
  });

  it('a suspicious reading after a good one is refused and names the listing', async () => {
    price = '349990';
    const good = await readPage(`${base}/moving`, opts());
    expect(good.state).toBe('extracted');
    price = '3499'; // a lost digit group: 99 % below
    const bad = await readPage(
      `${base}/moving`,
      opts({ lastTrustedPrice: async (id) => (id === 'MV1' ? 349_990 : null) }),
    );
    expect(bad).toMatchObject({
      state: 'rejected',
      reason: 'caída sospechosa',
      productId: 'MV1',
      observation: null,
    });
  });

  it('refuses loopback addresses unless the setting allows them', async () => {
    expect(await readPage(`${base}/etag`, opts({ fetch: {} }))).toMatchObject({
      state: 'failed',
      reason: 'dirección no permitida',
    });
  });
});
