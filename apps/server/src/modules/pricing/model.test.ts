import { effectivePriceFor, PricingTally } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import {
  lazyModePrices,
  nameRank,
  newShared,
  type PivotModel,
  priceTypeCode,
  ROW_PRICE_TYPES,
  type Row,
  sharedPath,
} from './model.js';

describe('row price types as codes (the tallies read the columns)', () => {
  it('keeps the three types a tally counts apart and folds every other type into OTHER', () => {
    expect(['NORMAL', 'SALE', 'EXCLUSIVE', 'BYQUANTITY', 'OTHER', ''].map(priceTypeCode)).toEqual([
      0, 1, 2, 3, 3, 3,
    ]);
  });

  it('a tally counts a coded type as it counts the type itself', () => {
    const types = ['NORMAL', 'SALE', 'EXCLUSIVE', 'BYQUANTITY', 'SALE'];
    const direct = new PricingTally(10);
    const coded = new PricingTally(10);
    for (const t of types) {
      direct.add(t, false, true, 100);
      coded.add(ROW_PRICE_TYPES[priceTypeCode(t)], false, true, 100);
    }
    expect(coded.kpis()).toEqual(direct.kpis());
    expect(coded.kpis()).toMatchObject({ total: 5, normal: 1, sale: 2, exclusive: 1 });
  });
});

describe('what the model shares and what it ranks instead of holding', () => {
  it('a path is one frozen array per distinct text', () => {
    const sh = newShared();
    const a = sharedPath(sh, '{3,17,42}');
    expect(a).toEqual([3, 17, 42]);
    expect(sharedPath(sh, '{3,17,42}')).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(sharedPath(sh, '{}')).toEqual([]);
    expect(sharedPath(sh, '{3,17}')).not.toBe(a);
  });

  it('ranks names as the folded names compare (accents and case removed), equal names equal', () => {
    const names = [
      'Yogurt',
      'Detergente Polvo',
      'detergente líquido',
      'Ñandú',
      'DETERGENTE LIQUIDO',
      'Áceite',
    ];
    const rows = names.map((name, i) => ({ productId: i + 1, name }) as Row);
    const rank = nameRank({ rows } as PivotModel);
    // folded: yogurt, detergente polvo, detergente liquido, nandu, detergente liquido, aceite
    expect([...rank]).toEqual([4, 2, 1, 3, 1, 0]);
    // kept per row array
    expect(nameRank({ rows } as PivotModel)).toBe(rank);
  });
});

describe("offers' effective prices per mode, made on first read", () => {
  it('equal effectivePriceFor for every mode, and each mode is made once, when read', () => {
    const listed: [number | null, number | null, number | null][] = [
      [1000, null, null],
      [1000, 900, null],
      [1000, 1100, 800],
      [null, 700, null],
      [0, -5, 600],
      [null, null, null],
      [500, 500, 450],
    ];
    const col = (j: number) => Float64Array.from(listed, (l) => l[j] ?? Number.NaN);
    const prices = lazyModePrices(col(0), col(1), col(2));
    // nothing made before a mode is read
    expect(Object.getOwnPropertyDescriptor(prices, 'NORMAL_PRICE')?.get).toBeTypeOf('function');
    for (const mode of ['NORMAL_SALE_EXCLUSIVE_PRICE', 'NORMAL_SALE_PRICE', 'NORMAL_PRICE'] as const) {
      const made = prices[mode];
      expect(prices[mode]).toBe(made);
      expect(Array.from(made, (v) => (Number.isNaN(v) ? null : v))).toEqual(
        listed.map(([normal, sale, exclusive]) => effectivePriceFor({ normal, sale, exclusive }, mode)),
      );
    }
    // by hand: 1000/1100/800 → 800, 1000, 1000; 0/−5/600 → 600, none, none
    expect([
      prices.NORMAL_SALE_EXCLUSIVE_PRICE[2],
      prices.NORMAL_SALE_PRICE[2],
      prices.NORMAL_PRICE[2],
    ]).toEqual([800, 1000, 1000]);
    expect(prices.NORMAL_SALE_EXCLUSIVE_PRICE[4]).toBe(600);
    expect(prices.NORMAL_SALE_PRICE[4]).toBeNaN();
  });
});
