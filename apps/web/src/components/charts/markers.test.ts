import { describe, expect, it } from 'vitest';
import { pricePointStyle } from './markers.js';

describe('pricePointStyle (seed 001 §4 markers on Chart.js)', () => {
  it('draws stock-outs as triangles, whatever the price type', () => {
    expect(pricePointStyle({ price_type: 'SALE', stock_out: true })).toBe('triangle');
  });
  it('draws NORMAL as a circle, SALE as a square and the rest as stars', () => {
    expect(pricePointStyle({ price_type: 'NORMAL', stock_out: false })).toBe('circle');
    expect(pricePointStyle({ price_type: 'SALE', stock_out: false })).toBe('rect');
    expect(pricePointStyle({ price_type: 'EXCLUSIVE' })).toBe('star');
    expect(pricePointStyle({ price_type: 'BYQUANTITY' })).toBe('star');
  });
});
