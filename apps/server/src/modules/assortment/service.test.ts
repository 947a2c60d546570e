import { round2 } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import type { AssortmentFigureRow, SellerRow } from './queries.js';
import { type Rates, sellerRows } from './service.js';

// Surtido's values are exact sums (docs/metrics.md "Assortment", total_value): the roll-up's numeric
// sums times their currency's rate, added as integers and rounded to cents once. Hand-worked fixture
// where adding doubles gives another cent depending on the order of the rows.

const row = (seller_id: number, brand_id: number, value: string, prevValue: string): AssortmentFigureRow => ({
  seller_id,
  brand_id,
  cur_published: 1,
  cur_in_stock: 1,
  cur_priced: 1,
  cur_value: value,
  prev_published: 1,
  prev_in_stock: 1,
  prev_priced: 1,
  prev_value: prevValue,
  went_out: 0,
  back_in: 0,
  prev_went_out: 0,
  prev_back_in: 0,
});

const sellers = new Map<number, SellerRow>([
  [1, { id: 1, name: 'Tienda Chile', color: '#111111', currency: 'CLP' }],
  [2, { id: 2, name: 'Tienda Lima', color: '#222222', currency: 'PEN' }],
]);

// CLP per unit: PEN 250.5 at the end of the period, 250 at the end of the previous one; USD 900
const rates = (currency: string): Rates => ({
  currency,
  current: new Map([
    ['CLP', '1'],
    ['PEN', '250.500000'],
    ['USD', '900.000000'],
  ]),
  previous: new Map([
    ['CLP', '1'],
    ['PEN', '250.000000'],
    ['USD', '900.000000'],
  ]),
});

// Tienda Chile: one brand worth 5.000.003.065,94 CLP; Tienda Lima: two brands, 22,46 and 44,97 PEN.
const ROWS = [
  row(1, 1, '5000003065.94', '5000000000.00'),
  row(2, 10, '22.46', '20.00'),
  row(2, 11, '44.97', '40.00'),
];

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

describe('Surtido values: exact sums', () => {
  it('converts and adds exactly, rounding once (hand-worked), in every order of the rows', () => {
    // 22,46 × 250,5 = 5.626,23; 44,97 × 250,5 = 11.264,985; Lima = 16.891,215 → 16.891,22
    // Todos = 5.000.003.065,94 + 16.891,215 = 5.000.019.957,155 → 5.000.019.957,16 (halves away from zero)
    // previous: 5.000.000.000 + (20 + 40) × 250 = 5.000.015.000
    for (const rows of permutations(ROWS)) {
      const [all, chile, lima] = sellerRows(rows, [1, 2], 1, sellers, rates('CLP'));
      expect(all.total_value).toBe(5_000_019_957.16);
      expect(all.previous_total_value).toBe(5_000_015_000);
      expect(all.average_value).toBe(1_666_673_319.05); // 5.000.019.957,155 / 3 = 1.666.673.319,0516…
      expect(chile.total_value).toBe(5_000_003_065.94);
      expect(lima.total_value).toBe(16_891.22);
      expect(lima.average_value).toBe(8_445.61); // 16.891,215 / 2 = 8.445,6075
      expect(lima.previous_total_value).toBe(15_000);
      // (16.891,215 − 15.000) / 15.000 = 12,6081 %
      expect(lima.total_variation).toBe(12.608);
    }
    // what adding doubles in the rows' order gave: one cent apart depending on the order
    expect(round2(5000003065.94 + 22.46 * 250.5 + 44.97 * 250.5)).toBe(5_000_019_957.15);
    expect(round2(44.97 * 250.5 + 22.46 * 250.5 + 5000003065.94)).toBe(5_000_019_957.16);
  });

  it('divides by the requested currency once: 31,50 CLP in USD at 900 is 0,035 → 0,04', () => {
    const rows = [row(1, 1, '31.15', '9.00'), row(1, 2, '0.35', '0.00')];
    const [all] = sellerRows(rows, [1], 1, sellers, rates('USD'));
    expect(all.total_value).toBe(0.04);
    expect(all.previous_total_value).toBe(0.01); // 9 / 900
    expect(round2(31.15 / 900 + 0.35 / 900)).toBe(0.03); // the double sum's cent
  });

  it('a seller whose currency has no rate counts in the products, not in the value', () => {
    const noPen: Rates = { ...rates('CLP'), current: new Map([['CLP', '1']]) };
    const [all, , lima] = sellerRows(ROWS, [1, 2], 1, sellers, noPen);
    expect(all.total_products).toBe(3);
    expect(all.total_value).toBe(5_000_003_065.94);
    expect(lima.total_value).toBe(0);
    expect(lima.average_value).toBeNull();
  });
});
