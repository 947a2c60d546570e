import { describe, expect, it } from 'vitest';
import { criteriaToParams, DEFAULT_CRITERIA, parseCriteria, sellersFor, triToBool } from './criteria.js';

describe('product list criteria in the URL', () => {
  it('reads defaults from an empty query', () => {
    expect(parseCriteria(new URLSearchParams())).toEqual(DEFAULT_CRITERIA);
  });
  it('round-trips every field and leaves defaults out', () => {
    const c = {
      search: 'leche',
      sort: 'price',
      order: 'desc',
      seller: 5,
      match: 'yes',
      stock: 'no',
    } as const;
    const params = criteriaToParams(c);
    expect(params.toString()).toBe('q=leche&sort=price&order=desc&seller=5&match=yes&stock=no');
    expect(parseCriteria(params)).toEqual(c);
    expect(criteriaToParams(DEFAULT_CRITERIA).toString()).toBe('');
  });
  it('falls back on unknown values', () => {
    const c = parseCriteria(new URLSearchParams('sort=nope&order=x&seller=-3&match=maybe'));
    expect(c).toEqual(DEFAULT_CRITERIA);
    expect(parseCriteria(new URLSearchParams('seller=all')).seller).toBe('all');
  });
  it('chooses the sellers sent', () => {
    expect(sellersFor('pivot', 116, [5, 7])).toEqual([]);
    expect(sellersFor('all', 116, [7, 5])).toEqual([5, 7, 116]);
    expect(sellersFor(7, 116, [5, 7])).toEqual([7]);
    expect(triToBool('all')).toBeUndefined();
    expect(triToBool('no')).toBe(false);
  });
});
