import { describe, expect, it } from 'vitest';
import {
  addDays,
  breadcrumb,
  cardChange,
  dayNameSpa,
  daysInclusive,
  defaultHistoryPeriod,
  discountBucket,
  discountPercent,
  enrichDetail,
  formatVariation,
  historyMarker,
  minusMonths,
  modeOfBuckets,
  periodChange,
  pivotPosition,
  priceExtremes,
  priceHighlight,
  priceVariation,
  priceVariationValue,
  productDisplayName,
  productListPageAction,
  rankPositions,
  round2,
  shownVariation,
  sortByMinPrice,
  variationArrow,
} from './derived.js';
import { cutDate } from './format.js';
import { availabilityText, isHistorical, priceFreshness, updatedAgo } from './listing-state.js';
import { rankingIcon } from './metrics/pricing.js';

describe('names and breadcrumbs', () => {
  it('shows the seed text for a product without a name', () => {
    expect(productDisplayName(null)).toBe('Producto registrado sin nombre');
    expect(productDisplayName('   ')).toBe('Producto registrado sin nombre');
    expect(productDisplayName(' Leche 1L ')).toBe('Leche 1L');
  });
  it('joins breadcrumbs with " > " and cuts dates to 10 characters', () => {
    expect(breadcrumb([{ name: 'Despensa' }, { name: 'Lácteos' }, { name: 'Leches' }])).toBe(
      'Despensa > Lácteos > Leches',
    );
    expect(breadcrumb(['A', '', 'B'])).toBe('A > B');
    expect(breadcrumb(null)).toBe('');
    expect(cutDate('2026-11-03T12:00:00.000Z')).toBe('2026-11-03');
  });
});

describe('price variation = 100 × (1 − current / previous)', () => {
  it('computes hand-worked values', () => {
    // 900 after 1000: 100 × (1 − 0.9) = +10 → three decimals (|v| is not above 10)
    expect(priceVariationValue(900, 1000)).toBeCloseTo(10, 10);
    // 1200 after 1000: 100 × (1 − 1.2) = −20
    expect(priceVariationValue(1200, 1000)).toBeCloseTo(-20, 10);
    // 1000 after 1030: 100 × (1 − 0.970873…) = 2.912621…
    expect(priceVariationValue(1000, 1030)).toBeCloseTo(2.912621, 5);
    expect(priceVariationValue(1000, 0)).toBeNull();
    expect(priceVariationValue(null, 1000)).toBeNull();
    expect(priceVariationValue(1000, null)).toBeNull();
  });
  it("a period's change (assortment) is the same ratio with the other sign: growth is positive", () => {
    // 6 products after 7: 100 × (6 − 7) / 7 = −14.2857…; 8900 → 6400: −28.0899 …
    expect(periodChange(6, 7)).toBeCloseTo(-14.285714, 5);
    expect(periodChange(1200, 1000)).toBeCloseTo(20, 10);
    expect(periodChange(1000, 1000)).toBe(0);
    expect(Object.is(periodChange(1000, 1000), -0)).toBe(false);
    expect(periodChange(5, 0)).toBeNull();
    expect(periodChange(null, 3)).toBeNull();
  });
  it('rounds answers to 2 decimals, null stays null', () => {
    expect(round2(14.285714)).toBe(14.29);
    expect(round2(1.005 * 1000)).toBe(1005);
    expect(round2(null)).toBeNull();
    expect(round2(undefined)).toBeNull();
  });
  it('formats signed, one decimal above 10, three otherwise', () => {
    expect(formatVariation(10)).toBe('+10,000%');
    expect(formatVariation(10.04)).toBe('+10,0%');
    expect(formatVariation(-20)).toBe('-20,0%');
    expect(formatVariation(2.912621)).toBe('+2,913%');
    expect(formatVariation(-0.5)).toBe('-0,500%');
    expect(formatVariation(0)).toBe('0,000%');
    expect(formatVariation(-0.0001)).toBe('0,000%');
    expect(formatVariation(null)).toBe('—');
  });
  it('with fixed decimals (assortment): "+1,4%" not "+1,438%", zero reads "0%"', () => {
    expect(formatVariation(1.438, 1)).toBe('+1,4%');
    expect(formatVariation(-14.286, 1)).toBe('-14,3%');
    expect(formatVariation(0, 1)).toBe('0%');
    expect(formatVariation(0.04, 1)).toBe('0%');
    expect(formatVariation(-0.05, 1)).toBe('-0,1%');
    expect(shownVariation(0.04, 1)).toBe(0);
    expect(shownVariation(-0.04, 1)).toBe(0);
    expect(shownVariation(1.438, 1)).toBe(1.4);
  });
  it('a negative change shows a down arrow and minus sign; zero no arrow', () => {
    expect(variationArrow(-20)).toBe('down');
    expect(variationArrow(10)).toBe('up');
    expect(variationArrow(0)).toBe('none');
    expect(variationArrow(null)).toBe('none');
    expect(priceVariation(1200, 1000)).toEqual({
      variation: -20,
      arrow: 'down',
      text: '-20,0%',
    });
    expect(priceVariation(1000, 1000)).toEqual({ variation: 0, arrow: 'none', text: '0,000%' });
    expect(priceVariation(1000, null)).toEqual({ variation: null, arrow: 'none', text: '—' });
  });
});

describe('ranking', () => {
  const items = [
    { s: 'B', min_price: 1100, pivot: false },
    { s: 'P', min_price: 1000, pivot: true },
    { s: 'C', min_price: null, pivot: false },
    { s: 'A', min_price: 990, pivot: false },
    { s: 'D', min_price: 1000, pivot: false },
  ];
  const isPivot = (x: { pivot: boolean }) => x.pivot;
  it('sorts by min_price ascending, no price last, pivot first on ties', () => {
    expect(sortByMinPrice(items, isPivot).map((x) => x.s)).toEqual(['A', 'P', 'D', 'B', 'C']);
  });
  it('pivot position is its 1-based index; icon on the 9-step scale', () => {
    const sorted = sortByMinPrice(items, isPivot);
    expect(pivotPosition(sorted, isPivot)).toBe(2);
    // 4 priced sellers: icon = 1 + round(8 × (2 − 1) / 3) = 1 + round(2.67) = 4
    expect(rankingIcon(2, 4)).toBe(4);
    expect(rankingIcon(1, 4)).toBe(1);
    expect(rankingIcon(4, 4)).toBe(9);
    expect(rankingIcon(2, 3)).toBe(5);
    expect(pivotPosition([{ min_price: null, pivot: true }], isPivot)).toBeNull();
    expect(pivotPosition([{ min_price: 1, pivot: false }], isPivot)).toBeNull();
  });
  it('ranks a day of prices', () => {
    // 990 first; the two 1000s tie and the pivot (index 0) goes first
    expect(rankPositions([1000, 990, null, 1000], 0)).toEqual([2, 1, null, 3]);
    expect(rankPositions([1000, 990, null, 1000], 3)).toEqual([3, 1, null, 2]);
  });
  it('cheaper and expensive price with highlight', () => {
    const { cheaper, expensive } = priceExtremes(items);
    expect(cheaper?.s).toBe('A');
    expect(expensive?.s).toBe('B');
    expect(priceHighlight(990, 990, 1100)).toBe('cheapest');
    expect(priceHighlight(1100, 990, 1100)).toBe('dearest');
    expect(priceHighlight(1000, 990, 1100)).toBe('none');
    expect(priceHighlight(null, 990, 1100)).toBe('none');
    expect(priceExtremes([{ min_price: null }])).toEqual({ cheaper: null, expensive: null });
  });
});

describe('availability in Santiago time', () => {
  // 2026-11-10T12:00Z is 09:00 on 10 Nov in Santiago (UTC−3 in summer time)
  const now = new Date('2026-11-10T12:00:00Z');
  it("'No Disponible' when out of stock, whatever the date", () => {
    expect(availabilityText({ stock_out: true, last_seen: '2026-11-10T11:00:00Z' }, now)).toBe(
      'No Disponible',
    );
    expect(availabilityText({ stock_out: 1, last_seen: '2026-11-10T11:00:00Z' }, now)).toBe('No Disponible');
  });
  it("'No disponible' when last seen before today in Santiago", () => {
    // 02:30Z on 10 Nov = 23:30 on 9 Nov in Santiago → yesterday there
    expect(availabilityText({ stock_out: false, last_seen: '2026-11-10T02:30:00Z' }, now)).toBe(
      'No disponible',
    );
    // 03:30Z = 00:30 on 10 Nov in Santiago → today
    expect(availabilityText({ stock_out: false, last_seen: '2026-11-10T03:30:00Z' }, now)).toBe('Disponible');
    expect(availabilityText({ stock_out: 0, last_seen: null }, now)).toBe('No disponible');
  });
  it('historical rows: seen before today or out of stock', () => {
    expect(isHistorical({ stock_out: false, last_seen: '2026-11-10T02:30:00Z' }, now)).toBe(true);
    expect(isHistorical({ stock_out: true, last_seen: '2026-11-10T11:00:00Z' }, now)).toBe(true);
    expect(isHistorical({ stock_out: false, last_seen: '2026-11-10T11:00:00Z' }, now)).toBe(false);
  });
  it('how fresh a price is: relative time, the instant in Santiago, stale when not seen today', () => {
    expect(updatedAgo('2026-11-10T09:00:00Z', now.getTime())).toBe('actualizado hace 3 h');
    expect(updatedAgo('2026-11-10T11:55:00Z', now.getTime())).toBe('actualizado hace 5 min');
    expect(updatedAgo('2026-11-10T11:59:30Z', now.getTime())).toBe('actualizado hace instantes');
    expect(updatedAgo('2026-11-07T12:00:00Z', now.getTime())).toBe('actualizado hace 3 días');
    expect(updatedAgo(null, now.getTime())).toBeNull();
    // 03:30Z = 00:30 on 10 Nov in Santiago: today, 8 h 30 min ago → "9 h" (rounded)
    expect(priceFreshness('2026-11-10T03:30:00Z', now)).toEqual({
      text: 'actualizado hace 9 h',
      stale: false,
      title: 'Último dato confiable: 10-11-2026 00:30',
    });
    // 02:30Z = 23:30 on 9 Nov in Santiago: yesterday, only 9 h 30 min ago, and stale all the same
    expect(priceFreshness('2026-11-10T02:30:00Z', now)).toEqual({
      text: 'actualizado hace 10 h',
      stale: true,
      title: 'Precio desactualizado: último dato confiable del 09-11-2026 23:30',
    });
    expect(priceFreshness(null, now)).toMatchObject({ stale: true, text: 'sin observaciones' });
  });
});

describe('history', () => {
  it('point markers', () => {
    expect(historyMarker({ price_type: 'SALE', stock_out: true })).toBe('triangle');
    expect(historyMarker({ price_type: 'NORMAL', stock_out: false })).toBe('circle');
    expect(historyMarker({ price_type: 'SALE', stock_out: false })).toBe('square');
    expect(historyMarker({ price_type: 'EXCLUSIVE', stock_out: false })).toBe('star');
    expect(historyMarker({ price_type: 'BYQUANTITY' })).toBe('star');
  });
  it('default period: one month back to today in Santiago', () => {
    // 2026-03-31T02:00Z is still 30 March in Santiago (UTC−3)
    expect(defaultHistoryPeriod(new Date('2026-03-31T02:00:00Z'))).toEqual({
      from: '2026-02-28',
      to: '2026-03-30',
    });
    expect(defaultHistoryPeriod(new Date('2026-03-31T15:00:00Z'))).toEqual({
      from: '2026-02-28',
      to: '2026-03-31',
    });
    expect(minusMonths('2026-01-15', 1)).toBe('2025-12-15');
    expect(minusMonths('2024-03-31', 1)).toBe('2024-02-29');
  });
  it('calendar helpers', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysInclusive('2026-11-01', '2026-11-30')).toBe(30);
    expect(daysInclusive('2026-11-02', '2026-11-01')).toBe(0);
    expect(dayNameSpa('2026-11-10')).toBe('martes');
    expect(dayNameSpa(new Date('2026-11-10T02:00:00Z'))).toBe('lunes'); // 23:00 on Monday in Santiago
  });
});

describe('detail enrichment', () => {
  it('pivotPriceVariation, min_price, pivotPreviousPrice, pivotQmItemPosition, qmitemsQuantity', () => {
    const e = enrichDetail([
      { is_pivot: false, min_price: 950, previous_price: null },
      { is_pivot: true, min_price: 1100, previous_price: 1000 },
      { is_pivot: false, min_price: 1200, previous_price: 1250 },
    ]);
    expect(e).toEqual({
      pivotPriceVariation: { variation: expect.closeTo(-10, 9), arrow: 'down', text: '-10,000%' },
      min_price: 1100,
      pivotPreviousPrice: 1000,
      pivotQmItemPosition: 2,
      qmitemsQuantity: 3,
    });
  });
});

describe('product list pagination (seed 001 §4)', () => {
  it('all loaded: only the page changes', () => {
    expect(
      productListPageAction({ loaded: 25, totalItems: 25, pageSize: 10 }, { page: 2, pageSize: 10 }),
    ).toEqual({
      kind: 'page',
      page: 2,
      pageSize: 10,
    });
  });
  it('a page size larger than the loaded count resets to page 1 and reloads', () => {
    expect(
      productListPageAction({ loaded: 10, totalItems: 40, pageSize: 10 }, { page: 0, pageSize: 25 }),
    ).toEqual({
      kind: 'reset',
      page: 0,
      pageSize: 25,
    });
  });
  it('moving beyond the loaded items fetches; within them only pages', () => {
    expect(
      productListPageAction({ loaded: 20, totalItems: 40, pageSize: 10 }, { page: 2, pageSize: 10 }).kind,
    ).toBe('fetch');
    expect(
      productListPageAction({ loaded: 20, totalItems: 40, pageSize: 10 }, { page: 1, pageSize: 10 }).kind,
    ).toBe('page');
  });
});

describe('dashboard helpers', () => {
  it('discount % and its 5-point bucket, mode with ties to the smaller', () => {
    expect(discountPercent(1000, 800)).toBeCloseTo(20, 10);
    expect(discountPercent(1000, 1000)).toBeNull();
    expect(discountPercent(null, 800)).toBeNull();
    expect(discountBucket(22.4)).toBe(20);
    expect(discountBucket(22.5)).toBe(25);
    // the mode of the buckets of [20.02, 19.9, 30, 31, 9] → 20, 20, 30, 30, 10: tie 20/30 → the smaller
    const buckets = (ps: number[]) => {
      const n = new Map<number, number>();
      for (const b of ps.map(discountBucket)) n.set(b, (n.get(b) ?? 0) + 1);
      return [...n].map(([bucket, k]) => ({ bucket, n: k }));
    };
    expect(modeOfBuckets(buckets([20.02, 19.9, 30, 31, 9]))).toBe(20);
    expect(modeOfBuckets(buckets([30, 20]))).toBe(20);
    expect(modeOfBuckets(buckets([]))).toBeNull();
    expect(cardChange(12, 10)).toBe(2);
    expect(cardChange(null, 10)).toBeNull();
  });
});
