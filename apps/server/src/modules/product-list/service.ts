import {
  dayNameSpa,
  MESSAGES,
  PRODUCT_LIST_OBSERVATIONS,
  type ProductListItem,
  type ProductListResponse,
} from '@vigia/domain';
import type pg from 'pg';
import { badRequest } from '../../lib/errors.js';
import { categoryPaths, cents, normalizeSearch, ratesTo, selectClpRates, today } from '../../market/index.js';
import {
  countProducts,
  type ProductListQuery,
  type ProductListRow,
  promotionStarts,
  SORTS_READING_ALL,
  selectProductPage,
} from './queries.js';

// The product list (docs/metrics.md "Product list").

const DAY_MS = 86_400_000;
/** A listing first seen, or whose price changed, within this many days is tagged new / price up-down. */
export const RECENT_DAYS = 7;

type Tag = ProductListItem['observation']['tag'];

/**
 * The observation tag of a listing, first that applies: unpublished, stock_out, promotion (price type
 * other than NORMAL), new (first seen in the last 7 days), price_up / price_down (effective price
 * changed in the last 7 days), none.
 */
export function observationTag(
  r: {
    published: boolean;
    stock_out: boolean | null;
    price_type: string | null;
    first_seen: Date;
    price_changed_at: Date | null;
    effective_price: number | null;
    previous_effective_price: number | null;
  },
  now: Date,
): Tag {
  const recent = (d: Date | null) => d !== null && now.getTime() - d.getTime() < RECENT_DAYS * DAY_MS;
  if (!r.published) return 'unpublished';
  if (r.stock_out) return 'stock_out';
  if (r.price_type && r.price_type !== 'NORMAL') return 'promotion';
  if (recent(r.first_seen)) return 'new';
  if (recent(r.price_changed_at) && r.effective_price !== null && r.previous_effective_price !== null) {
    if (r.effective_price > r.previous_effective_price) return 'price_up';
    if (r.effective_price < r.previous_effective_price) return 'price_down';
  }
  return null;
}

export async function productList(
  pool: pg.Pool,
  q: Omit<ProductListQuery, 'clpRates' | 'limit' | 'offset' | 'words'> & {
    currency: string;
    search?: string;
    page: number;
    pageSize: number;
    /** the organisation's market zone: today's rates */
    zone: string;
    now?: Date;
  },
): Promise<ProductListResponse> {
  const now = q.now ?? new Date();
  const day = today(now, q.zone);
  const clp = await selectClpRates(pool, day);
  const clpRates = ratesTo(clp, 'CLP');
  const rates = ratesTo(clp, q.currency);
  if (!clpRates || !rates) throw badRequest(`currency: no hay tipo de cambio para ${q.currency}`, 'currency');
  const query: ProductListQuery = {
    ...q,
    words: q.search ? normalizeSearch(q.search) : undefined,
    clpRates,
    limit: q.pageSize,
    offset: (q.page - 1) * q.pageSize,
  };
  let rows: ProductListRow[];
  let totalItems: number;
  if (SORTS_READING_ALL.includes(query.sort)) {
    // one scan: the page counts what it sorted (an empty page past the first: counted apart)
    const page = await selectProductPage(pool, query, true);
    rows = page;
    totalItems = page[0]?.total ?? (query.offset === 0 ? 0 : await countProducts(pool, query));
  } else [rows, totalItems] = await Promise.all([selectProductPage(pool, query), countProducts(pool, query)]);
  const [paths, promoStarts] = await Promise.all([
    categoryPaths(
      pool,
      rows.map((r) => r.category_id).filter((c): c is number => c !== null),
    ),
    promotionStarts(
      pool,
      rows.filter((r) => r.published && r.price_type && r.price_type !== 'NORMAL').map((r) => r.id),
    ),
  ]);
  const conv = (v: number | null, currency: string | null) => {
    const f = rates.get(currency ?? '');
    return v === null || f === undefined ? null : cents(v * f);
  };
  return {
    items: rows.map((r): ProductListItem => {
      const categories = r.category_id !== null ? (paths.get(r.category_id) ?? []) : [];
      const updated = r.price_changed_at ?? r.first_seen;
      const tag = observationTag(r, now);
      const promoStart = promoStarts.get(r.id);
      return {
        id: r.id,
        ean: r.ean,
        sku: r.sku,
        product_id: r.product_id,
        seller_id: r.seller_id,
        seller_name: r.seller_name,
        brand: r.brand,
        url: r.url,
        name: r.name,
        price: conv(r.effective_price, r.currency),
        normal_price: conv(r.normal_price, r.currency),
        price_type: r.price_type ?? 'NORMAL',
        stock_out: r.stock_out ?? false,
        categories,
        updated: updated.toISOString(),
        extracted: r.last_seen.toISOString(),
        currency: q.currency,
        image: r.image_url,
        plp: categories.length ? categories[categories.length - 1].url : null,
        observation: { tag, text: tag ? PRODUCT_LIST_OBSERVATIONS[tag] : null },
        day_name_spa: dayNameSpa(updated),
        sale_duration_in_weeks: promoStart
          ? Math.floor((now.getTime() - promoStart.getTime()) / (7 * DAY_MS))
          : null,
        matches: r.matches,
        published: r.published,
      };
    }),
    totalItems,
    page: q.page,
    page_size: q.pageSize,
    listTitle: MESSAGES.productListTitle,
  };
}
