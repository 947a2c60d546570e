import { describe, expect, it } from 'vitest';
import { filtersSchema, parseSkus, SKUS_TEXT_MAX } from '../filters.js';
import { mediaRoutes, routeList, routeModules, routePath } from './index.js';

describe('route table', () => {
  it('fills path parameters, URI-encoded, and refuses a missing one', () => {
    expect(routePath(mediaRoutes.product, { file: 'a b.svg' })).toBe('/media/products/a%20b.svg');
    expect(() => routePath(mediaRoutes.product, {})).toThrow(/file/);
  });

  it('every route names its module as a list (empty = any signed-in user) and public routes have none', () => {
    for (const def of routeList) {
      expect(Array.isArray(routeModules(def))).toBe(true);
      if (def.auth === false) expect(routeModules(def)).toEqual([]);
    }
  });
});

describe('SKU bounds (issue 12.7)', () => {
  it('splits 90,000 lines in linear time', () => {
    const text = Array.from({ length: 90_000 }, (_, i) => `SKU-${i}`).join('\n');
    const t0 = performance.now();
    expect(parseSkus(text)).toHaveLength(90_000);
    expect(performance.now() - t0).toBeLessThan(1000); // the old list scan took seconds
  });

  it('refuses SKU text longer than the bound before splitting it, naming the field', () => {
    const r = filtersSchema.safeParse({ SKUs: 'A '.repeat(SKUS_TEXT_MAX) });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['SKUs']);
  });

  it('an impossible date is refused, a long one cut to its day', () => {
    expect(filtersSchema.safeParse({ to_date: '2026-13-45' }).success).toBe(false);
    expect(filtersSchema.parse({ to_date: '2026-02-03T10:00:00Z' }).to_date).toBe('2026-02-03');
  });
});
