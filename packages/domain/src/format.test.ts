import { describe, expect, it } from 'vitest';
import { priceTypeLabel } from './constants.js';
import {
  currencyDecimals,
  cutDate,
  formatDate,
  formatPercent,
  formatPrice,
  isoDateInZone,
} from './format.js';

describe('price display (seed 000 §9)', () => {
  it('uses no decimals for CLP and thousands separators with dots', () => {
    expect(formatPrice(12990, 'CLP')).toBe('$12.990');
    expect(formatPrice(1234567.6, 'CLP')).toBe('$1.234.568');
    expect(formatPrice(990, 'CLP')).toBe('$990');
  });
  it('uses two decimals for USD, PAB, PEN and MXN only', () => {
    expect(currencyDecimals('USD')).toBe(2);
    expect(currencyDecimals('PAB')).toBe(2);
    expect(currencyDecimals('PEN')).toBe(2);
    expect(currencyDecimals('MXN')).toBe(2);
    expect(currencyDecimals('CLP')).toBe(0);
    expect(currencyDecimals('EUR')).toBe(0);
    expect(formatPrice(1234.5, 'USD')).toBe('US$1.234,50');
    expect(formatPrice(-2, 'USD')).toBe('-US$2,00');
    expect(formatPrice(1999.999, 'MXN')).toBe('$2.000,00');
    expect(formatPrice(49.9, 'PEN')).toBe('S/ 49,90');
  });
  it('shows a dash for missing prices', () => {
    expect(formatPrice(null, 'CLP')).toBe('—');
  });
  it('formats percentages with one decimal and a comma', () => {
    expect(formatPercent(12.345)).toBe('12,3%');
    expect(formatPercent(-3)).toBe('-3,0%');
  });
});

describe('price type labels', () => {
  it('maps the four types and defaults to Normal', () => {
    expect(priceTypeLabel('BYQUANTITY')).toBe('Por cantidad');
    expect(priceTypeLabel('EXCLUSIVE')).toBe('Oferta exclusiva');
    expect(priceTypeLabel('SALE')).toBe('Oferta');
    expect(priceTypeLabel('NORMAL')).toBe('Normal');
    expect(priceTypeLabel('WHATEVER')).toBe('Normal');
    expect(priceTypeLabel(undefined)).toBe('Normal');
  });
});

describe('dates in America/Santiago', () => {
  it('converts an instant to the Santiago calendar day', () => {
    // 02:30 UTC on 22 Nov 2026 is still 21 Nov in Santiago (UTC-3 in summer).
    expect(isoDateInZone('2026-11-22T02:30:00Z')).toBe('2026-11-21');
    expect(formatDate('2026-11-22T02:30:00Z')).toBe('21-11-2026');
    expect(formatDate('2026-01-05')).toBe('05-01-2026');
  });
  it('cuts date strings to 10 characters', () => {
    expect(cutDate('2026-11-22T10:00:00.000Z')).toBe('2026-11-22');
  });
});
