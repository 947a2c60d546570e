import { describe, expect, it } from 'vitest';
import {
  clearUrlFilters,
  countActiveFilters,
  dateErrors,
  droppedNotice,
  dropUnlicensed,
  EMPTY_SELECTION,
  isCalendarDate,
  priceRangeState,
  readUrlFilters,
  toFilterSelection,
  treeIds,
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
      'sort=name&classificationsIds=3%2C9&SKUs=A-1%2CB%2F2%2CC%233&price_type=SALE%2CMATCH&mpi_range=dearer&currency=USD',
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

  it('drops what it cannot read, item by item, and says what', () => {
    const back = readUrlFilters(
      new URLSearchParams(
        'brands=a,2,-1,2&price_type=FOO,NORMAL&from_date=2025-13-99&to_date=2026-05-01&match=true&ownBrands=maybe',
      ),
    );
    expect(back.selection.brands).toEqual([2]);
    expect(back.selection.price_type).toEqual(['NORMAL', 'MATCH']);
    expect(back.selection.from_date).toBe('');
    expect(back.selection.to_date).toBe('2026-05-01');
    expect(back.selection.ownBrands).toBe(false);
    expect(back.dropped.map((d) => [d.key, d.value, d.reason])).toEqual([
      ['brands', 'a', 'invalid'],
      ['brands', '-1', 'invalid'],
      ['ownBrands', 'maybe', 'invalid'],
      ['price_type', 'FOO', 'invalid'],
      ['from_date', '2025-13-99', 'invalid'],
    ]);
  });

  it('drops dates that are not days, in any shape (issue 18 item 6)', () => {
    for (const bad of ['garbage', '2026-13-45', '2025-02-29', '29-02-2024', '2026-1-5']) {
      const back = readUrlFilters(new URLSearchParams({ from_date: bad, to_date: bad }));
      expect(back.selection.from_date, bad).toBe('');
      expect(back.selection.to_date, bad).toBe('');
      expect(back.dropped.map((d) => d.label)).toEqual(['Desde', 'Hasta']);
    }
    // A real day with a time part is cut to its day (seed 001 §9), not dropped.
    const cut = readUrlFilters(new URLSearchParams('from_date=2024-02-29T10:00'));
    expect(cut.selection.from_date).toBe('2024-02-29');
    expect(cut.dropped).toEqual([]);
  });

  it('drops bad numbers and an inverted price range', () => {
    expect(readUrlFilters(new URLSearchParams('minPrice=abc&maxPrice=5000')).priceRange).toBeNull();
    expect(readUrlFilters(new URLSearchParams('minPrice=abc&maxPrice=5000')).dropped).toHaveLength(1);
    expect(readUrlFilters(new URLSearchParams('minPrice=9000&maxPrice=5000')).priceRange).toBeNull();
    expect(readUrlFilters(new URLSearchParams('minPrice=-1&maxPrice=5000')).priceRange).toBeNull();
    expect(readUrlFilters(new URLSearchParams('minPrice=1000&maxPrice=5000')).priceRange).toEqual({
      minPrice: 1000,
      maxPrice: 5000,
      minSetting: undefined,
      maxSetting: undefined,
    });
  });

  it('reports pasted SKUs it does not understand', () => {
    const back = readUrlFilters(new URLSearchParams({ SKUs: 'A-1,bad$sku,B/2,x y' }));
    expect(back.selection.SKUs).toBe('A-1\nB/2\nx\ny');
    expect(back.dropped.map((d) => d.value)).toEqual(['bad$sku']);
  });

  it('reads a bad currency and bad modes as absent', () => {
    const back = readUrlFilters(new URLSearchParams('currency=EURO&priceMode=CHEAP&mpi_range=dearer,bogus'));
    expect(back.selection.currency).toBe('');
    expect(back.selection.priceMode).toBe('');
    expect(back.selection.mpi_range).toEqual(['dearer']);
    expect(back.dropped.map((d) => d.key)).toEqual(['mpi_range', 'currency', 'priceMode']);
  });

  it('clears filter keys and keeps the screen keys', () => {
    expect(clearUrlFilters(new URLSearchParams('brands=1&sort=name&cursor=5'), ['cursor']).toString()).toBe(
      'sort=name',
    );
  });
});

describe('dropUnlicensed', () => {
  const allowed = { sellers: [5, 7, 8], currencies: ['CLP', 'USD'] };
  it('drops competitors and a currency the license does not grant, with a notice', () => {
    const read = readUrlFilters(new URLSearchParams('sellersIds=7,999&currency=eur&from_date=garbage'));
    const checked = dropUnlicensed(read, allowed);
    expect(checked.selection.sellersIds).toEqual([7]);
    expect(checked.selection.currency).toBe('');
    expect(checked.dropped.map((d) => [d.key, d.value, d.reason])).toEqual([
      ['from_date', 'garbage', 'invalid'],
      ['sellersIds', '999', 'unlicensed'],
      ['currency', 'EUR', 'unlicensed'],
    ]);
    expect(droppedNotice(checked.dropped)).toBe(
      'Se quitaron filtros de la dirección que no se pueden usar: Desde «garbage» (valor no válido); ' +
        'eCommerce «999» (fuera de tu licencia); Divisa «EUR» (fuera de tu licencia).',
    );
  });
  it('groups the values of one field', () => {
    const read = readUrlFilters(new URLSearchParams('sellersIds=1,7,999&brands=x,y'));
    expect(droppedNotice(dropUnlicensed(read, allowed).dropped)).toBe(
      'Se quitaron filtros de la dirección que no se pueden usar: Marcas «x», «y» (valor no válido); ' +
        'eCommerce «1», «999» (fuera de tu licencia).',
    );
  });
  it('keeps licensed values untouched', () => {
    const read = readUrlFilters(new URLSearchParams('sellersIds=7,8&currency=USD'));
    expect(dropUnlicensed(read, allowed)).toBe(read);
  });
  it('writes the cleaned filters back without the dropped values', () => {
    const params = new URLSearchParams('sort=name&sellersIds=7,999&from_date=garbage&to_date=2026-05-01');
    const checked = dropUnlicensed(readUrlFilters(params), allowed);
    expect(writeUrlFilters(params, checked).toString()).toBe('sort=name&sellersIds=7&to_date=2026-05-01');
  });
  it('drops classifications outside the licensed tree (issue 31 item 8), not before the tree is known', () => {
    const tree = [
      { id: 1, children: [{ id: 11, children: [{ id: 111, children: [] }] }] },
      { id: 2, children: [] },
    ];
    const ids = treeIds(tree);
    expect([...ids].sort((a, b) => a - b)).toEqual([1, 2, 11, 111]);
    const read = readUrlFilters(new URLSearchParams('classificationsIds=111,5,2'));
    const checked = dropUnlicensed(read, { ...allowed, classifications: ids });
    expect(checked.selection.classificationsIds).toEqual([111, 2]);
    expect(droppedNotice(checked.dropped)).toBe(
      'Se quitaron filtros de la dirección que no se pueden usar: Clasificaciones «5» (fuera de tu licencia).',
    );
    // unknown tree (still loading or failed): the server decides
    expect(dropUnlicensed(read, { ...allowed, classifications: null })).toBe(read);
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
