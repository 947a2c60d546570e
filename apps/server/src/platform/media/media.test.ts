import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
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
    ctx = await createTestContext();
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

  it('answers a JSON 404 for anything that is not a picture key', async () => {
    for (const url of ['/media/products/nope.svg', `/media/products/${KEY}.png`, '/media/other/x.svg']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
  });
});
