import { describe, expect, it } from 'vitest';
import {
  ConvertedSum,
  computeHeadToHead,
  computePriceSplit,
  computePricingKpis,
  convertPrice,
  decimalUnits,
  differencePct,
  effectivePriceFor,
  mpiBucket,
  priceIndex,
  priceIndexValue,
  rankingIcon,
  rankingPosition,
  samePrice,
} from './pricing.js';

// Hand-computed values of docs/metrics.md "Pricing" (the same worked example as the API tests).

describe('effective price per price mode', () => {
  const p = { normal: 1000, sale: 900, exclusive: 850 };
  it('NORMAL_SALE_EXCLUSIVE_PRICE: lowest of the three present', () => {
    expect(effectivePriceFor(p, 'NORMAL_SALE_EXCLUSIVE_PRICE')).toBe(850);
    expect(effectivePriceFor({ normal: 1000, sale: null, exclusive: 0 }, 'NORMAL_SALE_EXCLUSIVE_PRICE')).toBe(
      1000,
    );
  });
  it('NORMAL_SALE_PRICE ignores the exclusive price; NORMAL_PRICE only the normal one', () => {
    expect(effectivePriceFor(p, 'NORMAL_SALE_PRICE')).toBe(900);
    expect(effectivePriceFor(p, 'NORMAL_PRICE')).toBe(1000);
    expect(effectivePriceFor({ sale: 500 }, 'NORMAL_PRICE')).toBeNull();
  });
});

describe('currency conversion through CLP', () => {
  it('price × rate(from) / rate(to)', () => {
    expect(convertPrice(4, 260, 1)).toBe(1040); // 4 PEN → CLP
    expect(convertPrice(1000, 1, 900)).toBeCloseTo(1.1111, 4); // CLP → USD
    expect(convertPrice(4, 260, 900)).toBeCloseTo(1.1556, 4); // PEN → USD
    expect(convertPrice(4, null, 900)).toBeNull();
  });
});

describe('exact converted sums (Surtido values)', () => {
  it('reads decimal texts as integer units, refusing what would not be exact', () => {
    expect(decimalUnits('1234.5', 2)).toBe(123450n);
    expect(decimalUnits('-0.25', 2)).toBe(-25n);
    expect(decimalUnits('12', 6)).toBe(12000000n);
    expect(decimalUnits('250.500000', 6)).toBe(250500000n);
    expect(decimalUnits('.5', 2)).toBe(50n);
    expect(() => decimalUnits('1.234', 2)).toThrow(/more than 2 decimals/);
    expect(() => decimalUnits('1e3', 2)).toThrow(/not a decimal/);
    expect(() => decimalUnits('', 2)).toThrow(/not a decimal/);
  });
  it('Σ amount × rate(from) / rate(to), rounded once to cents, halves away from zero', () => {
    const s = new ConvertedSum();
    s.add('3.47', '250.5'); // 869,235 CLP
    expect(s.rounded('1')).toBe(869.24);
    s.add('1990', '1');
    expect(s.rounded('1')).toBe(2859.24);
    expect(s.rounded('1', 2)).toBe(1429.62); // 2.859,235 / 2 = 1.429,6175
    expect(s.rounded('900')).toBe(3.18); // 2.859,235 / 900 = 3,17692…
    expect(s.approximate('1')).toBeCloseTo(2859.235, 9);
    const neg = new ConvertedSum();
    neg.add('-0.35', '0.1'); // −0,035 → −0,04
    expect(neg.rounded('1')).toBe(-0.04);
    const other = new ConvertedSum();
    other.add('0.35', '0.1');
    other.merge(neg);
    expect(other.rounded('1')).toBe(0);
  });
});

describe('index, bucket, difference', () => {
  it('index = 100 × mine / lowest competitor', () => {
    expect(priceIndex(1000, 950)).toBeCloseTo(105.2632, 4);
    expect(priceIndex(1000, null)).toBeNull();
    expect(priceIndex(0, 950)).toBeNull();
    expect(priceIndex(1000, Number.POSITIVE_INFINITY)).toBeNull();
  });
  it('as a plain number: the same value, NaN where priceIndex has none', () => {
    expect(priceIndexValue(1000, 950)).toBe(priceIndex(1000, 950));
    expect(priceIndexValue(1, 3)).toBe(100 / 3);
    for (const [a, b] of [
      [1000, Number.NaN],
      [Number.NaN, 950],
      [0, 950],
      [1000, -5],
      [Number.POSITIVE_INFINITY, 950],
    ])
      expect(priceIndexValue(a, b), `${a} ${b}`).toBeNaN();
  });
  it('cheapest ≤ 100 < in range ≤ 100 + mpi < dearer', () => {
    expect(mpiBucket(100, 5)).toBe('cheapest');
    expect(mpiBucket(priceIndex(0.3, 0.3), 5)).toBe('cheapest'); // no floating noise at equality
    expect(mpiBucket(105, 5)).toBe('in_range');
    expect(mpiBucket(priceIndex(1000, 950), 5)).toBe('dearer');
    expect(mpiBucket(priceIndex(1000, 950), 10)).toBe('in_range');
    expect(mpiBucket(null, 5)).toBeNull();
  });
  it('difference % = 100 × (mine − theirs) / theirs', () => {
    expect(differencePct(850, 900)).toBeCloseTo(-5.5556, 4);
    expect(differencePct(850, null)).toBeNull();
  });
});

describe('ranking', () => {
  it('position: 1 + competitors strictly cheaper (ties rank the pivot first)', () => {
    expect(rankingPosition(1000, [1000, 950, 1040])).toBe(2);
    expect(rankingPosition(850, [900])).toBe(1);
    expect(rankingPosition(10000, [9000, 9500])).toBe(3);
    expect(rankingPosition(1000, [null])).toBeNull();
  });
  it('icon: position placed on 9 steps, 1 = Más bajo, 9 = Más alto', () => {
    expect(rankingIcon(2, 4)).toBe(4); // 1 + round(8 × 1 / 3)
    expect(rankingIcon(1, 2)).toBe(1);
    expect(rankingIcon(2, 2)).toBe(9);
    expect(rankingIcon(3, 3)).toBe(9);
    expect(rankingIcon(2, 3)).toBe(5);
    expect(rankingIcon(null, 3)).toBeNull();
    expect(rankingIcon(1, 1)).toBeNull();
  });
});

describe('KPIs and split over the worked example (dpm value 10)', () => {
  const products = [
    { priceType: 'NORMAL', stockOut: false, matched: true, index: priceIndex(1000, 950) }, // P1
    { priceType: 'SALE', stockOut: false, matched: true, index: priceIndex(850, 900) }, // P2
    { priceType: 'EXCLUSIVE', stockOut: false, matched: true, index: priceIndex(400, 450) }, // P3
    { priceType: 'NORMAL', stockOut: true, matched: true, index: priceIndex(10000, 9000) }, // P4
    { priceType: 'NORMAL', stockOut: false, matched: false, index: null }, // P5
    { priceType: 'NORMAL', stockOut: false, matched: false, index: null }, // P6
  ] as const;
  it('KPIs', () => {
    expect(computePricingKpis([...products])).toEqual({
      total: 6,
      match: 4,
      publishedMatch: 4,
      normal: 4,
      sale: 1,
      exclusive: 1,
      stock_out: 1,
    });
  });
  it('split and mean index', () => {
    const s = computePriceSplit(
      products.map((p) => p.index),
      10,
    );
    expect(s).toMatchObject({ cheapest: 2, in_range: 1, dearer: 1, without_index: 2 });
    expect(s.average_index).toBeCloseTo(99.9269, 4);
  });
  it('head to head against Rival A', () => {
    const h = computeHeadToHead([
      { mine: 1000, theirs: 1000 },
      { mine: 850, theirs: 900 },
      { mine: 400, theirs: 450 },
      { mine: 10000, theirs: 9000 },
      { mine: 5000, theirs: null },
    ]);
    expect(h).toMatchObject({ common: 4, cheaper: 2, equal: 1, more_expensive: 1 });
    // the head-to-head tie is the one tie rule (samePrice): a conversion's noise is a tie, a cent is not
    const noisy = 1000 * (1 + 5e-10);
    expect(samePrice(noisy, 1000)).toBe(true);
    expect(computeHeadToHead([{ mine: noisy, theirs: 1000 }]).equal).toBe(1);
    expect(samePrice(1000.01, 1000)).toBe(false);
    expect(computeHeadToHead([{ mine: 1000.01, theirs: 1000 }]).more_expensive).toBe(1);
    expect(h.average_difference_pct).toBeCloseTo(-1.3889, 4);
  });
});
