import { PricingTally } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import {
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
