import type { PriceType } from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import { Params, wordsMatch } from '../../db/sql.js';
import { lastSeenSql } from '../../market/index.js';

// SQL of the product list (docs/metrics.md "Product list"): listing_current + products, one page at a
// time; history is read only for the ≤ page-size listings of the page (promotion duration). The page
// and the count are separate queries that join only what their filters and sort need: a window count
// over the page query would read every selected listing, and the default view (one seller by name) is an
// index scan that stops after the page (migration 031). A sort no index serves (price, last update)
// reads every selected listing anyway: there the page counts them too (`withTotal`), one scan instead
// of two (issue 30: a short-word search sorted by price on the large market was two ~45 ms scans).

export interface ProductListQuery {
  sellers: number[];
  /** sellers whose listings count as matches (the license's, the listing's own excluded) */
  visibleSellers: number[];
  roots: number[];
  classificationsIds?: number[];
  brands?: number[];
  words?: string[];
  match?: boolean;
  stockOut?: boolean;
  includeUnpublished?: boolean;
  /** currency → factor to CLP, to sort prices of different currencies */
  clpRates: Map<string, number>;
  sort: 'name' | 'price' | 'updated' | 'seller';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface ProductListRow {
  id: number;
  product_id: string;
  seller_id: number;
  seller_name: string;
  seller_currency: string;
  ean: string | null;
  sku: string | null;
  name: string | null;
  brand: string | null;
  url: string | null;
  image_url: string | null;
  category_id: number | null;
  published: boolean;
  first_seen: Date;
  last_seen: Date;
  normal_price: number | null;
  effective_price: number | null;
  previous_effective_price: number | null;
  price_type: PriceType | null;
  stock_out: boolean | null;
  currency: string | null;
  price_changed_at: Date | null;
  matches: number;
}

const SORTS: Record<ProductListQuery['sort'], string> = {
  name: 'p.name_key',
  price: 'lc.effective_price * rt.f',
  updated: 'coalesce(lc.price_changed_at, p.first_seen)',
  seller: 's.name',
};

/** FROM … WHERE of the filtered listings, joining only what the filters and `sort` read. */
function filtered(p: Params, q: ProductListQuery, sort: ProductListQuery['sort'] | null): string {
  const needsLc = sort === 'price' || sort === 'updated' || q.stockOut !== undefined || q.match !== undefined;
  const conds = [
    q.sellers.length === 1
      ? `p.seller_id = ${p.add(q.sellers[0], '::int')}`
      : `p.seller_id = any(${p.add(q.sellers, '::int[]')})`,
  ];
  if (!q.includeUnpublished) conds.push('p.published');
  const under = (ids: number[]) =>
    `p.classification_id in (select id from classifications where path && ${p.add(ids, '::int[]')})`;
  if (q.roots.length) conds.push(under(q.roots));
  if (q.classificationsIds?.length) conds.push(under(q.classificationsIds));
  if (q.brands?.length) conds.push(`p.brand_id = any(${p.add(q.brands, '::int[]')})`);
  if (q.words?.length) conds.push(wordsMatch(p, q.words));
  if (q.stockOut !== undefined)
    conds.push(`coalesce(lc.stock_out, false) = ${p.add(q.stockOut, '::boolean')}`);
  if (q.match !== undefined) {
    const hasMatch = `exists (select 1 from listing_current g
                               where g.group_id = lc.group_id and g.seller_id <> p.seller_id
                                 and g.seller_id = any(${p.add(q.visibleSellers, '::int[]')}))`;
    conds.push(q.match ? hasMatch : `not ${hasMatch}`);
  }
  const joins = [
    sort === 'seller' ? 'join sellers s on s.id = p.seller_id' : '',
    needsLc ? currentJoin(q) : '',
    sort === 'price' ? `left join ${ratesSql(p, q)} on rt.currency = lc.currency` : '',
  ];
  return `from products p ${joins.filter(Boolean).join(' ')} where ${conds.join(' and ')}`;
}

/**
 * The listings' current rows. A search selects a few thousand listings (a common word: ~6k of a pivot's
 * 100k on the large market), and PostgreSQL, planning for data on disk, hash-joined them with the whole
 * listing_current (1.15 M rows, ~0.3 s) for a sort by price; the lateral subquery (kept apart by
 * `offset 0`) probes its primary key per selected listing instead (~25 ms; issue 30, twelfth session).
 * Without a search the whole seller is selected, and the join is left to the planner.
 */
const currentJoin = (q: ProductListQuery) =>
  q.words?.length
    ? 'left join lateral (select lc.* from listing_current lc where lc.product_id = p.id offset 0) lc on true'
    : 'left join listing_current lc on lc.product_id = p.id';

const ratesSql = (p: Params, q: ProductListQuery) =>
  `unnest(${p.add([...q.clpRates.keys()], '::text[]')}, ${p.add([...q.clpRates.values()], '::float8[]')}) as rt(currency, f)`;

/** Sorts whose page reads every selected listing (no index gives their order). */
export const SORTS_READING_ALL: readonly ProductListQuery['sort'][] = ['price', 'updated'];

/** One page of listings, in the requested order; `withTotal`: each row carries the number selected. */
export async function selectProductPage(
  db: Queryable,
  q: ProductListQuery,
  withTotal = false,
): Promise<(ProductListRow & { total?: number })[]> {
  const p = new Params();
  const visible = p.add(q.visibleSellers, '::int[]');
  const dir = q.order === 'desc' ? 'desc' : 'asc';
  const order = `order by ${SORTS[q.sort]} ${dir} nulls last, p.id ${dir}`;
  const sql = `
    with page as (
      select p.id${withTotal ? ', count(*) over ()::int as total' : ''} ${filtered(p, q, q.sort)}
       ${order}
       limit ${p.add(q.limit, '::int')} offset ${p.add(q.offset, '::int')}
    )
    select p.id, p.product_id, p.seller_id, s.name as seller_name, s.currency as seller_currency, p.ean, p.sku,
           p.name, b.name as brand, p.url, p.image_url, p.category_id, p.published, p.first_seen,
           ${lastSeenSql('p', 's')} as last_seen,
           lc.normal_price, lc.effective_price, lc.previous_effective_price, lc.price_type, lc.stock_out,
           lc.currency, lc.price_changed_at,
           (select count(*) from listing_current g
             where g.group_id = lc.group_id and g.seller_id <> p.seller_id and g.seller_id = any(${visible}))::int as matches
           ${withTotal ? ', page.total' : ''}
      from page
      join products p on p.id = page.id
      join sellers s on s.id = p.seller_id
      left join brands b on b.id = p.brand_id
      left join listing_current lc on lc.product_id = p.id
      left join ${ratesSql(p, q)} on rt.currency = lc.currency
     ${order}`;
  const { rows } = await db.query<ProductListRow>(sql, p.values);
  return rows;
}

/** Number of listings the filters select. */
export async function countProducts(db: Queryable, q: ProductListQuery): Promise<number> {
  const p = new Params();
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n ${filtered(p, q, null)}`,
    p.values,
  );
  return rows[0].n;
}

/**
 * Start of the current promotion of each listing: the earliest valid_from of the unbroken run of
 * non-NORMAL intervals that ends with the latest interval. Listings whose latest interval is NORMAL
 * are absent.
 */
export async function promotionStarts(db: Queryable, ids: number[]): Promise<Map<number, Date>> {
  const out = new Map<number, Date>();
  if (!ids.length) return out;
  const { rows } = await db.query<{ product_id: number; start: Date }>(
    `select product_id, min(valid_from) as start
       from (select product_id, valid_from,
                    sum(case when price_type = 'NORMAL' then 1 else 0 end)
                      over (partition by product_id order by valid_from desc) as normals_since
               from price_intervals where product_id = any($1)) x
      where normals_since = 0
      group by product_id`,
    [ids],
  );
  for (const r of rows) out.set(r.product_id, r.start);
  return out;
}
