import type { CompetitorPrice } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import { outcome, rowTones } from './cell-tones.js';

const comp = (seller_id: number, price: number | null, historical = false): CompetitorPrice => ({
  seller_id,
  seller_name: `S${seller_id}`,
  color: '#000000',
  listing_id: String(seller_id),
  product_id: String(seller_id),
  url: null,
  price,
  normal_price: price,
  sale_price: null,
  exclusive_price: null,
  price_type: 'NORMAL',
  stock_out: false,
  last_seen: '2025-01-01',
  historical,
  comparable: !historical,
  difference_pct: null,
});

describe('rowTones', () => {
  it('marks the cheapest and the dearest current prices, mine included', () => {
    const t = rowTones({
      my_price: 1000,
      historical: false,
      competitors: [comp(1, 900), comp(2, 1200), comp(3, 1100)],
    });
    expect(t.bySeller.get(1)?.tone).toBe('cheapest');
    expect(t.bySeller.get(2)?.tone).toBe('dearest');
    expect(t.bySeller.get(3)?.tone).toBe('default');
    expect(t.my).toBe('default');
  });
  it('leaves historical prices grey and out of the comparison', () => {
    const t = rowTones({
      my_price: 1000,
      historical: false,
      competitors: [comp(1, 500, true), comp(2, 1200)],
    });
    expect(t.bySeller.get(1)?.tone).toBe('historical');
    expect(t.my).toBe('cheapest');
    expect(t.bySeller.get(2)?.tone).toBe('dearest');
  });
  it('highlights nothing with a single distinct price', () => {
    const t = rowTones({ my_price: 1000, historical: false, competitors: [comp(1, 1000)] });
    expect(t.my).toBe('default');
    expect(t.bySeller.get(1)?.tone).toBe('default');
  });
  it('greys my own historical price', () => {
    expect(rowTones({ my_price: 1000, historical: true, competitors: [] }).my).toBe('historical');
  });
});

describe('outcome', () => {
  it('compares my price with theirs', () => {
    expect(outcome(900, 1000)).toBe('win');
    expect(outcome(1100, 1000)).toBe('lose');
    expect(outcome(1000, 1000)).toBe('tie');
    expect(outcome(null, 1000)).toBe('none');
  });
});
