import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import { insertSeller, seedReferenceData } from '../../test/fixtures.js';
import { notePictureCached } from './known.js';
import { parseMediaKey, renderProductSvg } from './svg.js';

const KEY = 'fridge-POLARIX-7801234000017';

describe('product pictures (pure)', () => {
  it('parses keys and refuses anything else', () => {
    expect(parseMediaKey(KEY)).toEqual({
      icon: 'fridge',
      label: 'POLARIX',
      code: '7801234000017',
      variant: null,
    });
    expect(parseMediaKey(`${KEY}-x`)?.variant).toBe('x');
    for (const bad of [
      '',
      '../etc/passwd',
      'fridge',
      'Fridge-POLARIX-1',
      'fridge-polarix-1',
      'fridge-POLARIX-1-xx',
    ])
      expect(parseMediaKey(bad)).toBeNull();
  });

  it('is deterministic, and the reference equals the correct seller image', () => {
    const a = renderProductSvg(KEY)!;
    expect(a).toBe(renderProductSvg(KEY));
    expect(renderProductSvg(KEY, { reference: true })).toBe(a);
    expect(renderProductSvg(`${KEY}-c`, { reference: true })).toBe(a); // the reference ignores the variant
    // deliberately different seller images: cropped (for review) and recoloured (incorrect)
    expect(renderProductSvg(`${KEY}-c`)).not.toBe(a);
    expect(renderProductSvg(`${KEY}-x`)).not.toBe(a);
    expect(renderProductSvg(`${KEY}-x`)).toMatch(/scale\(-1 1\)/);
    // another item of the same kind gets other colours
    expect(renderProductSvg('fridge-POLARIX-7801234000024')).not.toBe(a);
  });

  it('produces well-formed SVG for every icon, unknown icons included', () => {
    for (const icon of ['fridge', 'tv', 'bottle', 'roll', 'sofa', 'unknownicon']) {
      const svg = renderProductSvg(`${icon}-ACME-123`)!;
      expect(svg.startsWith('<?xml')).toBe(true);
      expect(svg).toMatch(/<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 400 400"/);
      expect(svg.trim().endsWith('</svg>')).toBe(true);
      // balanced tags: every opened element is closed or self-closed
      const opened = (svg.match(/<(svg|g|defs|linearGradient|text)\b/g) ?? []).length;
      const closed = (svg.match(/<\/(svg|g|defs|linearGradient|text)>/g) ?? []).length;
      expect(opened).toBe(closed);
      expect(svg).toContain('>ACME</text>');
    }
  });
});

describe('GET /media/*', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      // the pictures the market names: a listing's (and its mirrored variant's), a brand's reference
      seed: async (db) => {
        await seedReferenceData(db.pool);
        await insertSeller(db.pool, { id: 7, name: 'Rival' });
        for (const [i, url] of [`/media/products/${KEY}.svg`, `/media/products/${KEY}-x.svg`].entries())
          await db.pool.query(
            `insert into products (seller_id, product_id, name, image_url, first_seen, last_seen) values (7, $1, 'x', $2, now(), now())`,
            [`p${i}`, url],
          );
        await db.pool.query(`insert into reference_images (ean, image_url) values ('E1', $1)`, [
          `/media/reference/${KEY}.svg`,
        ]);
      },
    });
  });
  afterAll(() => ctx?.close());

  it('serves product and reference pictures without a token, cacheable', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/media/products/${KEY}.svg` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(res.body).toBe(renderProductSvg(KEY));
    const etag = String(res.headers.etag);
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/media/products/${KEY}.svg`,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);

    const ref = await ctx.app.inject({ method: 'GET', url: `/media/reference/${KEY}.svg` });
    expect(ref.statusCode).toBe(200);
    expect(ref.body).toBe(res.body);
    const wrong = await ctx.app.inject({ method: 'GET', url: `/media/products/${KEY}-x.svg` });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.body).not.toBe(ref.body);
  });

  it('draws nothing for a well-formed key no listing names (issue 26, finding 5), with or without a token', async () => {
    for (const url of [
      '/media/products/fridge-POLARIX-7801234000024.svg',
      `/media/reference/${KEY}-c.svg`,
      '/media/reference/tv-MADEUP-1.svg',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
  });

  it('the disk cache of drawn pictures is bounded: past its size the oldest files go', async () => {
    const { mkdtempSync, writeFileSync, utimesSync } = await import('node:fs');
    const dir = mkdtempSync(join(ctx.config.DATA_DIR, 'cache-'));
    for (let i = 0; i < 12; i++) {
      writeFileSync(join(dir, `f${i}.png`), 'x');
      utimesSync(join(dir, `f${i}.png`), 1000 + i, 1000 + i);
      await notePictureCached(dir, 10);
    }
    const left = readdirSync(dir).sort();
    expect(left.length).toBeLessThanOrEqual(10);
    expect(left).not.toContain('f0.png'); // the oldest went first
    expect(left).toContain('f11.png');
  });

  it('answers a JSON 404 for anything that is not a picture key', async () => {
    for (const url of ['/media/products/nope.svg', `/media/products/${KEY}.png`, '/media/other/x.svg']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
  });
});
