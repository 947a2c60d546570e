import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError, isPrivateAddress, safeFetch } from './safe-fetch.js';

let server: Server;
let base: string;
const seen: { url: string; headers: Record<string, unknown> }[] = [];
const BODY = 'id\tprice\n'.padEnd(5000, 'x');

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/plain') {
      if (req.headers['if-none-match'] === '"v1"') return res.writeHead(304).end();
      return res.writeHead(200, { etag: '"v1"', 'last-modified': 'Tue, 24 Nov 2026 10:00:00 GMT' }).end(BODY);
    }
    if (u.pathname === '/gzip')
      return res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(BODY));
    if (u.pathname === '/br')
      return res.writeHead(200, { 'content-encoding': 'br' }).end(zlib.brotliCompressSync(BODY));
    if (u.pathname === '/bomb')
      return res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(Buffer.alloc(20_000_000)));
    if (u.pathname === '/loop')
      return res.writeHead(302, { location: `/loop?n=${Number(u.searchParams.get('n') ?? 0) + 1}` }).end();
    if (u.pathname === '/to-plain') return res.writeHead(301, { location: '/plain' }).end();
    if (u.pathname === '/to-ftp') return res.writeHead(302, { location: 'ftp://example.com/feed.xml' }).end();
    if (u.pathname === '/slow') {
      res.writeHead(200);
      res.write('a');
      return setTimeout(() => res.end('b'), 2000);
    }
    res.writeHead(404).end('no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const codeOf = async (p: Promise<unknown>) => {
  try {
    const r = (await p) as { body?: NodeJS.ReadableStream };
    if (r?.body) await text(r.body);
    return 'ok';
  } catch (err) {
    return err instanceof FetchError ? err.code : String(err);
  }
};

describe('safeFetch', () => {
  it('refuses loopback, private and link-local addresses unless allowed, and non-http schemes', async () => {
    expect(await codeOf(safeFetch(`${base}/plain`))).toBe('private_address');
    expect(await codeOf(safeFetch('http://localhost:1/'))).toBe('private_address');
    expect(await codeOf(safeFetch('http://169.254.169.254/latest/meta-data/'))).toBe('private_address');
    expect(await codeOf(safeFetch('http://[::1]/'))).toBe('private_address');
    expect(await codeOf(safeFetch('file:///etc/passwd'))).toBe('scheme');
    expect(await codeOf(safeFetch(`${base}/to-ftp`, { allowPrivate: true }))).toBe('scheme');
    for (const a of [
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '::ffff:10.0.0.1',
      'fe80::1',
      'fd00::1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '200.1.2.3', '2606:4700::1111']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('follows a bounded number of redirects', async () => {
    const r = await safeFetch(`${base}/to-plain`, { allowPrivate: true });
    expect(r.url).toBe(`${base}/plain`);
    expect(await text(r.body)).toBe(BODY);
    expect(await codeOf(safeFetch(`${base}/loop`, { allowPrivate: true, maxRedirects: 3 }))).toBe(
      'too_many_redirects',
    );
  });

  it('answers 304 to a request with the ETag it gave, and sends the validators', async () => {
    const first = await safeFetch(`${base}/plain`, { allowPrivate: true });
    await text(first.body);
    expect(first.etag).toBe('"v1"');
    const again = await safeFetch(`${base}/plain`, {
      allowPrivate: true,
      etag: first.etag,
      lastModified: first.lastModified,
    });
    expect(again.notModified).toBe(true);
    expect(seen.at(-1)?.headers['if-modified-since']).toBe('Tue, 24 Nov 2026 10:00:00 GMT');
  });

  it('decompresses gzip and br; limits the decompressed size; times out', async () => {
    for (const p of ['/gzip', '/br']) {
      const r = await safeFetch(`${base}${p}`, { allowPrivate: true });
      expect(await text(r.body)).toBe(BODY);
    }
    expect(seen.at(-1)?.headers['accept-encoding']).toBe('gzip, br');
    expect(await codeOf(safeFetch(`${base}/bomb`, { allowPrivate: true, maxBytes: 1_000_000 }))).toBe(
      'too_large',
    );
    expect(await codeOf(safeFetch(`${base}/plain`, { allowPrivate: true, maxBytes: 1000 }))).toBe(
      'too_large',
    );
    expect(await codeOf(safeFetch(`${base}/slow`, { allowPrivate: true, timeoutMs: 300 }))).toBe('timeout');
    expect(await codeOf(safeFetch(`${base}/missing`, { allowPrivate: true }))).toBe('http_status');
  });
});
