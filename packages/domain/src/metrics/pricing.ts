import { DEFAULT_MPI_VALUE, type PriceMode, type PriceType, RANKING_STEPS } from '../constants.js';
import type { MpiRange } from '../filters.js';

// Pricing formulas (docs/metrics.md "Pricing"). One written definition each: the pricing engine
// (apps/server/src/modules/pricing/compute.ts) calls these; where SQL must compute one (the dashboard's
// end-of-day index, vigia_price_index in migrations/050_market_formulas.sql) a test runs both on the
// same hand-computed fixtures (apps/server/src/market/formulas.test.ts).

/**
 * The one tie tolerance: relative, for the floating-point noise of conversions and of 100 × a / b. Two
 * prices tie when they differ by at most INDEX_EPSILON × the smaller (samePrice); an index meets a bucket
 * bound within INDEX_EPSILON. Used by the server and the web alike.
 */
export const INDEX_EPSILON = 1e-9;

/** Two prices are the same (a tie) when they differ by at most INDEX_EPSILON × the smaller one. */
export function samePrice(a: number, b: number): boolean {
  return Math.abs(a - b) <= INDEX_EPSILON * Math.min(Math.abs(a), Math.abs(b));
}

export interface ListedPrices {
  normal?: number | null;
  sale?: number | null;
  exclusive?: number | null;
}

const positive = (p: number | null | undefined): p is number =>
  p !== null && p !== undefined && Number.isFinite(p) && p > 0;

/**
 * Effective price of a listing for a price mode: the lowest positive price among those the mode counts.
 *  - NORMAL_SALE_EXCLUSIVE_PRICE (default): normal, sale and exclusive (card-holder) prices;
 *  - NORMAL_SALE_PRICE: normal and sale;
 *  - NORMAL_PRICE: normal only.
 * By-quantity prices never count (a unit price conditional on buying several). null when none present.
 */
export function effectivePriceFor(p: ListedPrices, mode: PriceMode): number | null {
  const candidates =
    mode === 'NORMAL_PRICE'
      ? [p.normal]
      : mode === 'NORMAL_SALE_PRICE'
        ? [p.normal, p.sale]
        : [p.normal, p.sale, p.exclusive];
  const present = candidates.filter(positive);
  return present.length ? Math.min(...present) : null;
}

/**
 * Converts a price between currencies through CLP: rates are CLP per unit (fx_rates, the latest rate
 * on or before the day). CLP's rate is 1. null when a rate is missing.
 */
export function convertPrice(
  price: number | null,
  fromClpPerUnit: number | null | undefined,
  toClpPerUnit: number | null | undefined,
): number | null {
  if (price === null || !positive(fromClpPerUnit) || !positive(toClpPerUnit)) return null;
  return (price * fromClpPerUnit) / toClpPerUnit;
}

/** Decimals of stored money (prices numeric(14,2), their sums numeric(16,2)) and of rates (numeric(18,6)). */
export const MONEY_DECIMALS = 2;
export const RATE_DECIMALS = 6;

/**
 * A decimal text (PostgreSQL numeric, DuckDB DECIMAL: '1234.5', '-0.25', '12') as the integer count of
 * its units at `decimals` places (`'1234.5'`, 2 → 123450n). Refuses a text with more decimals (that
 * would not be exact) or that is not a decimal.
 */
export function decimalUnits(text: string, decimals: number): bigint {
  // the usual text (PostgreSQL's numeric of that scale: '-1234.50'): digits around one point
  const point = text.indexOf('.');
  if (point > 0 && text.length - point - 1 === decimals && /^-?\d+\.\d+$/.test(text))
    return BigInt(text.slice(0, point) + text.slice(point + 1));
  const m = /^([-+]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!m || !(m[2] || m[3])) throw new Error(`not a decimal: '${text}'`);
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) throw new Error(`'${text}' has more than ${decimals} decimals`);
  const units = BigInt((m[2] || '0') + fraction.padEnd(decimals, '0'));
  return m[1] === '-' ? -units : units;
}

/** a / b rounded to the nearest integer, halves away from zero (b > 0). */
function divideRounded(a: bigint, b: bigint): bigint {
  if (b <= 0n) throw new Error('divideRounded: divisor must be positive');
  const q = (2n * (a < 0n ? -a : a) + b) / (2n * b);
  return a < 0n ? -q : q;
}

/**
 * An exact sum of money converted to one currency (docs/metrics.md "Currency conversion"):
 * Σ amountᵢ × clp_per_unit(currencyᵢ) / clp_per_unit(target) — convertPrice's formula — kept as the
 * integer Σ centsᵢ × rate millionthsᵢ, so that it does not depend on the order of addition; the
 * division by the target's rate and the rounding to cents (halves away from zero) happen once, when the
 * figure is read. Surtido's values (total and average) are these sums.
 */
export class ConvertedSum {
  /** per rate (CLP per unit, its text): Σ amounts in cents */
  private readonly byRate = new Map<string, bigint>();

  /** Adds an amount (a decimal text with ≤ 2 decimals) in a currency worth `clpPerUnit` (≤ 6 decimals). */
  add(amount: string, clpPerUnit: string): void {
    this.byRate.set(clpPerUnit, (this.byRate.get(clpPerUnit) ?? 0n) + decimalUnits(amount, MONEY_DECIMALS));
  }

  merge(other: ConvertedSum): void {
    for (const [rate, cents] of other.byRate) this.byRate.set(rate, (this.byRate.get(rate) ?? 0n) + cents);
  }

  /** Σ amount in cents × CLP per unit of its currency in millionths */
  private scaled(): bigint {
    let sum = 0n;
    for (const [rate, cents] of this.byRate) sum += cents * decimalUnits(rate, RATE_DECIMALS);
    return sum;
  }

  /** The sum in `target` (its CLP per unit, ≤ 6 decimals) divided by `n` (an average), rounded to cents. */
  rounded(targetClpPerUnit: string, n = 1): number {
    const divisor = decimalUnits(targetClpPerUnit, RATE_DECIMALS) * BigInt(n);
    return Number(divideRounded(this.scaled(), divisor)) / 100;
  }

  /** The same unrounded, as a double (for ratios between sums: a variation). */
  approximate(targetClpPerUnit: string, n = 1): number {
    return Number(this.scaled()) / Number(decimalUnits(targetClpPerUnit, RATE_DECIMALS) * BigInt(n)) / 100;
  }
}

/** Price index (MPI) = 100 × my price / lowest comparable competitor price; null without both. */
export function priceIndex(myPrice: number | null, lowestCompetitor: number | null): number | null {
  const v = priceIndexValue(myPrice ?? Number.NaN, lowestCompetitor ?? Number.NaN);
  return Number.isNaN(v) ? null : v;
}

/**
 * priceIndex as a plain number, NaN without both prices: for loops over typed arrays. A `number | null`
 * result is a boxed number on every call even where the call is inlined — issue 30, eighteenth session:
 * the dashboard's merge of a new competitor selection allocated one per group and day, ~16 MB and a
 * young-generation collection a request, half of its time.
 */
export function priceIndexValue(myPrice: number, lowestCompetitor: number): number {
  return myPrice > 0 && lowestCompetitor > 0 && myPrice < Infinity && lowestCompetitor < Infinity
    ? (100 * myPrice) / lowestCompetitor
    : Number.NaN;
}

/** 100 × (mine − theirs) / theirs; null without both prices. */
export function differencePct(mine: number | null, theirs: number | null): number | null {
  if (!positive(mine) || !positive(theirs)) return null;
  return (100 * (mine - theirs)) / theirs;
}

/** cheapest: index ≤ 100; in_range: 100 < index ≤ 100 + mpiValue; dearer: above. null without index. */
export function mpiBucket(index: number | null, mpiValue = DEFAULT_MPI_VALUE): MpiRange | null {
  if (index === null) return null;
  if (index <= 100 + INDEX_EPSILON) return 'cheapest';
  if (index <= 100 + mpiValue + INDEX_EPSILON) return 'in_range';
  return 'dearer';
}

/**
 * Ranking position (seed 001 §9): sellers sorted by their price ascending, the pivot's 1-based index.
 * `competitorPrices` holds one price per competitor seller (its lowest comparable one). Ties place the
 * pivot first among equals, so position = 1 + number of competitors strictly cheaper.
 * null when the pivot has no price or no competitor has one.
 */
export function rankingPosition(myPrice: number | null, competitorPrices: (number | null)[]): number | null {
  const others = competitorPrices.filter(positive);
  if (!positive(myPrice) || others.length === 0) return null;
  return 1 + others.filter((p) => isCheaper(p, myPrice)).length;
}

/**
 * Window membership (docs/metrics.md "Pricing", "Date semantics"): a listing belongs to the window when
 * it was last seen at or after the window's first instant and first seen before its end (epoch ms; the
 * bounds are the start of from_date and of the day after to_date in the market zone). SQL: vigia_seen_in.
 */
export function seenInWindow(lastSeen: number, firstSeen: number, fromTs: number, toEndTs: number): boolean {
  return lastSeen >= fromTs && firstSeen < toEndTs;
}

/** A competitor price strictly below mine (not samePrice): it ranks ahead of me. */
export function isCheaper(theirs: number, mine: number): boolean {
  return theirs < mine && !samePrice(theirs, mine);
}

/**
 * Ranking icon 1–9: the position among `ranked` sellers (pivot included) placed on the 9-step scale
 * from 'Más bajo' (1) to 'Más alto' (9): icon = 1 + round(8 × (position − 1) / (ranked − 1)).
 * null when there is no position.
 */
export function rankingIcon(position: number | null, ranked: number): number | null {
  if (position === null || ranked < 2) return null;
  const steps = RANKING_STEPS - 1;
  return 1 + Math.round((steps * (position - 1)) / (ranked - 1));
}

/** A pivot product as the KPI formulas see it (already filtered). */
export interface PricedProduct {
  priceType: PriceType;
  stockOut: boolean;
  /** ≥ 1 confirmed-matched listing of a selected competitor seen in the window */
  matched: boolean;
  /** index (null when there is no comparable competitor price) */
  index: number | null;
}

export interface PricingKpiValues {
  total: number;
  match: number;
  publishedMatch: number;
  normal: number;
  sale: number;
  exclusive: number;
  stock_out: number;
}

export interface PriceSplitValues {
  cheapest: number;
  in_range: number;
  dearer: number;
  without_index: number;
  average_index: number | null;
}

/**
 * Running count of the pricing KPIs and the index split (docs/metrics.md "Pricing KPIs", "Price index
 * split"): add products one by one, read `kpis()` and `split()`. The server aggregates tens of
 * thousands of products per request with it; computePricingKpis / computePriceSplit are built on it.
 */
export class PricingTally {
  total = 0;
  match = 0;
  publishedMatch = 0;
  normal = 0;
  sale = 0;
  exclusive = 0;
  stockOut = 0;
  cheapest = 0;
  inRange = 0;
  dearer = 0;
  withoutIndex = 0;
  indexSum = 0;

  constructor(readonly mpiValue = DEFAULT_MPI_VALUE) {}

  add(priceType: string, stockOut: boolean, matched: boolean, index: number | null): void {
    this.total++;
    if (matched) this.match++;
    if (priceType === 'NORMAL') this.normal++;
    else if (priceType === 'SALE') this.sale++;
    else if (priceType === 'EXCLUSIVE') this.exclusive++;
    if (stockOut) this.stockOut++;
    // the buckets of mpiBucket, inlined: this runs for every product of every request
    if (index === null) this.withoutIndex++;
    else {
      this.publishedMatch++;
      this.indexSum += index;
      if (index <= 100 + INDEX_EPSILON) this.cheapest++;
      else if (index <= 100 + this.mpiValue + INDEX_EPSILON) this.inRange++;
      else this.dearer++;
    }
  }

  /** Adds the counts of another tally (same mpi_value): a parent node's tally from its children. */
  merge(o: PricingTally): void {
    this.total += o.total;
    this.match += o.match;
    this.publishedMatch += o.publishedMatch;
    this.normal += o.normal;
    this.sale += o.sale;
    this.exclusive += o.exclusive;
    this.stockOut += o.stockOut;
    this.cheapest += o.cheapest;
    this.inRange += o.inRange;
    this.dearer += o.dearer;
    this.withoutIndex += o.withoutIndex;
    this.indexSum += o.indexSum;
  }

  kpis(): PricingKpiValues {
    return {
      total: this.total,
      match: this.match,
      publishedMatch: this.publishedMatch,
      normal: this.normal,
      sale: this.sale,
      exclusive: this.exclusive,
      stock_out: this.stockOut,
    };
  }

  split(): PriceSplitValues {
    const n = this.total - this.withoutIndex;
    return {
      cheapest: this.cheapest,
      in_range: this.inRange,
      dearer: this.dearer,
      without_index: this.withoutIndex,
      average_index: n ? this.indexSum / n : null,
    };
  }
}

/**
 * Pricing KPIs over the pivot products (docs/metrics.md "Pricing KPIs"): total; match (≥ 1 matched
 * competitor listing); publishedMatch (with a price index); normal / sale / exclusive (the pivot's
 * current price type); stock_out.
 */
export function computePricingKpis(products: PricedProduct[]): PricingKpiValues {
  const t = new PricingTally();
  for (const p of products) t.add(p.priceType, p.stockOut, p.matched, p.index);
  return t.kpis();
}

/** Split of products by index bucket, and the mean index of those with one. */
export function computePriceSplit(
  indexes: (number | null)[],
  mpiValue = DEFAULT_MPI_VALUE,
): PriceSplitValues {
  const t = new PricingTally(mpiValue);
  for (const i of indexes) t.add('', false, false, i);
  return t.split();
}

export interface HeadToHeadValues {
  common: number;
  cheaper: number;
  equal: number;
  more_expensive: number;
  average_difference_pct: number | null;
}

/** Running head-to-head against one competitor: add (my price, their price) of each common product. */
export class HeadToHeadTally {
  common = 0;
  cheaper = 0;
  equal = 0;
  moreExpensive = 0;
  differenceSum = 0;

  add(mine: number | null, theirs: number | null): void {
    this.addDifference(differencePct(mine, theirs));
  }

  /** Adds a product by its difference % (= its index against this competitor − 100). */
  addDifference(d: number | null): void {
    if (d === null) return;
    this.common++;
    this.differenceSum += d;
    // a tie is samePrice(mine, theirs), written on the difference d = 100 × (mine − theirs) / theirs
    if (Math.abs(d) <= INDEX_EPSILON * Math.min(100 + d, 100)) this.equal++;
    else if (d < 0) this.cheaper++;
    else this.moreExpensive++;
  }

  values(): HeadToHeadValues {
    return {
      common: this.common,
      cheaper: this.cheaper,
      equal: this.equal,
      more_expensive: this.moreExpensive,
      average_difference_pct: this.common ? this.differenceSum / this.common : null,
    };
  }
}

/** Head-to-head against one competitor over (my price, their price) pairs of common products. */
export function computeHeadToHead(pairs: { mine: number | null; theirs: number | null }[]): HeadToHeadValues {
  const t = new HeadToHeadTally();
  for (const { mine, theirs } of pairs) t.add(mine, theirs);
  return t.values();
}

/** 100 × part / whole; null when whole is 0. */
export function share(part: number, whole: number): number | null {
  return whole > 0 ? (100 * part) / whole : null;
}
