import { describe, expect, it } from 'vitest';
import {
  clearUrlFilters,
  countActiveFilters,
  dateErrors,
  EMPTY_SELECTION,
  isCalendarDate,
  priceRangeState,
  readUrlFilters,
  toFilterSelection,
  writeUrlFilters,
} from './filter-url.js';

describe('URL round trip', () => {
  it('writes only set filters and reads them back', () => {
    const selection = {
      ...EMPTY_SELECTION,
      classificationsIds: [3, 9],
      SKUs: 'A-1\tB/2\nbad*sku, C#3',
      price_type: ['SALE', 'MATCH'] as ('SALE' | 'MATCH')[],
      mpi_range: ['dearer' as const],
      currency: 'USD',
    };
    const params = writeUrlFilters(
      new URLSearchParams('sort=name&cursor=10'),
      { selection, priceRange: null },
      ['cursor'],
    );
    expect(params.toString()).toBe(
      'sort=name&classificationsIds=3%2C9&SKUs=A-1%2CB%2F2%2CC%233&currency=USD&price_type=SALE%2CMATCH&mpi_range=dearer',
    );
    const back = readUrlFilters(params);
    expect(back.selection.classificationsIds).toEqual([3, 9]);
    expect(back.selection.SKUs).toBe('A-1\nB/2\nC#3');
    expect(back.selection.price_type).toEqual(['SALE', 'MATCH']);
    expect(back.priceRange).toBeNull();
    expect(countActiveFilters(back)).toBe(5);
  });

  it('keeps the price range only when present, floored and ceiled', () => {
    const params = writeUrlFilters(new URLSearchParams(), {
      selection: EMPTY_SELECTION,
      priceRange: { minPrice: 10.7, maxPrice: 99.2, minSetting: 0.5, maxSetting: 200.1 },
    });
    expect(params.get('minPrice')).toBe('10');
    expect(params.get('maxPrice')).toBe('100');
    expect(params.get('minSetting')).toBe('0');
    expect(params.get('maxSetting')).toBe('201');
    expect(readUrlFilters(params).priceRange).toEqual({
      minPrice: 10,
      maxPrice: 100,
      minSetting: 0,
      maxSetting: 201,
    });
  });

  it('drops unknown values but keeps bad dates for validation', () => {
    const back = readUrlFilters(
      new URLSearchParams('brands=a,2,-1&price_type=FOO,NORMAL&from_date=2025-13-99&match=true'),
    );
    expect(back.selection.brands).toEqual([2]);
    expect(back.selection.price_type).toEqual(['NORMAL', 'MATCH']);
    expect(back.selection.from_date).toBe('2025-13-99');
  });

  it('clears filter keys and keeps the screen keys', () => {
    expect(clearUrlFilters(new URLSearchParams('brands=1&sort=name&cursor=5'), ['cursor']).toString()).toBe(
      'sort=name',
    );
  });
});

describe('toFilterSelection', () => {
  const defaults = {
    currency: 'CLP',
    sellers: [7, 8],
    pivotId: 5,
    priceMode: 'NORMAL_SALE_EXCLUSIVE_PRICE' as const,
  };
  it('falls back to the settings', () => {
    const s = toFilterSelection(EMPTY_SELECTION, defaults);
    expect(s.currency).toBe('CLP');
    expect(s.sellers).toEqual([7, 8]);
    expect(s.sellersIds).toEqual([7, 8]);
    expect(s.pivot_id).toBe(5);
  });
  it('uses the panel choice when made', () => {
    const s = toFilterSelection({ ...EMPTY_SELECTION, sellersIds: [8], currency: 'USD' }, defaults);
    expect(s.sellers).toEqual([8]);
    expect(s.currency).toBe('USD');
  });
});

describe('priceRangeState', () => {
  it('is pending then ready, active only with a URL range', () => {
    expect(priceRangeState(null, null, true)).toEqual({ pending: true, ready: false, active: false });
    expect(priceRangeState(null, { min: 990.4, max: 15990.2 }, false)).toMatchObject({
      ready: true,
      active: false,
      minSetting: 990,
      maxSetting: 15991,
    });
    expect(
      priceRangeState({ minPrice: 2000, maxPrice: 5000 }, { min: 990, max: 15990 }, false),
    ).toMatchObject({
      active: true,
      minPrice: 2000,
      maxPrice: 5000,
    });
  });
});

describe('dateErrors', () => {
  it('accepts real days and rejects impossible ones', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2025-02-29')).toBe(false);
    expect(isCalendarDate('2025-13-45')).toBe(false);
    expect(dateErrors({ from_date: '2025-13-45', to_date: '' })).toEqual([
      { field: 'from_date', label: 'Desde', message: 'Desde: fecha inválida' },
    ]);
  });
});
