import { PricingTally } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import { priceTypeCode, ROW_PRICE_TYPES } from './model.js';

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
