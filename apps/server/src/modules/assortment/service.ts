import {
  ASSORTMENT_ALL_BRANDS,
  ASSORTMENT_ALL_SELLERS,
  type AssortmentRow,
  ConvertedSum,
  NO_BRAND_NAME,
  periodChangeRounded,
  round2,
  SELLER_NOT_FOUND,
  share,
} from '@vigia/domain';
import type { AssortmentFigureRow, SellerRow } from './queries.js';

// Assortment figures (docs/metrics.md "Assortment") from the roll-up rows of a selection: one row per
// brand or per seller, the summary row first. Pure functions: the tests work them out by hand.

/**
 * The assortment's variations: domain periodChange (100 × (current − previous) / previous), kept to three
 * decimals (the seed's display shows three when |v| ≤ 10: formatVariation).
 */
const variation = periodChangeRounded;

/**
 * Sums of one group (a brand, a seller or all). Values are exact (domain ConvertedSum: the roll-up's
 * numeric sums in cents times the rate of their currency, divided by the requested currency's once when
 * read), so that a total does not depend on the order its rows are added in.
 */
export interface Sums {
  published: number;
  inStock: number;
  priced: number;
  value: ConvertedSum;
  prevPublished: number;
  prevPriced: number;
  prevValue: ConvertedSum;
  wentOut: number;
  backIn: number;
  prevWentOut: number;
  prevBackIn: number;
}

const emptySums = (): Sums => ({
  published: 0,
  inStock: 0,
  priced: 0,
  value: new ConvertedSum(),
  prevPublished: 0,
  prevPriced: 0,
  prevValue: new ConvertedSum(),
  wentOut: 0,
  backIn: 0,
  prevWentOut: 0,
  prevBackIn: 0,
});

/**
 * Adds a roll-up row: its value sums are in the seller's currency, worth `rate` CLP per unit at the end
 * of the period and `prevRate` at the end of the previous period. A value without a rate counts as
 * unpriced.
 */
export function addFigures(s: Sums, r: AssortmentFigureRow, rate: string | null, prevRate: string | null) {
  s.published += r.cur_published;
  s.inStock += r.cur_in_stock;
  if (rate !== null) {
    s.priced += r.cur_priced;
    s.value.add(r.cur_value, rate);
  }
  s.prevPublished += r.prev_published;
  if (prevRate !== null) {
    s.prevPriced += r.prev_priced;
    s.prevValue.add(r.prev_value, prevRate);
  }
  s.wentOut += r.went_out;
  s.backIn += r.back_in;
  s.prevWentOut += r.prev_went_out;
  s.prevBackIn += r.prev_back_in;
}

/**
 * The API figures of a group; `base` = the summary's total_products (participation's denominator). The
 * values in the requested currency rounded once to cents; the variations from their unrounded values.
 */
export function figuresOf(
  s: Sums,
  base: number,
  rates: Rates,
): Omit<AssortmentRow, 'id' | 'name' | 'color' | 'summary' | 'own'> {
  const [to, prevTo] = targetRates(rates);
  const average = s.priced ? s.value.approximate(to, s.priced) : null;
  const prevAverage = s.prevPriced ? s.prevValue.approximate(prevTo, s.prevPriced) : null;
  return {
    total_products: s.published,
    previous_total_products: s.prevPublished,
    products_variation: variation(s.published, s.prevPublished),
    total_value: s.value.rounded(to),
    previous_total_value: s.prevValue.rounded(prevTo),
    total_variation: variation(s.value.approximate(to), s.prevValue.approximate(prevTo)),
    average_value: s.priced ? s.value.rounded(to, s.priced) : null,
    previous_average_value: s.prevPriced ? s.prevValue.rounded(prevTo, s.prevPriced) : null,
    average_variation: variation(average, prevAverage),
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
  /** the requested currency */
  currency: string;
  /**
   * CLP per unit of every currency with a rate (exact decimal texts, CLP '1': market/fx.ts
   * selectClpRateTexts) at the end of the period / of the previous period; both hold `currency`
   */
  current: Map<string, string>;
  previous: Map<string, string>;
}

/** The requested currency's CLP per unit at the end of the period and of the previous one. */
function targetRates(rates: Rates): [string, string] {
  const to = rates.current.get(rates.currency);
  const prevTo = rates.previous.get(rates.currency);
  if (to === undefined || prevTo === undefined) throw new Error(`no rate for ${rates.currency}`);
  return [to, prevTo];
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
      ...figuresOf(s, base, rates),
    }))
    .sort(byProducts);
  return [
    {
      id: null,
      name: ASSORTMENT_ALL_BRANDS,
      color: null,
      summary: true,
      own: false,
      ...figuresOf(all, base, rates),
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
        ...figuresOf(groups.get(id) ?? emptySums(), base, rates),
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
      ...figuresOf(all, base, rates),
    },
    ...list,
  ];
}
