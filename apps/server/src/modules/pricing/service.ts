import {
  DEFAULT_PRICE_MODE,
  type DpmGroup,
  type Filters,
  mpiBucket,
  type PriceMode,
  type PricingItem,
  type PricingKpisResponse,
  type PricingTally,
  rankingIcon,
  round2,
  SELLER_NOT_FOUND,
  share,
} from '@vigia/domain';
import type pg from 'pg';
import { badRequest } from '../../lib/errors.js';
import {
  isHistoricalAt,
  lastSeenAt,
  normalizeSearch,
  type Requester,
  ratesTo,
  resolveMarketScope,
} from '../../market/index.js';
import { ownArrayBytes, type ReadModels, readModelsOf } from '../../platform/read-model.js';
import { modelAsOf } from './as-of.js';
import {
  type BaseScore,
  type CompetitorOffer,
  competitorOffers,
  computeBaseScore,
  computePriced,
  filterScore,
  type IndexTotals,
  indexTotalsOf,
  makeIndexTotals,
  maxPriceOf,
  nn,
  type PricedModel,
  type PricingScope,
  type ScoredSet,
  type SellerTally,
} from './compute.js';
import { ensurePricingPivot } from './maintain.js';
import { getPivotModel, type PivotModel, rowAt, subsetModel } from './model.js';
import { type ListingText, type SellerInfo, selectListingTexts, selectRequestLookups } from './queries.js';

// Turns a request's Filters into a license-checked PricingScope with its pivot model, and computed
// values into API shapes (packages/domain/src/pricing.ts).

export interface Resolved {
  scope: PricingScope;
  model: PivotModel;
  sellers: Map<number, SellerInfo>;
  /** the process's read models (the scored sets' memos) */
  models: ReadModels;
}

type ScopeFilters = Filters & { mpi_value: number; priceMode?: PriceMode };

const DEFAULT_COLOR = '#9e9e9e';

/**
 * Rows a question reads (`keep(model, i)`), named by `key`: on a closed day, resolveScope overlays and
 * scores only those (model.ts subsetModel) — the caller must need no other row of the model.
 */
export interface RowSubset {
  key: string;
  keep: (model: PivotModel, i: number) => boolean;
}

/** Subset models kept at once per process (~8 MB each for the large market's own brands of a pivot). */
const SUBSETS_KEPT = 8;
const SUBSETS_BYTES = 96 * 1024 * 1024;

/** The subset of the latest model, kept per (pivot, version, key) while the model is current. */
function keptSubset(pool: pg.Pool, latest: PivotModel, rows: RowSubset): PivotModel {
  const bytes = (m: PivotModel) => ownArrayBytes(m.cols) + ownArrayBytes(m.cols.rowPrice);
  return readModelsOf(pool)
    .memo<PivotModel>('pricing-subsets', SUBSETS_KEPT, false, { maxBytes: SUBSETS_BYTES, bytes })
    .remember(
      `${latest.pivot}:${latest.version}:${rows.key}`,
      () => subsetModel(latest, rows.key, (i) => rows.keep(latest, i)),
      (m) => m.subset?.of === latest,
    );
}

/**
 * A request's scope resolved against the license, before its pivot's model is read (lookupScope): what
 * an answer depends on besides the model, whose version in the database (`version`) names it.
 */
export interface Lookups {
  scope: PricingScope;
  /** the pivot model's version in the database when the request was resolved (null: not built yet) */
  version: number | null;
  sellers: Map<number, SellerInfo>;
  /** a period that ends on a closed day: that day (its closing prices, as-of.ts), with its end */
  pricesAt: string | null;
  toEndTs: number | null;
  closedDayRows?: RowSubset;
}

/**
 * Resolves pivot, competitors, currency and classifications against the license (403 outside it) and
 * reads the request's lookups — all of resolveScope but the pivot's model.
 * Competitors: `sellersIds` when given, else `sellers`, else every licensed seller; the pivot excluded.
 */
export async function lookupScope(
  who: Requester,
  pool: pg.Pool,
  f: ScopeFilters,
  opts: { closedDayRows?: RowSubset } = {},
): Promise<Lookups> {
  const { principal } = who;
  const { pivot, competitors, currency, roots } = await resolveMarketScope(who, pool, f);
  await ensurePricingPivot(pool, pivot);
  const lk = await selectRequestLookups(pool, {
    pivot,
    sellers: [pivot, ...competitors],
    from: f.from_date,
    to: f.to_date,
    zone: principal.marketZone,
  });
  const rates = ratesTo(lk.clpPerUnit, currency);
  if (!rates) throw badRequest(`currency: no hay tipo de cambio para ${currency}`, 'currency');
  // a period that ends on a closed day means that day's closing prices (as-of.ts); else the latest ones
  const pricesAt = f.to_date && lk.toEndTs !== null && lk.toEndTs <= lk.todayTs ? f.to_date : null;
  return {
    version: lk.version,
    sellers: new Map(lk.sellers.map((s) => [s.id, s])),
    pricesAt,
    toEndTs: lk.toEndTs,
    closedDayRows: opts.closedDayRows,
    scope: {
      pivot,
      competitors,
      currency,
      rates,
      mode: f.priceMode ?? DEFAULT_PRICE_MODE,
      mpiValue: f.mpi_value,
      window: f.from_date || f.to_date ? { fromTs: lk.fromTs, toEndTs: lk.toEndTs } : null,
      crawl: new Map(lk.sellers.map((s) => [s.id, s.crawl])),
      todayTs: lk.todayTs,
      pricesAt,
      rows: {
        licenseRoots: roots,
        classificationsIds: f.classificationsIds,
        categories: f.categories,
        brands: f.brands,
        ownBrands: f.ownBrands ? principal.license.brands : undefined,
        skus: f.SKUs,
        words: f.metaSearch ? normalizeSearch(f.metaSearch) : undefined,
        priceTypes: f.price_type,
        stockOut: f.stockOut,
      },
      post: { match: f.match, minPrice: f.minPrice, maxPrice: f.maxPrice, mpiRanges: f.mpi_range },
    },
  };
}

/**
 * What an answer of `l` depends on besides the market's data: its whole scope, the pivot model's version
 * and the sellers' names and colours the pages show (an answer memo's key: the same key at the same
 * market version is the same answer).
 */
export function lookupsKey(l: Lookups): string {
  return JSON.stringify([l.version, l.closedDayRows?.key ?? null, l.scope, l.sellers], (_k, v) =>
    v instanceof Map ? [...v] : v,
  );
}

/** The pivot's model for resolved lookups: the latest, or on a closed day its closing prices. */
export async function withModel(pool: pg.Pool, l: Lookups): Promise<Resolved> {
  const latest = await getPivotModel(pool, l.scope.pivot, l.version);
  const model = l.pricesAt
    ? await modelAsOf(
        pool,
        l.closedDayRows ? keptSubset(pool, latest, l.closedDayRows) : latest,
        l.pricesAt,
        l.toEndTs as number,
      )
    : latest;
  return { model, sellers: l.sellers, models: readModelsOf(pool), scope: l.scope };
}

/**
 * Resolves pivot, competitors, currency and classifications against the license (403 outside it),
 * reads the request's lookups and the pivot's model (lookupScope, then withModel).
 */
export async function resolveScope(
  who: Requester,
  pool: pg.Pool,
  f: ScopeFilters,
  opts: { closedDayRows?: RowSubset } = {},
): Promise<Resolved> {
  return withModel(pool, await lookupScope(who, pool, f, opts));
}

/**
 * The scored products of a request, memoised at three levels: the priced model per (model version, price
 * mode, currency and rates, window) — the only full pass over the pivot's offers (compute.ts PricedModel);
 * the base score per competitor set on top of it — a pass over each product's few per-seller entries; and
 * the filtered set per whole selection. The screens ask for items, KPIs and the price range of one
 * selection at once and then page through it; changing a filter, the market range or the price range
 * reuses the base score, and a new competitor selection reuses the priced model. A new model version
 * makes new keys; a few recent entries of each are kept (memos of the read-model holder, keyed by the
 * model version: valid only for the very model object they were made from). Memory at most: 4 priced
 * models (25 B a product + 29 B an offer each, with ≤ 4 kept candidate lists of ≤ 8 B a product: ~16 +
 * 4 MB for a large pivot of 120k products and 440k offers), 6 base scores (19 B a product, + 1 B an
 * offer once the brand comparator reads one: ~2.3 MB there), 12 filtered sets (their position lists
 * and memos).
 */
const PRICED_MEMO_SIZE = 4;
const BASE_MEMO_SIZE = 6;
const SCORED_MEMO_SIZE = 12;
/**
 * The filtered sets kept hold their base score, priced model and closed-day overlay too (a set keeps
 * them alive after their own memos let them go): so their room is counted in bytes of that whole chain
 * as well (issue 30, memory: on the large market twelve sets held ~305 MiB after a c16 run; a chain
 * there is ~25–45 MB; with 160 MiB for the sets alone, 168 MiB were held by the three memos). Sets sharing a priced model count it each (the room is a bound, not a measure).
 */
const SCORED_MEMO_BYTES = 128 * 1024 * 1024;
/** Likewise the base scores (each keeps its priced model and overlay) and the priced models themselves. */
const BASE_MEMO_BYTES = 64 * 1024 * 1024;
const PRICED_MEMO_BYTES = 64 * 1024 * 1024;

/** What a base score keeps alive: its own arrays, its priced model's, its overlay's. */
function baseBytes(base: BaseScore): number {
  return ownArrayBytes(base) + ownArrayBytes(base.priced) + (base.model.ownBytes?.() ?? 0);
}

/** What a filtered set keeps alive: its own arrays (its base score's among them), its priced model's, its overlay's. */
function chainBytes(set: ScoredSet): number {
  let n = baseBytes(set);
  for (const v of set.memo.values()) if (v && typeof v === 'object') n += ownArrayBytes(v);
  return n;
}

/** The key of a request's priced model (its model version, price mode, currency and rates, window). */
function pricedKeyOf({ scope, model }: Resolved): string {
  // the crawl times count only with a window (which listings were seen in it)
  return JSON.stringify([
    model.pivot,
    model.version,
    model.subset?.key ?? null,
    scope.currency,
    [...scope.rates],
    scope.mode,
    scope.window,
    scope.window ? [...scope.crawl] : null,
  ]);
}

const ofModelOf = (model: PivotModel) => (v: { model: PivotModel }) => v.model === model;

/** A request's priced model (memoised: the selection-free pass over the pivot's offers). */
function pricedOf(r: Resolved, pricedKey = pricedKeyOf(r)): PricedModel {
  return r.models
    .memo<PricedModel>('pricing-priced', PRICED_MEMO_SIZE, false, {
      maxBytes: PRICED_MEMO_BYTES,
      bytes: ownArrayBytes,
    })
    .remember(pricedKey, () => computePriced(r.model, r.scope), ofModelOf(r.model));
}

export function scored(r: Resolved): ScoredSet {
  const { scope, model } = r;
  const pricedKey = pricedKeyOf(r);
  const baseKey = JSON.stringify([pricedKey, scope.competitors]);
  const key = JSON.stringify([baseKey, scope.mpiValue, scope.rows, scope.post]);
  const ofModel = ofModelOf(model);
  const budget = { maxBytes: SCORED_MEMO_BYTES, bytes: chainBytes };
  return r.models.memo<ScoredSet>('pricing-scored', SCORED_MEMO_SIZE, false, budget).remember(
    key,
    () => {
      const base = r.models
        .memo<BaseScore>('pricing-base', BASE_MEMO_SIZE, false, {
          maxBytes: BASE_MEMO_BYTES,
          bytes: baseBytes,
        })
        .remember(baseKey, () => computeBaseScore(model, scope, pricedOf(r, pricedKey)), ofModel);
      return filterScore(base, scope);
    },
    ofModel,
  );
}

/**
 * The sum of the request's filtered products' indexes, of |index − 100| and their number (the
 * dashboard's today, docs/metrics.md "Dashboard"): from the priced model's table of every selection
 * (compute.ts makeIndexTotals; a few kept, ~1.2 MB each) when the filters allow one, else from the
 * scored set — the same numbers, added in another order.
 */
export function indexTotals(r: Resolved): { sum: number; dev: number; n: number } {
  const { scope, model } = r;
  const pricedKey = pricedKeyOf(r);
  const key = JSON.stringify([pricedKey, scope.rows, scope.post]);
  const table = r.models
    .memo<{ model: PivotModel; table: IndexTotals | null }>(
      'pricing-index-totals',
      INDEX_TOTALS_MEMO_SIZE,
      false,
    )
    .remember(
      key,
      () => ({ model, table: makeIndexTotals(pricedOf(r, pricedKey), scope) }),
      ofModelOf(model),
    );
  if (table.table) return indexTotalsOf(table.table, model, scope.competitors);
  const set = scored(r);
  let n = 0;
  let sum = 0;
  let dev = 0;
  for (const i of set.filtered) {
    const idx = set.index[i];
    if (!Number.isFinite(idx)) continue;
    n++;
    sum += idx;
    dev += Math.abs(idx - 100);
  }
  return { sum, dev, n };
}
const INDEX_TOTALS_MEMO_SIZE = 4;

export function splitOut(t: PricingTally) {
  const split = t.split();
  return { ...split, average_index: round2(split.average_index) };
}

/** The KPI answer of a tally; the caller adds skus_not_found (compute.ts skusNotFound). */
export function kpiResponse(t: PricingTally, s: PricingScope): Omit<PricingKpisResponse, 'skus_not_found'> {
  return {
    ...t.kpis(),
    currency: s.currency,
    mpi_value: s.mpiValue,
    prices_at: s.pricesAt ?? null,
    split: splitOut(t),
  };
}

export function groupOut(t: PricingTally) {
  const kpis = t.kpis();
  return { ...kpis, ...splitOut(t), products: kpis.total, match_pct: round2(share(kpis.match, kpis.total)) };
}

export function sellerGroupOut(
  g: SellerTally,
  sellers: Map<number, SellerInfo>,
  allProducts: number,
): DpmGroup {
  const s = sellers.get(g.sellerId);
  const h = g.headToHead.values();
  return {
    id: g.sellerId,
    name: s?.name ?? SELLER_NOT_FOUND,
    color: s?.color ?? DEFAULT_COLOR,
    ...groupOut(g.tally),
    // for a competitor: coverage, the share of the filtered products matched there
    match_pct: round2(share(g.tally.total, allProducts)),
    head_to_head: { ...h, average_difference_pct: round2(h.average_difference_pct) },
  };
}

const PRICE_TYPES_SET = new Set(['NORMAL', 'SALE', 'EXCLUSIVE', 'BYQUANTITY']);
const priceType = (t: string) => (PRICE_TYPES_SET.has(t) ? t : 'NORMAL') as PricingItem['price_type'];

/**
 * API rows of scored products (positions in the model: a page), with each selected competitor's offer;
 * the URLs, image and competitors' references, which the model does not hold, in one read for the page.
 */
export async function itemsOut(
  db: pg.Pool,
  set: ScoredSet,
  positions: number[],
  r: Resolved,
): Promise<PricingItem[]> {
  const offers = positions.map((i) => competitorOffers(set, i));
  const ids = new Set<number>();
  positions.forEach((i, n) => {
    ids.add(set.model.rows[i].productId);
    for (const o of offers[n]) ids.add(o.offer.productId);
  });
  const texts = await selectListingTexts(db, [...ids]);
  return positions.map((i, n) => itemOut(set, i, r, offers[n], texts));
}

function itemOut(
  set: ScoredSet,
  i: number,
  r: Resolved,
  offers: CompetitorOffer[],
  texts: Map<number, ListingText>,
): PricingItem {
  const { scope } = r;
  const row = rowAt(set.model, i);
  const f = scope.rates.get(row.currency);
  const conv = (p: number | null) => (p === null || f === undefined ? null : round2(p * f));
  const pivotCrawl = scope.crawl.get(scope.pivot);
  const competitors = offers.map(({ offer: o, price, comparable, difference }) => {
    const s = r.sellers.get(o.sellerId);
    // (a listing deleted since the model was loaded has no text: its reference reads as '')
    const text = texts.get(o.productId);
    const of = scope.rates.get(o.currency);
    const oconv = (p: number | null) => (p === null || of === undefined ? null : round2(p * of));
    const crawl = scope.crawl.get(o.sellerId);
    return {
      seller_id: o.sellerId,
      seller_name: s?.name ?? SELLER_NOT_FOUND,
      color: s?.color ?? DEFAULT_COLOR,
      listing_id: String(o.productId),
      product_id: text?.ref ?? '',
      url: text?.url ?? null,
      price: round2(price),
      normal_price: oconv(o.normal),
      sale_price: oconv(o.sale),
      exclusive_price: oconv(o.exclusive),
      price_type: priceType(o.priceType),
      stock_out: o.stockOut,
      last_seen: new Date(lastSeenAt(o.published, o.lastSeen, crawl)).toISOString(),
      historical: isHistoricalAt(o, crawl, scope.todayTs),
      comparable,
      difference_pct: round2(difference),
    };
  });
  const my = nn(set.my[i]);
  const min = nn(set.min[i]);
  const index = nn(set.index[i]);
  const position = set.position[i] || null;
  const ranked = set.ranked[i];
  return {
    id: String(row.productId),
    product_id: row.ref,
    sku: row.sku,
    ean: row.ean,
    name: row.name,
    brand: row.brandId !== null && row.brandName !== null ? { id: row.brandId, name: row.brandName } : null,
    classification_id: row.classificationId,
    url: texts.get(row.productId)?.url ?? null,
    image_url: texts.get(row.productId)?.imageUrl ?? null,
    price_type: priceType(row.priceType),
    stock_out: row.stockOut,
    last_seen: new Date(lastSeenAt(row.published, row.lastSeen, pivotCrawl)).toISOString(),
    historical: isHistoricalAt(row, pivotCrawl, scope.todayTs),
    my_price: round2(my),
    normal_price: conv(row.normal),
    sale_price: conv(row.sale),
    exclusive_price: conv(row.exclusive),
    min_price: round2(min),
    max_price: round2(nn(maxPriceOf(set, i))),
    difference: index === null ? null : round2((my as number) - (min as number)),
    difference_pct: index === null ? null : round2(index - 100),
    index: round2(index),
    bucket: mpiBucket(index, scope.mpiValue),
    position,
    ranked,
    ranking_icon: rankingIcon(position, ranked),
    competitors,
  };
}
