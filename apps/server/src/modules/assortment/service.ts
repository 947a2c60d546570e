import {
  ASSORTMENT_ALL_BRANDS,
  ASSORTMENT_ALL_SELLERS,
  type AssortmentRow,
  NO_BRAND_NAME,
  periodChange,
  round2,
  SELLER_NOT_FOUND,
  share,
} from '@vigia/domain';
import type { AssortmentFigureRow, SellerRow } from './queries.js';

// Assortment figures (docs/metrics.md "Assortment") from the roll-up rows of a selection: one row per
// brand or per seller, the summary row first. Pure functions: the tests work them out by hand.

/** Variations keep three decimals: the seed's display shows three when |v| ≤ 10 (formatVariation). */
const round3 = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000);

/** The assortment's variations: domain periodChange (100 × (current − previous) / previous). */
const variation = periodChange;

/** Sums of one group (a brand, a seller or all), values already in the requested currency. */
export interface Sums {
  published: number;
  inStock: number;
  priced: number;
  value: number;
  prevPublished: number;
  prevPriced: number;
  prevValue: number;
  wentOut: number;
  backIn: number;
  prevWentOut: number;
  prevBackIn: number;
}

const emptySums = (): Sums => ({
  published: 0,
  inStock: 0,
  priced: 0,
  value: 0,
  prevPublished: 0,
  prevPriced: 0,
  prevValue: 0,
  wentOut: 0,
  backIn: 0,
  prevWentOut: 0,
  prevBackIn: 0,
});

/**
 * Adds a roll-up row: its value sums are in the seller's currency, converted with `rate` (end of the
 * period) and `prevRate` (end of the previous period). A value without a rate counts as unpriced.
 */
export function addFigures(s: Sums, r: AssortmentFigureRow, rate: number | null, prevRate: number | null) {
  s.published += r.cur_published;
  s.inStock += r.cur_in_stock;
  if (rate !== null) {
    s.priced += r.cur_priced;
    s.value += r.cur_value * rate;
  }
  s.prevPublished += r.prev_published;
  if (prevRate !== null) {
    s.prevPriced += r.prev_priced;
    s.prevValue += r.prev_value * prevRate;
  }
  s.wentOut += r.went_out;
  s.backIn += r.back_in;
  s.prevWentOut += r.prev_went_out;
  s.prevBackIn += r.prev_back_in;
}

/** The API figures of a group; `base` = the summary's total_products (participation's denominator). */
export function figuresOf(
  s: Sums,
  base: number,
): Omit<AssortmentRow, 'id' | 'name' | 'color' | 'summary' | 'own'> {
  const average = s.priced ? s.value / s.priced : null;
  const prevAverage = s.prevPriced ? s.prevValue / s.prevPriced : null;
  return {
    total_products: s.published,
    previous_total_products: s.prevPublished,
    products_variation: round3(variation(s.published, s.prevPublished)),
    total_value: round2(s.value) ?? 0,
    previous_total_value: round2(s.prevValue) ?? 0,
    total_variation: round3(variation(s.value, s.prevValue)),
    average_value: round2(average),
    previous_average_value: round2(prevAverage),
    average_variation: round3(variation(average, prevAverage)),
    participation: base ? round2(share(s.published, base)) : null,
    out_of_stock: s.published - s.inStock,
    availability: round2(share(s.inStock, s.published)),
    went_out_of_stock: s.wentOut,
    back_in_stock: s.backIn,
    previous_went_out_of_stock: s.prevWentOut,
    previous_back_in_stock: s.prevBackIn,
  };
}

export interface Rates {
  /** seller currency → factor to the requested currency, at the end of the period / previous period */
  current: Map<string, number>;
  previous: Map<string, number>;
}

function groupRows(
  rows: AssortmentFigureRow[],
  sellers: Map<number, SellerRow>,
  rates: Rates,
  key: (r: AssortmentFigureRow) => number | null,
): { all: Sums; groups: Map<number | null, Sums> } {
  const all = emptySums();
  const groups = new Map<number | null, Sums>();
  for (const r of rows) {
    const cur = sellers.get(r.seller_id)?.currency;
    const rate = cur ? (rates.current.get(cur) ?? null) : null;
    const prevRate = cur ? (rates.previous.get(cur) ?? null) : null;
    addFigures(all, r, rate, prevRate);
    const k = key(r);
    let g = groups.get(k);
    if (!g) {
      g = emptySums();
      groups.set(k, g);
    }
    addFigures(g, r, rate, prevRate);
  }
  return { all, groups };
}

const byProducts = (a: AssortmentRow, b: AssortmentRow) =>
  b.total_products - a.total_products || a.name.localeCompare(b.name, 'es');

/** Rows by brand ('Todas' first): brands with listings at either period's end or events in either period. */
export function brandRows(
  rows: AssortmentFigureRow[],
  sellers: Map<number, SellerRow>,
  rates: Rates,
  brandNames: Map<number, string>,
  ownBrands: number[],
): AssortmentRow[] {
  const { all, groups } = groupRows(rows, sellers, rates, (r) => r.brand_id);
  const base = all.published;
  const own = new Set(ownBrands);
  const list = [...groups]
    .map(([id, s]) => ({
      id,
      name: id === null ? NO_BRAND_NAME : (brandNames.get(id) ?? NO_BRAND_NAME),
      color: null,
      summary: false,
      own: id !== null && own.has(id),
      ...figuresOf(s, base),
    }))
    .sort(byProducts);
  return [
    {
      id: null,
      name: ASSORTMENT_ALL_BRANDS,
      color: null,
      summary: true,
      own: false,
      ...figuresOf(all, base),
    },
    ...list,
  ];
}

/** Rows by seller ('Todos' first): every seller of the selection, the pivot first, then by products. */
export function sellerRows(
  rows: AssortmentFigureRow[],
  selected: number[],
  pivot: number,
  sellers: Map<number, SellerRow>,
  rates: Rates,
): AssortmentRow[] {
  const { all, groups } = groupRows(rows, sellers, rates, (r) => r.seller_id);
  const base = all.published;
  const list = selected
    .map((id) => {
      const s = sellers.get(id);
      return {
        id,
        name: s?.name ?? SELLER_NOT_FOUND,
        color: s?.color ?? null,
        summary: false,
        own: id === pivot,
        ...figuresOf(groups.get(id) ?? emptySums(), base),
      };
    })
    .sort((a, b) => Number(b.own) - Number(a.own) || byProducts(a, b));
  return [
    {
      id: null,
      name: ASSORTMENT_ALL_SELLERS,
      color: null,
      summary: true,
      own: false,
      ...figuresOf(all, base),
    },
    ...list,
  ];
}
