import type { QmItem } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import { rowTone, sortCompetitors } from './competitors.js';

const item = (over: Partial<QmItem>): QmItem =>
  ({
    id: 1,
    seller_name: 'A',
    position: 1,
    difference: 0,
    last_seen: '2025-03-01T12:00:00Z',
    historical: false,
    highlight: 'none',
    ...over,
  }) as QmItem;

describe('rowTone (seed 001 §4 item display)', () => {
  it('greys historical rows before any highlight', () => {
    expect(rowTone(item({ historical: true, highlight: 'cheapest' }))).toBe('historical');
  });
  it('maps cheapest to the accent and dearest to red', () => {
    expect(rowTone(item({ highlight: 'cheapest' }))).toBe('cheapest');
    expect(rowTone(item({ highlight: 'dearest' }))).toBe('dearest');
    expect(rowTone(item({}))).toBe('default');
  });
});

describe('sortCompetitors', () => {
  const rows = [
    item({ id: 1, seller_name: 'Beta', position: 2, difference: 100 }),
    item({ id: 2, seller_name: 'álamo', position: null, difference: null }),
    item({ id: 3, seller_name: 'Casa', position: 1, difference: -50 }),
  ];
  it('sorts by position with unpriced rows last', () => {
    expect(sortCompetitors(rows, { by: 'position', dir: 'asc' }).map((r) => r.id)).toEqual([3, 1, 2]);
    expect(sortCompetitors(rows, { by: 'position', dir: 'desc' }).map((r) => r.id)).toEqual([1, 3, 2]);
  });
  it('sorts sellers by Spanish collation', () => {
    expect(sortCompetitors(rows, { by: 'seller', dir: 'asc' }).map((r) => r.id)).toEqual([2, 1, 3]);
  });
  it('sorts by difference', () => {
    expect(sortCompetitors(rows, { by: 'difference', dir: 'desc' }).map((r) => r.id)).toEqual([1, 3, 2]);
  });
});
