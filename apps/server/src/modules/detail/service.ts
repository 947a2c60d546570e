import {
  availabilityText,
  breadcrumb,
  differencePct,
  enrichDetail,
  type HistoricalCompleteResponse,
  isHistorical,
  MAX_HISTORY_DAYS,
  type ProductInfo,
  type ProductMatchInfo,
  priceExtremes,
  priceHighlight,
  priceVariation,
  type QmItem,
  type QmiHistoryPoint,
  rankingIcon,
  round2,
  STATUS_MESSAGES,
  sortByMinPrice,
} from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import {
  categoryPaths,
  type FxTable,
  listingInLicense,
  loadFx,
  resolvePeriod,
  today,
} from '../../market/index.js';
import type { License } from '../../plugins/auth.js';
import { dailyStates, sellerSeries } from './history.js';
import {
  classificationNames,
  dayBounds,
  groupListings,
  groupSize,
  intervalsOf,
  type ListingRow,
  listingById,
  listingBySellerProduct,
} from './queries.js';

export const NOT_FOUND = { detail: STATUS_MESSAGES[404] };

const iso = (d: Date) => d.toISOString();

// ───────────────────────────── POST /v1/new-detail/ ─────────────────────────────

/**
 * The product match info of a listing: the listing itself (the opened listing) and its match group's
 * listings at the competitor `sellers`, plus the pivot seller's listing of the group (the user's own,
 * "Mi precio", `is_pivot`) whether or not the pivot is in `sellers`; prices in `currency` at today's
 * rate. Without a pivot, or when the pivot has no listing in the group, no item is the pivot.
 * null when the listing is unknown or outside the license.
 */
export async function productMatchInfo(
  db: Queryable,
  p: {
    license: License;
    productId: number;
    pivot: number | null;
    sellers: number[];
    currency: string;
    /** the organisation's market zone (what today is: availability, historical) */
    zone: string;
    now?: Date;
  },
): Promise<ProductMatchInfo | null> {
  const now = p.now ?? new Date();
  const subject = await listingById(db, p.productId);
  if (!subject || !listingInLicense(p.license, subject)) return null;
  const pivot = p.pivot;
  const wanted = p.sellers.filter((s) => s !== subject.seller_id && s !== pivot);
  if (pivot !== null && pivot !== subject.seller_id) wanted.push(pivot);
  const members = subject.group_id ? await groupListings(db, subject.group_id, wanted, subject.id) : [];
  // The pivot's listing: the opened one when it is the pivot's, else the pivot's cheapest of the group.
  const pivotRow =
    pivot === null
      ? null
      : subject.seller_id === pivot
        ? subject
        : (members
            .filter((r) => r.seller_id === pivot)
            .sort(
              (a, b) =>
                (a.effective_price ?? Number.POSITIVE_INFINITY) -
                  (b.effective_price ?? Number.POSITIVE_INFINITY) || a.id - b.id,
            )[0] ?? null);
  const competitors = members.filter((r) => r.seller_id !== pivot || r === pivotRow);
  const rows = [subject, ...competitors];
  const day = today(now, p.zone);
  const [fx, paths] = await Promise.all([
    loadFx(db, [...rows.map((r) => r.currency), p.currency], day, day),
    categoryPaths(
      db,
      rows.map((r) => r.category_id).filter((c): c is number => c !== null),
    ),
  ]);
  const conv = (r: ListingRow, v: number | null) => fx.convert(v, r.currency, p.currency, day);

  const items = rows.map((r) => ({
    row: r,
    is_pivot: r === pivotRow,
    min_price: conv(r, r.effective_price),
    previous_price: conv(r, r.previous_effective_price),
  }));
  const sorted = sortByMinPrice(items, (x) => x.is_pivot);
  const pivotItem = items.find((x) => x.is_pivot) ?? null;
  const { cheaper, expensive } = priceExtremes(items);
  const enrichment = enrichDetail(items);
  const priced = items.filter((x) => x.min_price !== null).length;

  const qm_items: QmItem[] = sorted.map((x, i) => {
    const r = x.row;
    return {
      id: r.id,
      product_id: r.product_id,
      seller_id: r.seller_id,
      seller_name: r.seller_name,
      seller_color: r.seller_color,
      is_pivot: x.is_pivot,
      match_status: r.match_status,
      name: r.name,
      sku: r.sku,
      ean: r.ean,
      url: r.url,
      thumbnail: r.image_url,
      categories: r.category_id !== null ? (paths.get(r.category_id) ?? []) : [],
      normal_price: conv(r, r.normal_price),
      sale_price: conv(r, r.sale_price),
      exclusive_price: conv(r, r.exclusive_price),
      price_type: r.price_type,
      min_price: x.min_price,
      previous_price: x.previous_price,
      difference:
        x.min_price !== null && pivotItem?.min_price != null
          ? round2(x.min_price - pivotItem.min_price)
          : null,
      difference_percent: differencePct(x.min_price, pivotItem?.min_price ?? null),
      stock_out: r.stock_out,
      last_seen: iso(r.last_seen),
      published: r.published,
      availability: availabilityText({ stock_out: r.stock_out, last_seen: r.last_seen }, now, p.zone),
      historical: isHistorical({ stock_out: r.stock_out, last_seen: r.last_seen }, now, p.zone),
      position: x.min_price !== null ? i + 1 : null,
      highlight: priceHighlight(x.min_price, cheaper?.min_price, expensive?.min_price),
    };
  });

  const extreme = (x: (typeof items)[number] | null) =>
    x && x.min_price !== null
      ? { seller_id: x.row.seller_id, seller_name: x.row.seller_name, price: x.min_price }
      : null;

  return {
    _id: subject.id,
    name: subject.name,
    image: subject.image_url,
    seller_id: subject.seller_id,
    seller_name: subject.seller_name,
    product_id: subject.product_id,
    sku: subject.sku,
    ean: subject.ean,
    brand: subject.brand,
    url: subject.url,
    currency: p.currency,
    qm_items,
    ...enrichment,
    cheaper: extreme(cheaper),
    expensive: extreme(expensive),
    cheaper_price: cheaper?.min_price ?? null,
    expensive_price: expensive?.min_price ?? null,
    ranking_icon: rankingIcon(enrichment.pivotQmItemPosition, priced),
  };
}

// ───────────────────────────── /v1/new-detail/info and /v2/detail/qmi ─────────────────────────────

async function infoOf(
  db: Queryable,
  row: ListingRow,
  currency: string,
  now: Date,
  zone: string,
): Promise<ProductInfo> {
  const day = today(now, zone);
  const [fx, paths, classification, members] = await Promise.all([
    loadFx(db, [row.currency, currency], day, day),
    categoryPaths(db, row.category_id !== null ? [row.category_id] : []),
    classificationNames(db, row.classification_path ?? []),
    row.group_id !== null ? groupSize(db, row.group_id) : Promise.resolve(0),
  ]);
  const conv = (v: number | null) => fx.convert(v, row.currency, currency, day);
  const categories = row.category_id !== null ? (paths.get(row.category_id) ?? []) : [];
  const min = conv(row.effective_price);
  const previous = conv(row.previous_effective_price);
  return {
    _id: row.id,
    product_id: row.product_id,
    name: row.name,
    image: row.image_url,
    sku: row.sku,
    ean: row.ean,
    brand: row.brand,
    url: row.url,
    seller: { id: row.seller_id, name: row.seller_name, color: row.seller_color },
    categories,
    breadcrumb: breadcrumb(categories),
    classification,
    first_seen: iso(row.first_seen),
    last_seen: iso(row.last_seen),
    published: row.published,
    currency,
    normal_price: conv(row.normal_price),
    sale_price: conv(row.sale_price),
    exclusive_price: conv(row.exclusive_price),
    price_type: row.price_type,
    min_price: min,
    previous_price: previous,
    variation: priceVariation(min, previous),
    stock_out: row.stock_out,
    availability: availabilityText({ stock_out: row.stock_out, last_seen: row.last_seen }, now, zone),
    match:
      row.group_id !== null && row.match_status !== null
        ? { group_id: row.group_id, status: row.match_status, members }
        : null,
  };
}

/** The info panel of a listing by Vigía id; null when unknown or outside the license. */
export async function productInfoById(
  db: Queryable,
  p: { license: License; productId: number; currency: string; zone: string; now?: Date },
): Promise<ProductInfo | null> {
  const row = await listingById(db, p.productId);
  if (!row || !listingInLicense(p.license, row)) return null;
  return infoOf(db, row, p.currency, p.now ?? new Date(), p.zone);
}

/** qmi-detail: a listing by (seller, seller's own id); null when unknown or outside the license. */
export async function qmiInfo(
  db: Queryable,
  p: { license: License; sellerId: number; productId: string; currency: string; zone: string; now?: Date },
): Promise<ProductInfo | null> {
  const row = await listingBySellerProduct(db, p.sellerId, p.productId);
  if (!row || !listingInLicense(p.license, row)) return null;
  return infoOf(db, row, p.currency, p.now ?? new Date(), p.zone);
}

// ───────────────────────────── histories ─────────────────────────────

/** The days of the period in the organisation's market zone, and the instants they span. */
async function periodFrame(db: Queryable, from: string, to: string, zone: string) {
  const days = await dayBounds(db, from, to, zone);
  const start = new Date(days[0].start);
  const end = new Date(Math.max(...days.map((d) => d.end), days[0].start));
  return { days, start, end };
}

/**
 * /v1/historical/complete/: one series per seller (the listing's seller first, then the pivot's when
 * another seller's listing is opened, then the competitors of its match group at `sellers`, by name) with
 * a point per day of the period. `is_pivot` marks the pivot seller's series (the opened listing's when no
 * pivot is known); ties in the daily positions place it first.
 */
export async function historicalComplete(
  db: Queryable,
  p: {
    license: License;
    productId: number;
    sellerId?: number;
    pivot: number | null;
    sellers: number[];
    currency: string;
    from?: string;
    to?: string;
    /** the organisation's market zone: the period's days */
    zone: string;
    now?: Date;
  },
): Promise<HistoricalCompleteResponse> {
  const period = resolvePeriod(
    { from: p.from, to: p.to },
    { from: 'from_date', to: 'to_date' },
    { maxDays: MAX_HISTORY_DAYS, now: p.now, zone: p.zone },
  );
  const empty = { from_date: period.from, to_date: period.to, currency: p.currency, sellers: [] };
  const subject = await listingById(db, p.productId);
  if (!subject || !listingInLicense(p.license, subject)) return empty;
  if (p.sellerId !== undefined && p.sellerId !== subject.seller_id) return empty;
  const pivot = p.pivot;
  const wanted = p.sellers.filter((s) => s !== subject.seller_id && s !== pivot);
  if (pivot !== null && pivot !== subject.seller_id) wanted.push(pivot);
  const competitors = subject.group_id ? await groupListings(db, subject.group_id, wanted, subject.id) : [];
  const bySeller = new Map<number, { row: ListingRow; listings: number[] }>();
  for (const r of competitors) {
    const cur = bySeller.get(r.seller_id);
    if (cur) cur.listings.push(r.id);
    else bySeller.set(r.seller_id, { row: r, listings: [r.id] });
  }
  const series = [
    {
      sellerId: subject.seller_id,
      isPivot: pivot === null || pivot === subject.seller_id,
      listings: [subject.id],
      row: subject,
    },
    ...[...bySeller.values()]
      .sort(
        (a, b) =>
          Number(b.row.seller_id === pivot) - Number(a.row.seller_id === pivot) ||
          a.row.seller_name.localeCompare(b.row.seller_name, 'es'),
      )
      .map((s) => ({
        sellerId: s.row.seller_id,
        isPivot: s.row.seller_id === pivot,
        listings: s.listings,
        row: s.row,
      })),
  ];
  const ids = series.flatMap((s) => s.listings);
  const frame = await periodFrame(db, period.from, period.to, p.zone);
  const intervals = await intervalsOf(db, ids, frame.start, frame.end);
  const currencies = new Set<string>([p.currency]);
  for (const list of intervals.values()) for (const iv of list) currencies.add(iv.currency);
  const fx = await loadFx(db, [...currencies], period.from, period.to);
  const points = sellerSeries(series, intervals, frame.days, fx, p.currency);
  return {
    ...empty,
    sellers: series.map((s) => ({
      id: s.sellerId,
      name: s.row.seller_name,
      color: s.row.seller_color,
      is_pivot: s.isPivot,
      prices: points.get(s.sellerId) ?? [],
    })),
  };
}

export interface QmiHistory {
  row: ListingRow | null;
  from: string;
  to: string;
  prices: QmiHistoryPoint[];
}

/** /v2/detail/qmi/history: the daily points of one listing. `row` null when unknown or outside the license. */
export async function qmiHistory(
  db: Queryable,
  p: {
    license: License;
    sellerId: number;
    productId: string;
    currency: string;
    from?: string;
    to?: string;
    /** the organisation's market zone: the period's days */
    zone: string;
    now?: Date;
  },
): Promise<QmiHistory> {
  const period = resolvePeriod(
    { from: p.from, to: p.to },
    { from: 'fromDate', to: 'toDate' },
    { maxDays: MAX_HISTORY_DAYS, now: p.now, zone: p.zone },
  );
  const row = await listingBySellerProduct(db, p.sellerId, p.productId);
  if (!row || !listingInLicense(p.license, row))
    return { row: null, from: period.from, to: period.to, prices: [] };
  const frame = await periodFrame(db, period.from, period.to, p.zone);
  const intervals = (await intervalsOf(db, [row.id], frame.start, frame.end)).get(row.id) ?? [];
  const fx: FxTable = await loadFx(
    db,
    [p.currency, ...new Set(intervals.map((i) => i.currency))],
    period.from,
    period.to,
  );
  const prices = dailyStates(intervals, frame.days, fx, p.currency).map((s) => ({
    date: s.day,
    price: s.price,
    normal_price: s.normal_price,
    sale_price: s.sale_price,
    exclusive_price: s.exclusive_price,
    price_type: s.price_type,
    stock_out: s.stock_out,
  }));
  return { row, from: period.from, to: period.to, prices };
}
