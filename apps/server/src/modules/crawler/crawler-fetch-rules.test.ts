import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { backoffWithJitter, HostScheduler, parseRobots, retryAfterMs } from './politeness.js';
import { readSitemap, urlPattern } from './sitemap.js';

async function* bytes(...parts: (string | Uint8Array)[]) {
  for (const p of parts) yield typeof p === 'string' ? new TextEncoder().encode(p) : p;
}

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://t.example/refrigerador/p</loc><lastmod>2026-11-20</lastmod></url>
  <url><loc><![CDATA[https://t.example/lavadora/p]]></loc></url>
  <url><loc>https://t.example/categoria/electro</loc></url>
  <url><loc>javascript:alert(1)</loc></url>
</urlset>`;

describe('sitemaps', () => {
  it('reads a urlset in chunks split anywhere, with a URL pattern, dropping non-http locations', async () => {
    const half = Math.floor(URLSET.length / 2);
    const r = await readSitemap(bytes(URLSET.slice(0, half), URLSET.slice(half)), urlPattern('*/p'));
    expect(r).toEqual({
      kind: 'urlset',
      locations: ['https://t.example/refrigerador/p', 'https://t.example/lavadora/p'],
      dropped: 1,
    });
  });
  it('reads a gzipped sitemap index', async () => {
    const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://t.example/s1.xml.gz</loc></sitemap><sitemap><loc>https://t.example/s2.xml</loc></sitemap></sitemapindex>`;
    const r = await readSitemap(bytes(gzipSync(index)));
    expect(r).toEqual({
      kind: 'sitemapindex',
      locations: ['https://t.example/s1.xml.gz', 'https://t.example/s2.xml'],
      dropped: 0,
    });
  });
  it('refuses what is not a sitemap', async () => {
    await expect(readSitemap(bytes('<html><body>hola</body></html>'))).rejects.toThrow(/no es un sitemap/);
    await expect(readSitemap(bytes('<urlset><url><loc>https://x'))).rejects.toThrow();
  });
  it('a pattern is literal apart from *', () => {
    expect(urlPattern('/p?x=(1)')?.test('https://t.example/p?x=(1)')).toBe(true);
    expect(urlPattern('/p?x=(1)')?.test('https://t.example/pAx=1')).toBe(false);
  });
});

describe('robots.txt and per-host politeness', () => {
  const UA = 'VigiaBot/1.0 (+https://vigia.example/bot)';
  it('honours Disallow and Crawl-delay for the product user agent; 4xx allows all, 5xx nothing', () => {
    const r = parseRobots(
      'https://t.example/robots.txt',
      200,
      'User-agent: VigiaBot\nDisallow: /checkout\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /',
      UA,
    );
    expect(r.isAllowed('https://t.example/refrigerador/p')).toBe(true);
    expect(r.isAllowed('https://t.example/checkout/1')).toBe(false);
    expect(r.crawlDelayMs).toBe(5_000);
    const other = parseRobots('https://t.example/robots.txt', 200, 'User-agent: *\nDisallow: /', UA);
    expect(other.isAllowed('https://t.example/a')).toBe(false);
    expect(parseRobots('https://t.example/robots.txt', 404, '', UA).isAllowed('https://t.example/a')).toBe(
      true,
    );
    expect(parseRobots('https://t.example/robots.txt', 503, '', UA).isAllowed('https://t.example/a')).toBe(
      false,
    );
  });

  it('spaces requests to one host by the delay raised by Crawl-delay, hosts independent, failures back off', async () => {
    let t = 0;
    const waits: number[] = [];
    const s = new HostScheduler(
      { userAgent: UA, delayMs: 2_000, concurrencyPerHost: 1 },
      () => t,
      async (ms) => {
        waits.push(ms);
        t += ms;
      },
    );
    s.setRobots('a', parseRobots('https://a/robots.txt', 200, 'User-agent: *\nCrawl-delay: 3', UA));
    await s.acquire('a');
    s.release('a', { ok: true });
    expect(t).toBe(0);
    await s.acquire('a'); // waits the 3 s Crawl-delay (above the 2 s setting)
    expect(t).toBe(3_000);
    s.release('a', { ok: true });
    const before = t;
    await s.acquire('b'); // another host does not wait for a
    expect(t).toBe(before);
    s.release('b', { ok: false }); // one failure: twice the delay
    await s.acquire('b');
    expect(t - before).toBe(4_000);
    s.release('b', { ok: false, retryAfterMs: 30_000 });
    const t2 = t;
    await s.acquire('b');
    expect(t - t2).toBeGreaterThanOrEqual(30_000);
  });

  it('Retry-After as seconds or a date; jittered back-off within its bound', () => {
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs(new Date(1_000_000 + 5_000).toUTCString(), 1_000_000)).toBeGreaterThan(3_000);
    expect(retryAfterMs('nunca')).toBeNull();
    expect(backoffWithJitter(3, 1_000, 60_000, () => 1)).toBe(8_000);
    expect(backoffWithJitter(10, 1_000, 60_000, () => 1)).toBe(60_000);
  });
});
