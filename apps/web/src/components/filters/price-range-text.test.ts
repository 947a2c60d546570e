import { describe, expect, it } from 'vitest';
import { skuFeedback } from './filter-url.js';
import { parsePriceText, sliderStep, typedRange } from './PriceRangeField.js';

describe('typed price range (issue 18 item 10)', () => {
  it('reads prices written the Chilean way', () => {
    expect(parsePriceText('12.990')).toBe(12990);
    expect(parsePriceText('$ 1.234.567')).toBe(1234567);
    expect(parsePriceText('12990')).toBe(12990);
    expect(parsePriceText('12.990,5')).toBe(12990.5);
    expect(parsePriceText('doce mil')).toBeNull();
    expect(parsePriceText('')).toBeNull();
    expect(parsePriceText('-5')).toBeNull();
  });

  it('keeps a typed value off the slider steps, floored / ceiled and clamped into the bounds', () => {
    const bounds = { min: 990, max: 4_000_000 };
    // the slider would move in steps of 20.000 here
    expect(sliderStep(bounds.min, bounds.max)).toBe(20_000);
    expect(typedRange(12_990.7, 25_990.2, bounds)).toEqual([12_990, 25_991]);
    expect(typedRange(0, 25_990, bounds)).toEqual([990, 25_990]);
    expect(typedRange(30_000, 10_000, bounds)).toEqual([10_000, 30_000]);
    expect(typedRange(500, 9_000_000, bounds)).toBeNull();
  });
});

describe('pasted SKUs feedback (issue 18 item 10)', () => {
  it('says how many will be searched and names the ones not understood', () => {
    expect(skuFeedback('')).toBeUndefined();
    expect(skuFeedback('A-1\nB/2')).toBe('2 SKUs por buscar');
    expect(skuFeedback('XYZ-NOEXISTE, bad$sku bad$sku')).toBe(
      '1 SKU por buscar · no se entiende (solo letras, números y _ @ . / # & + -): «bad$sku»',
    );
    expect(skuFeedback('a% b% c% d% e% f% g% ok')).toMatch(/no se entienden .*«e%» y 2 más$/);
  });

  it('names the SKUs the last search found in no product, while they stay in the field', () => {
    expect(skuFeedback('SKU-1 XYZ-NOEXISTE bad$sku', ['XYZ-NOEXISTE'])).toBe(
      '2 SKUs por buscar · no se entiende (solo letras, números y _ @ . / # & + -): «bad$sku» · No encontrados: «XYZ-NOEXISTE»',
    );
    // removed from the field: no longer named
    expect(skuFeedback('SKU-1', ['XYZ-NOEXISTE'])).toBe('1 SKU por buscar');
  });
});
