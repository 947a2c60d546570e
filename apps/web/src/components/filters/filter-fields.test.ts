import { filtersObject } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import { ALL_FILTER_FIELDS } from './FilterPanel.js';
import {
  EMPTY_SELECTION,
  FIELD_CODECS,
  FILTER_KEYS,
  FILTER_URL_KEYS,
  PANEL_KEYS,
  PRICE_RANGE_KEYS,
  PRICE_TYPE_FLAGS,
  SETTINGS_KEYS,
} from './filter-fields.js';
import { countActiveFilters, readUrlFilters, summarizeFilters, writeUrlFilters } from './filter-url.js';

describe('Filters keys, derived from the shared schema', () => {
  it('classifies every key of the schema exactly once', () => {
    const classified = [
      ...SETTINGS_KEYS,
      ...PRICE_RANGE_KEYS,
      ...Object.keys(PRICE_TYPE_FLAGS),
      ...Object.keys(FIELD_CODECS),
    ];
    expect([...classified].sort()).toEqual(Object.keys(filtersObject.shape).sort());
    expect(new Set(classified).size).toBe(classified.length);
    expect(FILTER_KEYS).toEqual(Object.keys(filtersObject.shape));
  });

  it('puts every key but the settings in the URL', () => {
    expect([...FILTER_URL_KEYS].sort()).toEqual(
      FILTER_KEYS.filter((k) => !(SETTINGS_KEYS as readonly string[]).includes(k)).sort(),
    );
    expect(FILTER_URL_KEYS).toContain('match');
    expect(FILTER_URL_KEYS).not.toContain('pivot_id');
  });

  it('has a panel control for every panel key (dates share one, the price range has one)', () => {
    const covered = new Set<string>(
      ALL_FILTER_FIELDS.flatMap((f) =>
        f === 'dates' ? ['from_date', 'to_date'] : f === 'priceRange' ? [...PRICE_RANGE_KEYS] : [f],
      ),
    );
    for (const k of [...PANEL_KEYS, ...PRICE_RANGE_KEYS]) expect(covered.has(k), k).toBe(true);
    expect(covered.size).toBe(PANEL_KEYS.length + PRICE_RANGE_KEYS.length);
  });

  it('round-trips a value of every panel field through the URL, counted once each', () => {
    const params = new URLSearchParams(
      'classificationsIds=1&categories=2,3&brands=4&ownBrands=true&sellersIds=7&SKUs=A-1&metaSearch=leche' +
        '&price_type=SALE,STOCK_OUT&mpi_range=cheapest&currency=USD&priceMode=NORMAL_PRICE' +
        '&from_date=2026-05-01&to_date=2026-05-31&minPrice=1000&maxPrice=2000',
    );
    const read = readUrlFilters(params);
    expect(read.dropped).toEqual([]);
    for (const k of PANEL_KEYS) expect(read.selection[k], k).not.toEqual(EMPTY_SELECTION[k]);
    expect(countActiveFilters(read)).toBe(PANEL_KEYS.length + 1);
    expect(writeUrlFilters(new URLSearchParams(), read).toString()).toBe(params.toString());
    expect(summarizeFilters(read, 'CLP')).toEqual([
      '1 clasificación',
      '2 categorías',
      '1 marca',
      'Solo marcas propias',
      '1 eCommerce',
      '1 SKU',
      '“leche”',
      'Oferta, Sin stock',
      'Más barato',
      'USD',
      'Solo precio normal',
      'Desde 01-05-2026',
      'Hasta 31-05-2026',
      '$1.000 – $2.000',
    ]);
  });

  it('counts nothing on an empty URL', () => {
    expect(countActiveFilters(readUrlFilters(new URLSearchParams('sort=name')))).toBe(0);
  });
});
