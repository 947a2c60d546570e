import { describe, expect, it, vi } from 'vitest';
import { DPM_DEFAULTS } from './constants.js';
import {
  buildPricingQuery,
  checkPriceRange,
  filtersSchema,
  filtersToSearchParams,
  type PriceRangeState,
  parseSkus,
  roundPriceRange,
  runSearch,
  validateFilters,
} from './filters.js';
import {
  changeSort,
  dpmItemsQuery,
  dpmQuery,
  navigationBody,
  nextPage,
  priceRangeQuery,
  rememberPageCursor,
} from './pricing.js';

const inactive: PriceRangeState = {
  pending: false,
  ready: true,
  active: false,
  minSetting: 0,
  maxSetting: 100,
};

describe('parseSkus (seed 001 §5)', () => {
  it('splits on whitespace and commas', () => {
    expect(parseSkus('A1 B2,C3\tD4\nE5 ,, F6')).toEqual(['A1', 'B2', 'C3', 'D4', 'E5', 'F6']);
  });
  it('drops tokens with characters other than letters, digits and _ @ . / # & + -', () => {
    expect(parseSkus('ok_1 a@b.c/d#e&f+g-h bad$ también;no ñandú (x) 42')).toEqual([
      'ok_1',
      'a@b.c/d#e&f+g-h',
      'ñandú',
      '42',
    ]);
  });
  it('empty text gives no SKUs and duplicates collapse', () => {
    expect(parseSkus('')).toEqual([]);
    expect(parseSkus(null)).toEqual([]);
    expect(parseSkus('X X,X')).toEqual(['X']);
  });
});

describe('price range (seed 001 §5)', () => {
  it('floors the minimum and ceils the maximum', () => {
    expect(roundPriceRange({ min: 10.9, max: 99.1 })).toEqual({ min: 10, max: 100 });
    expect(roundPriceRange({ min: -0.5, max: 3 })).toEqual({ min: -1, max: 3 });
  });
  it('is sent only when active', () => {
    const selection = { currency: 'CLP', minPrice: 10.5, maxPrice: 80.2, minSetting: 0, maxSetting: 100 };
    const off = buildPricingQuery(selection, inactive);
    expect(off).toEqual({ currency: 'CLP' });
    const on = buildPricingQuery(selection, {
      ...inactive,
      active: true,
      minPrice: 10.5,
      maxPrice: 80.2,
      minSetting: 0.4,
      maxSetting: 99.9,
    });
    expect(on).toEqual({ currency: 'CLP', minPrice: 10, maxPrice: 81, minSetting: 0, maxSetting: 100 });
  });
  it('checkPriceRange: active when ready and narrower than the settings, clamped', () => {
    expect(checkPriceRange({ ...inactive, minPrice: 0, maxPrice: 100 }).active).toBe(false);
    expect(checkPriceRange({ ...inactive, minPrice: 5, maxPrice: 100 })).toMatchObject({
      active: true,
      minPrice: 5,
    });
    expect(checkPriceRange({ ...inactive, minPrice: -5, maxPrice: 500 })).toMatchObject({
      active: false,
      minPrice: 0,
      maxPrice: 100,
    });
    expect(checkPriceRange({ ...inactive, ready: false, minPrice: 5 }).active).toBe(false);
  });
});

describe('buildPricingQuery', () => {
  it('sends MATCH and STOCK_OUT as flags, never as price_type', () => {
    const q = buildPricingQuery({ price_type: ['SALE', 'MATCH', 'STOCK_OUT'] }, inactive);
    expect(q).toEqual({ price_type: ['SALE'], match: true, stockOut: true });
    expect(buildPricingQuery({ price_type: ['MATCH'] }, inactive)).toEqual({ match: true });
  });
  it('splits SKU text and drops empty values', () => {
    expect(
      buildPricingQuery({ SKUs: 'a b,c$', brands: [], metaSearch: '', sellersIds: [5] }, inactive),
    ).toEqual({
      SKUs: ['a', 'b'],
      sellersIds: [5],
    });
  });
});

describe('Filters schema (wire format)', () => {
  it('accepts comma lists, repeated params, strings for numbers and booleans', () => {
    const f = filtersSchema.parse({
      sellersIds: '5,7',
      brands: ['1', '2,3'],
      match: 'true',
      stockOut: '0',
      SKUs: 'a b,c$',
      currency: 'clp',
      minPrice: '10',
      maxPrice: '',
      from_date: '2026-01-01T10:00:00Z',
      price_type: 'SALE,NORMAL',
    });
    expect(f).toMatchObject({
      sellersIds: [5, 7],
      brands: [1, 2, 3],
      match: true,
      stockOut: false,
      SKUs: ['a', 'b'],
      currency: 'CLP',
      minPrice: 10,
      from_date: '2026-01-01', // cut to 10 characters
      price_type: ['SALE', 'NORMAL'],
    });
    expect(f.maxPrice).toBeUndefined();
  });
  it('names the field of a bad value', () => {
    const r = filtersSchema.safeParse({ price_type: 'MATCH' });
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['price_type.0']);
    const range = filtersSchema.safeParse({ minPrice: 9, maxPrice: 1 });
    expect(range.error?.issues.map((i) => i.path.join('.'))).toEqual(['maxPrice']);
  });
  it('filtersToSearchParams writes comma lists that the schema reads back', () => {
    const params = filtersToSearchParams({ sellersIds: [5, 7], match: true, metaSearch: '', brands: [] });
    expect(params.toString()).toBe('sellersIds=5%2C7&match=true');
    expect(filtersSchema.parse(Object.fromEntries(params))).toEqual({ sellersIds: [5, 7], match: true });
  });
});

describe('DPM defaults (seed 001 §9)', () => {
  it('page size 10 of 5/10/15/20/25/50, sort desc, dpm value 10, NORMAL_SALE_EXCLUSIVE_PRICE', () => {
    expect(DPM_DEFAULTS).toEqual({
      pageSize: 10,
      pageSizeOptions: [5, 10, 15, 20, 25, 50],
      sort: 'desc',
      dpmValue: 10,
      priceMode: 'NORMAL_SALE_EXCLUSIVE_PRICE',
    });
    expect(dpmItemsQuery.parse({})).toMatchObject({
      page_size: 10,
      sort: 'desc',
      sort_by: 'index',
      mpi_value: 10,
      priceMode: 'NORMAL_SALE_EXCLUSIVE_PRICE',
    });
    expect(dpmQuery.parse({})).toMatchObject({ mpi_value: 10, priceMode: 'NORMAL_SALE_EXCLUSIVE_PRICE' });
    for (const n of [5, 10, 15, 20, 25, 50])
      expect(dpmItemsQuery.parse({ page_size: String(n) }).page_size).toBe(n);
    expect(dpmItemsQuery.safeParse({ page_size: '12' }).success).toBe(false);
  });
  it('the pricing price-range request uses mpi_value 5; navigation pages 50', () => {
    expect(priceRangeQuery.parse({}).mpi_value).toBe(5);
    expect(navigationBody.parse({})).toMatchObject({ page_size: 50, mpi_value: 5, sort: 'desc' });
  });
});

describe('paging helpers', () => {
  it('the cursor is the id of the last item; sorting resets it', () => {
    const s = nextPage({ sort: 'desc', sort_by: 'index' }, { next_cursor: '42' });
    expect(s).toEqual({ sort: 'desc', sort_by: 'index', cursor: '42' });
    expect(nextPage({ sort: 'desc', sort_by: 'index' }, { next_cursor: null })).toBeNull();
    expect(changeSort('name', 'asc')).toEqual({ sort: 'asc', sort_by: 'name' });
  });
  it('DPM keeps a cursor list to move between pages', () => {
    let c = rememberPageCursor([], 0, '10');
    expect(c).toEqual([undefined, '10']);
    c = rememberPageCursor(c, 1, '20');
    expect(c).toEqual([undefined, '10', '20']);
    expect(rememberPageCursor(c, 0, '11')).toEqual([undefined, '11']); // refetching page 0 drops later pages
  });
});

describe('search flow (seed 001 §4)', () => {
  const effects = () => {
    const calls: string[] = [];
    return {
      calls,
      setError: vi.fn(() => calls.push('error')),
      clearItems: vi.fn(() => calls.push('clear')),
      checkPriceRange: vi.fn(() => {
        calls.push('priceRange');
        return { ...inactive, active: true, minPrice: 10.2, maxPrice: 50.5 };
      }),
      setFilters: vi.fn(() => calls.push('filters')),
      request: vi.fn(async () => {
        calls.push('request');
        return 'ok';
      }),
    };
  };

  it('invalid → sets the error and sends no request', async () => {
    const e = effects();
    const r = await runSearch({ sellers: [5] }, 'assortment', e);
    expect(r.ok).toBe(false);
    expect(e.calls).toEqual(['error']);
    expect(e.request).not.toHaveBeenCalled();
    expect(e.setError.mock.calls[0]).toEqual([
      [{ field: 'currency', label: 'Divisa', message: 'Divisa: campo requerido' }],
    ]);
  });

  it('valid → clears the items, checks the price range, sets the filters, requests', async () => {
    const e = effects();
    const r = await runSearch({ currency: 'CLP', sellers: [5], price_type: ['MATCH'] }, 'pricing', e);
    expect(r).toEqual({ ok: true, result: 'ok' });
    expect(e.calls).toEqual(['clear', 'priceRange', 'filters', 'request']);
    const sent = {
      currency: 'CLP',
      sellers: [5],
      match: true,
      minPrice: 10,
      maxPrice: 51,
      minSetting: 0,
      maxSetting: 100,
    };
    expect(e.setFilters).toHaveBeenCalledWith(sent);
    expect(e.request).toHaveBeenCalledWith(sent);
  });

  it('validateFilters: required fields per flow and schema errors', () => {
    expect(validateFilters({ currency: 'CLP', sellersIds: [5] }, 'assortment').valid).toBe(true);
    const promo = validateFilters({ currency: 'CLP', sellers: [5] }, 'promotions');
    expect(promo.valid === false && promo.errors.map((e) => e.label)).toEqual(['Clasificaciones']);
    const none = validateFilters({}, 'pricing');
    expect(none.valid === false && none.errors.map((e) => e.label)).toEqual(['Divisa', 'eCommerce']);
    const bad = validateFilters({
      currency: 'CLP',
      sellers: [5],
      from_date: '2026-02-01',
      to_date: '2026-01-01',
    });
    expect(bad.valid === false && bad.errors[0].field).toBe('to_date');
  });
});
