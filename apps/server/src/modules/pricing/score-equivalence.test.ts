import {
  foldText,
  HeadToHeadTally,
  INDEX_EPSILON,
  isCheaper,
  lastSeenAt,
  mpiBucket,
  type PriceMode,
  type PricingSortField,
  PricingTally,
  priceIndex,
  type SortDirection,
  seenInWindow,
} from '@vigia/domain';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { readModelsOf } from '../../platform/read-model.js';
import { random } from '../../test/assortment-history.js';
import {
  computeBaseScore,
  computePriced,
  filterScore,
  indexTotalsOf,
  makeIndexTotals,
  maxPriceOf,
  nn,
  offerCounted,
  offerInOf,
  type PricingScope,
  pageOf,
  rowPasses,
  type ScoredSet,
  tallyByBrand,
  tallyBySeller,
  tallyByTree,
  tallyOf,
} from './compute.js';
import { buildColumns, newShared, offerAt, type PivotModel, ROW_PRICE_TYPES, type Row } from './model.js';
import type { OfferRecord } from './queries.js';
import { indexTotals, type Resolved, scored } from './service.js';

// The scoring of a new competitor selection from the priced model (compute.ts PricedModel: per product
// one entry per seller with its lowest / highest comparable price, made once per price mode, currency and
// window) gives the same answers as the pass over every offer it replaced (kept here as the reference,
// as it was in compute.ts), on a random model with duplicate sellers per product, stock-outs, missing
// prices, two currencies, unpublished listings and windows; and the memoised levels of service.ts
// `scored` answer a refreshed model's rows, never the previous model's.

const MODES: PriceMode[] = ['NORMAL_SALE_EXCLUSIVE_PRICE', 'NORMAL_SALE_PRICE', 'NORMAL_PRICE'];
const SELLERS = [11, 12, 13, 14, 15, 16];
const PIVOT = 5;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20);

function price(rnd: () => number): number | null {
  return rnd() < 0.1 ? null : Math.round(500 + rnd() * 1500);
}

function randomModel(seed: number, n: number, version = 1, sellers = SELLERS): PivotModel {
  const rnd = random(seed);
  const entries = [];
  let offerId = 100_000;
  for (let i = 0; i < n; i++) {
    const normal = price(rnd);
    const sale = rnd() < 0.3 ? price(rnd) : null;
    const exclusive = rnd() < 0.1 ? price(rnd) : null;
    const firstSeen = NOW - Math.floor(rnd() * 30) * DAY;
    const root = 1 + Math.floor(rnd() * 3);
    const mid = 10 * root + Math.floor(rnd() * 3);
    const classPath = rnd() < 0.1 ? [] : [root, mid, 10 * mid + Math.floor(rnd() * 4)];
    const row: Row = {
      productId: i + 1,
      groupId: null,
      ref: `p${i + 1}`,
      sku: null,
      ean: null,
      // names repeat: the name order's ties go by id
      name: `Producto ${(i * 7) % 300}`,
      brandId: 1 + (i % 7),
      brandName: `Marca ${1 + (i % 7)}`,
      classificationId: classPath.at(-1) ?? null,
      classPath,
      categoryPath: [],
      normal,
      sale,
      exclusive,
      priceType: sale !== null ? 'SALE' : exclusive !== null ? 'EXCLUSIVE' : 'NORMAL',
      stockOut: rnd() < 0.1,
      currency: rnd() < 0.15 ? 'USD' : 'CLP',
      published: rnd() < 0.85,
      firstSeen,
      lastSeen: firstSeen + Math.floor(rnd() * 30) * DAY,
    };
    const offers: OfferRecord[] = [];
    const count = Math.floor(rnd() * 7);
    for (let j = 0; j < count; j++) {
      const first = NOW - Math.floor(rnd() * 30) * DAY;
      // a few sellers, so that a product often has two listings of one seller
      const seller = sellers[Math.floor(rnd() * sellers.length)];
      const [normal, sale, exclusive] = [
        price(rnd),
        rnd() < 0.3 ? price(rnd) : null,
        rnd() < 0.1 ? price(rnd) : null,
      ];
      const stockOut = rnd() < 0.15;
      const currency = rnd() < 0.15 ? 'USD' : rnd() < 0.05 ? 'EUR' : 'CLP';
      const published = rnd() < 0.8;
      offers.push([
        row.productId,
        offerId++,
        seller,
        normal,
        sale,
        exclusive,
        'NORMAL',
        stockOut,
        currency,
        published,
        first,
        first + Math.floor(rnd() * 30) * DAY,
      ]);
    }
    entries.push({ row, offers });
  }
  return {
    pivot: PIVOT,
    version,
    rows: entries.map((e) => e.row),
    cols: buildColumns(entries),
    shared: newShared(),
  };
}

function scope(over: Partial<PricingScope> = {}): PricingScope {
  return {
    pivot: PIVOT,
    competitors: SELLERS,
    currency: 'CLP',
    // EUR has no rate: its offers are never comparable
    rates: new Map([
      ['CLP', 1],
      ['USD', 950.5],
    ]),
    mode: 'NORMAL_SALE_EXCLUSIVE_PRICE',
    mpiValue: 5,
    window: null,
    crawl: new Map([PIVOT, ...SELLERS].map((id, k) => [id, NOW - (k % 3) * DAY])),
    todayTs: NOW,
    rows: { licenseRoots: [] },
    post: {},
    ...over,
  };
}

/** The pass over every offer that computeBaseScore was before the priced model (the reference). */
function referenceBase(model: PivotModel, s: PricingScope) {
  const c = model.cols;
  const n = model.rows.length;
  const m = c.offerSeller.length;
  const S = c.sellerIds.length;
  const selected = new Uint8Array(S);
  for (const id of s.competitors) {
    const i = c.sellerIndex.get(id);
    if (i !== undefined) selected[i] = 1;
  }
  const crawl = new Float64Array(S);
  for (let i = 0; i < S; i++) crawl[i] = s.crawl.get(c.sellerIds[i]) ?? Number.NaN;
  const factor = new Float64Array(c.currencies.length);
  for (let i = 0; i < factor.length; i++) factor[i] = s.rates.get(c.currencies[i]) ?? Number.NaN;
  const byWindow = s.window !== null;
  const fromTs = s.window?.fromTs ?? Number.NEGATIVE_INFINITY;
  const toEndTs = s.window?.toEndTs ?? Number.POSITIVE_INFINITY;
  const pivotCrawl = s.crawl.get(s.pivot) ?? Number.NaN;
  const rowPrice = c.rowPrice[s.mode];
  const offerPrice = c.offerPrice[s.mode];
  const b = {
    rowIn: new Uint8Array(n),
    my: new Float64Array(n).fill(Number.NaN),
    min: new Float64Array(n).fill(Number.NaN),
    max: new Float64Array(n).fill(Number.NaN),
    index: new Float64Array(n).fill(Number.NaN),
    matched: new Uint8Array(n),
    position: new Int32Array(n),
    ranked: new Int32Array(n),
    offerIn: new Uint8Array(m),
    offerPrice: new Float64Array(m).fill(Number.NaN),
  };
  const sellerMin = new Float64Array(S).fill(Number.NaN);
  const touched = new Int32Array(S);
  for (let i = 0; i < n; i++) {
    if (byWindow) {
      const seen = lastSeenAt(c.rowPublished[i] === 1, c.rowLastSeen[i], pivotCrawl);
      if (!seenInWindow(seen, c.rowFirstSeen[i], fromTs, toEndTs)) continue;
    } else if (c.rowPublished[i] !== 1) continue;
    b.rowIn[i] = 1;
    const myRaw = rowPrice[i] * factor[c.rowCurrency[i]];
    const my = myRaw > 0 ? myRaw : Number.NaN;
    let matched = 0;
    let min = Number.NaN;
    let max = Number.NaN;
    let nTouched = 0;
    for (let k = c.offerStart[i], end = c.offerStart[i + 1]; k < end; k++) {
      const si = c.offerSeller[k];
      if (selected[si] !== 1) continue;
      if (byWindow) {
        const seen = lastSeenAt(c.offerPublished[k] === 1, c.offerLastSeen[k], crawl[si]);
        if (!seenInWindow(seen, c.offerFirstSeen[k], fromTs, toEndTs)) continue;
      } else if (c.offerPublished[k] !== 1) continue;
      matched = 1;
      b.offerIn[k] = 1;
      if (c.offerStockOut[k] === 1) continue;
      const p = offerPrice[k] * factor[c.offerCurrency[k]];
      if (!(p > 0)) continue;
      b.offerPrice[k] = p;
      const cur = sellerMin[si];
      if (Number.isNaN(cur)) {
        touched[nTouched++] = si;
        sellerMin[si] = p;
      } else if (p < cur) sellerMin[si] = p;
      if (!(p >= min)) min = p;
      if (!(p <= max)) max = p;
    }
    let cheaper = 0;
    for (let t = 0; t < nTouched; t++) {
      const si = touched[t];
      if (isCheaper(sellerMin[si], my)) cheaper++;
      sellerMin[si] = Number.NaN;
    }
    b.my[i] = my;
    b.min[i] = min;
    b.max[i] = max;
    b.matched[i] = matched;
    const index = priceIndex(nn(my), nn(min));
    if (index !== null) {
      b.index[i] = index;
      b.position[i] = 1 + cheaper;
      b.ranked[i] = nTouched + 1;
    }
  }
  return b;
}

/** The filters as filterScore applied them before the priced model's candidate lists (reference). */
function referenceFilter(model: PivotModel, s: PricingScope, ref: ReturnType<typeof referenceBase>) {
  const passes = rowPasses(model, s);
  const ranges = s.post.mpiRanges?.length ? new Set(s.post.mpiRanges) : null;
  const pre: number[] = [];
  for (let i = 0; i < model.rows.length; i++) {
    if (ref.rowIn[i] !== 1) continue;
    if (s.post.match && ref.matched[i] !== 1) continue;
    if (passes && passes[i] !== 1) continue;
    if (ranges) {
      const bucket = mpiBucket(nn(ref.index[i]), s.mpiValue);
      if (bucket === null || !ranges.has(bucket)) continue;
    }
    pre.push(i);
  }
  const { minPrice, maxPrice } = s.post;
  const filtered = pre.filter((i) => {
    const my = ref.my[i];
    return (
      !Number.isNaN(my) &&
      (minPrice === undefined || my >= minPrice - INDEX_EPSILON) &&
      (maxPrice === undefined || my <= maxPrice + INDEX_EPSILON)
    );
  });
  return { pre, filtered: minPrice === undefined && maxPrice === undefined ? pre : filtered };
}

/** The per-leaf tallies by classification it replaced (reference): PricingTally per leaf, then merged. */
function referenceTree(set: ScoredSet, ref: ReturnType<typeof referenceBase>) {
  const c = set.model.cols;
  const leaves = new Map<number, { path: number[]; tally: PricingTally }>();
  for (const i of set.filtered) {
    const leaf = c.rowClassLeaf[i];
    let l = leaves.get(leaf);
    if (!l) {
      const path = set.model.rows[i].classPath;
      l = { path: path.length ? path : [0], tally: new PricingTally(set.scope.mpiValue) };
      leaves.set(leaf, l);
    }
    l.tally.add(
      ROW_PRICE_TYPES[c.rowPriceType[i]],
      c.rowStockOut[i] === 1,
      ref.matched[i] === 1,
      nn(ref.index[i]),
    );
  }
  const nodes = new Map<number, PricingTally>();
  for (const { path, tally } of leaves.values())
    for (const id of path) {
      let t = nodes.get(id);
      if (!t) {
        t = new PricingTally(set.scope.mpiValue);
        nodes.set(id, t);
      }
      t.merge(tally);
    }
  return nodes;
}

/** The per-offer tally by seller it replaced (reference). */
function referenceBySeller(set: ScoredSet, ref: ReturnType<typeof referenceBase>) {
  const c = set.model.cols;
  const out = new Map<number, { tally: PricingTally; h2h: HeadToHeadTally }>();
  for (const id of set.scope.competitors) {
    out.set(id, { tally: new PricingTally(set.scope.mpiValue), h2h: new HeadToHeadTally() });
  }
  for (const i of set.filtered) {
    const lowest = new Map<number, number>();
    for (let k = c.offerStart[i]; k < c.offerStart[i + 1]; k++) {
      if (!ref.offerIn[k]) continue;
      const id = c.sellerIds[c.offerSeller[k]];
      const p = ref.offerPrice[k];
      const cur = lowest.get(id);
      if (cur === undefined || (!Number.isNaN(p) && !(p >= cur))) lowest.set(id, p);
    }
    for (const [id, low] of lowest) {
      const t = out.get(id);
      if (!t) continue;
      const index = priceIndex(nn(ref.my[i]), nn(low));
      t.tally.add(ROW_PRICE_TYPES[c.rowPriceType[i]], c.rowStockOut[i] === 1, true, index);
      t.h2h.addDifference(index === null ? null : index - 100);
    }
  }
  return out;
}

/** Equal numbers position by position (NaN equal to NaN). */
function expectSameNumbers(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string) {
  const plain = (xs: ArrayLike<number>) => Array.from(xs, (x) => (Number.isNaN(x) ? 'NaN' : x));
  expect(plain(actual), what).toEqual(plain(expected));
}

function expectSameScore(model: PivotModel, s: PricingScope, priced = computePriced(model, s)) {
  const ref = referenceBase(model, s);
  const base = computeBaseScore(model, s, priced);
  for (const k of ['rowIn', 'my', 'min', 'index', 'matched', 'position', 'ranked'] as const)
    expectSameNumbers(base[k], ref[k], k);
  expectSameNumbers(offerInOf(base), ref.offerIn, 'offerIn');
  expectSameNumbers(
    Uint8Array.from(ref.offerIn, (_, k) => (offerCounted(base, k) ? 1 : 0)),
    ref.offerIn,
    'offerCounted',
  );
  const n = model.rows.length;
  expectSameNumbers(
    Float64Array.from({ length: n }, (_, i) => maxPriceOf(base, i)),
    ref.max,
    'max',
  );
  const counted = (prices: Float64Array) => prices.map((p, k) => (ref.offerIn[k] === 1 ? p : 0));
  expectSameNumbers(counted(base.offerPrice), counted(ref.offerPrice), 'offerPrice of counted offers');
  // the tallies over the filtered products
  const set = filterScore(base, s);
  const refSets = referenceFilter(model, s, ref);
  expect(set.pre).toEqual(refSets.pre);
  expect(set.filtered).toEqual(refSets.filtered);
  // the index totals of every selection (makeIndexTotals), for the filters that do not depend on it
  const table = makeIndexTotals(priced, s);
  expect(table === null, 'a table unless match or market ranges').toBe(
    s.post.match === true || !!s.post.mpiRanges?.length || model.cols.sellerIds.length > 12,
  );
  if (table) {
    const want = { sum: 0, dev: 0, n: 0 };
    for (const i of refSets.filtered)
      if (Number.isFinite(ref.index[i])) {
        want.sum += ref.index[i];
        want.dev += Math.abs(ref.index[i] - 100);
        want.n++;
      }
    const got = indexTotalsOf(table, model, s.competitors);
    expect(got.n, 'index totals: count').toBe(want.n);
    expect(got.sum).toBeCloseTo(want.sum, 6);
    expect(got.dev).toBeCloseTo(want.dev, 6);
    totalsCompared += want.n;
  }
  const t = tallyOf(set, set.filtered);
  const reference = new PricingTally(s.mpiValue);
  const c = model.cols;
  for (const i of set.filtered)
    reference.add(
      ROW_PRICE_TYPES[c.rowPriceType[i]],
      c.rowStockOut[i] === 1,
      ref.matched[i] === 1,
      nn(ref.index[i]),
    );
  expect({ ...t }).toEqual({ ...reference });
  const brands = tallyByBrand(set);
  const refBrands = new Map<number, PricingTally>();
  for (const i of set.filtered) {
    const b = c.rowBrand[i];
    if (!refBrands.has(b)) refBrands.set(b, new PricingTally(s.mpiValue));
    refBrands
      .get(b)
      ?.add(
        ROW_PRICE_TYPES[c.rowPriceType[i]],
        c.rowStockOut[i] === 1,
        ref.matched[i] === 1,
        nn(ref.index[i]),
      );
  }
  expect([...brands.keys()]).toEqual([...refBrands.keys()]);
  for (const [id, r] of refBrands) expect({ ...brands.get(id) }, `brand ${id}`).toEqual({ ...r });
  const tree = tallyByTree(set);
  const refTree = referenceTree(set, ref);
  expect([...tree.keys()]).toEqual([...refTree.keys()]);
  for (const [id, r] of refTree) expect({ ...tree.get(id) }, `node ${id}`).toEqual({ ...r });
  const bySeller = tallyBySeller(set);
  const refBySeller = referenceBySeller(set, ref);
  expect(bySeller.map((g) => g.sellerId)).toEqual(s.competitors);
  for (const g of bySeller) {
    const r = refBySeller.get(g.sellerId);
    expect({ ...g.tally }, `seller ${g.sellerId}`).toEqual({ ...r?.tally });
    expect(g.headToHead.values(), `seller ${g.sellerId}`).toEqual(r?.h2h.values());
  }
  return { base, set, ref };
}

const SUBSETS = [SELLERS, [11], [12, 14], [13, 15, 16], [16, 11, 12, 13], [99], []];
/** Products counted in the index totals compared (expectSameScore), over the whole file. */
let totalsCompared = 0;

describe('scoring a competitor selection from the priced model', () => {
  const model = randomModel(7, 1500);

  it('the random model has what the test needs', () => {
    const c = model.cols;
    let twoOfOneSeller = 0;
    for (let i = 0; i < model.rows.length; i++) {
      const seen = new Set<number>();
      for (let k = c.offerStart[i]; k < c.offerStart[i + 1]; k++) {
        if (seen.has(c.offerSeller[k])) twoOfOneSeller++;
        seen.add(c.offerSeller[k]);
      }
    }
    expect(twoOfOneSeller).toBeGreaterThan(100);
    expect(c.offerSeller.length).toBeGreaterThan(3000);
  });

  it('gives the reference answers for every competitor subset, price mode and currency', () => {
    let ranked = 0;
    const totalsBefore = totalsCompared;
    for (const mode of MODES)
      for (const competitors of SUBSETS) {
        const { base } = expectSameScore(model, scope({ mode, competitors }));
        ranked += base.position.filter((p) => p > 1).length;
      }
    const usd = new Map([
      ['CLP', 1 / 950.5],
      ['USD', 1],
      ['EUR', 0.00105],
    ]);
    for (const competitors of SUBSETS)
      expectSameScore(model, scope({ currency: 'USD', rates: usd, competitors, mpiValue: 2.5 }));
    expect(ranked).toBeGreaterThan(1000); // products behind a cheaper competitor, in most selections
    expect(totalsCompared - totalsBefore).toBeGreaterThan(5000); // index totals compared
  });

  it('gives the reference answers with a window (crawl times and first / last seen)', () => {
    const windows = [
      { fromTs: NOW - 10 * DAY, toEndTs: NOW - 3 * DAY },
      { fromTs: NOW - 40 * DAY, toEndTs: null },
      { fromTs: null, toEndTs: NOW - 20 * DAY },
    ];
    for (const window of windows)
      for (const competitors of SUBSETS) expectSameScore(model, scope({ window, competitors }));
  });

  it('one priced model serves every selection of its mode, currency and window', () => {
    const priced = computePriced(model, scope());
    for (const competitors of SUBSETS) expectSameScore(model, scope({ competitors }), priced);
  });

  it('with more than 32 sellers (no bit masks: the walk over each product entries)', () => {
    const many = Array.from({ length: 40 }, (_, k) => 11 + k);
    const wide = randomModel(9, 1500, 1, many);
    expect(computePriced(wide, scope()).masks).toBe(false);
    expect(computePriced(model, scope()).masks).toBe(true);
    const crawl = new Map([PIVOT, ...many].map((id) => [id, NOW]));
    for (const competitors of [many, many.slice(0, 3), many.filter((id) => id % 3 === 0), [50]])
      expectSameScore(wide, scope({ competitors, crawl }));
    expectSameScore(
      wide,
      scope({ competitors: many, crawl, window: { fromTs: NOW - 10 * DAY, toEndTs: null } }),
    );
  });

  it('with the filters: row filters, match, market ranges and the price range', () => {
    const priced = computePriced(model, scope());
    const filters: Partial<PricingScope>[] = [
      { post: { match: true, minPrice: 700, maxPrice: 1800, mpiRanges: ['cheapest', 'in_range'] } },
      { post: { minPrice: 900 } },
      { post: { maxPrice: 1000 }, rows: { licenseRoots: [], brands: [2, 3] } },
      { rows: { licenseRoots: [], stockOut: true, priceTypes: ['SALE'] }, post: { match: true } },
      { rows: { licenseRoots: [], words: ['producto', '7'] }, post: { mpiRanges: ['dearer'] } },
    ];
    let filtered = 0;
    for (const f of filters)
      for (const competitors of SUBSETS.slice(0, 4)) {
        // each filter set twice on one priced model: its kept candidate list answers the second time
        filtered += expectSameScore(model, scope({ competitors, ...f }), priced).set.filtered.length;
        expectSameScore(model, scope({ competitors, ...f }), priced);
      }
    expect(filtered).toBeGreaterThan(500);
  });
});

/** The page order as it was: each key read per comparison, names as strings, ties by product id. */
function referenceOrder(set: ScoredSet, by: PricingSortField, dir: SortDirection): number[] {
  const key = (i: number): number | string | null =>
    by === 'index'
      ? nn(set.index[i])
      : by === 'difference'
        ? Number.isNaN(set.index[i])
          ? null
          : set.my[i] - set.min[i]
        : by === 'name'
          ? foldText(set.model.rows[i].name)
          : nn(set.my[i]);
  const sign = dir === 'asc' ? 1 : -1;
  return [...set.filtered].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === null || kb === null) {
      if (ka !== kb) return ka === null ? 1 : -1;
    } else if (ka !== kb) return (ka < kb ? -1 : 1) * sign;
    return (set.model.rows[a].productId - set.model.rows[b].productId) * sign;
  });
}

describe("a refresh's columns (buildColumns with kept rows copied a run at a time)", () => {
  it('each row holds the offers it held or was given, whatever the runs of kept rows', () => {
    const prev = randomModel(11, 600);
    const c = prev.cols;
    /** Row i's offers as records, read back from columns (offerAt). */
    const recordsOf = (cols: typeof c, productId: number, i: number): OfferRecord[] => {
      const out: OfferRecord[] = [];
      for (let k = cols.offerStart[i]; k < cols.offerStart[i + 1]; k++) {
        const o = offerAt(cols, k);
        out.push([
          productId,
          o.productId,
          o.sellerId,
          o.normal,
          o.sale,
          o.exclusive,
          o.priceType,
          o.stockOut,
          o.currency,
          o.published,
          o.firstSeen,
          o.lastSeen,
        ]);
      }
      return out;
    };
    // kept rows in runs broken by dropped rows, rows given new offers (another row's), and two kept rows
    // out of their order; the expected offers of each new row written down as records
    type Kept = { row: Row; pos: number } | { row: Row; offers: OfferRecord[] };
    const entries: Kept[] = [];
    const expected: OfferRecord[][] = [];
    for (let pos = 0; pos < prev.rows.length; pos++) {
      const row = prev.rows[pos];
      if (pos % 7 === 3) continue;
      if (pos % 11 === 5) {
        const offers = recordsOf(c, row.productId, (pos + 1) % prev.rows.length);
        entries.push({ row, offers });
        expected.push(offers);
      } else {
        entries.push({ row, pos });
        expected.push(recordsOf(c, row.productId, pos));
      }
    }
    [entries[40], entries[41]] = [entries[41], entries[40]];
    [expected[40], expected[41]] = [expected[41], expected[40]];
    const cols = buildColumns(entries as Parameters<typeof buildColumns>[0], c);
    expect(cols.offerStart.length).toBe(entries.length + 1);
    for (let i = 0; i < entries.length; i++)
      expect(recordsOf(cols, entries[i].row.productId, i), `row ${i}`).toEqual(expected[i]);
    // every row kept in its place (a saved model as read): the same columns
    const whole = buildColumns(
      prev.rows.map((row, pos) => ({ row, pos })),
      c,
    );
    for (const name of [
      'offerStart',
      'offerSeller',
      'offerNormal',
      'offerLastSeen',
      'offerPriceType',
    ] as const)
      expect(Array.from(whole[name]), name).toEqual(Array.from(c[name]));
  });
});

describe('pages in every order (numeric keys per row position, names as ranks)', () => {
  it('the first page, a later page and the last one are the reference order', () => {
    const model = randomModel(21, 1200);
    let pages = 0;
    for (const competitors of [SELLERS, [12, 14]]) {
      const set = filterScore(computeBaseScore(model, scope({ competitors })), scope({ competitors }));
      for (const by of ['index', 'difference', 'name', 'price'] as PricingSortField[])
        for (const dir of ['asc', 'desc'] as SortDirection[])
          for (const size of [10, 50, 2000]) {
            const order = referenceOrder(set, by, dir);
            const first = pageOf(set, { size, sortBy: by, sort: dir });
            expect(first?.positions, `${by} ${dir} ${size}`).toEqual(order.slice(0, size));
            expect(first?.hasMore).toBe(order.length > size);
            const after = order[Math.min(size, order.length) - 1];
            const next = pageOf(set, {
              size,
              sortBy: by,
              sort: dir,
              cursor: String(model.rows[after].productId),
            });
            const k = order.indexOf(after);
            expect(next?.positions, `${by} ${dir} ${size} after`).toEqual(order.slice(k + 1, k + 1 + size));
            pages += 2;
          }
    }
    expect(pages).toBe(96);
  });
});

describe('the memoised levels of scored() (service.ts)', () => {
  const models = readModelsOf({} as pg.Pool);
  const resolved = (model: PivotModel, s: PricingScope): Resolved => ({
    scope: s,
    model,
    sellers: new Map(),
    models,
  });

  it('a new selection, new filters and a refreshed model each answer their own rows', () => {
    const v1 = randomModel(11, 600, 1);
    const a = scored(resolved(v1, scope({ competitors: [11, 12] })));
    const b = scored(resolved(v1, scope({ competitors: [13] })));
    // the same priced model under both selections, each with its own base score
    expect(b.priced).toBe(a.priced);
    expect(b.index).not.toBe(a.index);
    expectSameNumbers(b.index, referenceBase(v1, scope({ competitors: [13] })).index, 'index');
    // the same selection again: the memoised set
    expect(scored(resolved(v1, scope({ competitors: [11, 12] })))).toBe(a);
    // new filters on the same selection: the same base score, other positions
    const f = scored(resolved(v1, scope({ competitors: [11, 12], post: { minPrice: 1200 } })));
    expect(f.index).toBe(a.index);
    expect(f.filtered.length).toBeLessThan(a.filtered.length);
    expect(f.filtered.every((i) => a.my[i] >= 1200 - 1e-9)).toBe(true);

    // the model refreshed (a new version with other rows): nothing of v1's is reused
    const v2 = randomModel(12, 800, 2);
    const c = scored(resolved(v2, scope({ competitors: [11, 12] })));
    expect(c.priced).not.toBe(a.priced);
    expect(c.rowIn.length).toBe(800);
    expectSameScore(v2, scope({ competitors: [11, 12] }));
    const ref = referenceBase(v2, scope({ competitors: [11, 12] }));
    expectSameNumbers(c.index, ref.index, 'index');
    expectSameNumbers(c.my, ref.my, 'my');
    // another model object under the same pivot and version (a closed day's overlay): its own values
    const overlay: PivotModel = { ...v2, cols: randomModel(13, 800, 2).cols };
    // the dashboard's today (indexTotals): the filtered set's index totals, from the table of the
    // refreshed model, then of the overlay
    for (const m of [v2, overlay]) {
      const set = scored(resolved(m, scope({ competitors: [11, 12] })));
      const want = set.filtered.map((i) => set.index[i]).filter(Number.isFinite);
      const got = indexTotals(resolved(m, scope({ competitors: [11, 12] })));
      expect(got.n).toBe(want.length);
      expect(got.sum).toBeCloseTo(
        want.reduce((x, y) => x + y, 0),
        6,
      );
    }
    const d = scored(resolved(overlay, scope({ competitors: [11, 12] })));
    expect(d.priced.model).toBe(overlay);
    expectSameNumbers(d.index, referenceBase(overlay, scope({ competitors: [11, 12] })).index, 'index');
  });
});
