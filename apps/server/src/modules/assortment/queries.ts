import type { AssortmentProductSort } from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import { Params } from '../../db/sql.js';

// SQL of the assortment screens (docs/metrics.md "Assortment"). The figures come from the daily roll-up
// rollup_daily_brand (migrations/010_rollups.sql, kept at ingest by modules/ingest/rollups.ts): per seller
// its latest row on or before a day (a day without a run carries the previous state forward) and the
// stock events of the days of a period. The drill-downs list the listings behind a row: from
// listing_current when the period ends at the seller's latest run, else from the price history at the
// seller's last run of that day (the instant the roll-up row describes). Every day is one of
// `AssortmentSelection.zone` (the answer's day zone, dayZone: the organisation's market zone once its
// roll-up rows are ready, else the deployment's); the roll-up and the read model hold rows per zone.

/** Which listings a question is about: sellers, and the classification/brand restrictions. */
export interface AssortmentSelection {
  /** the zone whose days the answer uses (dayZone of the organisation's market zone) */
  zone: string;
  sellers: number[];
  /** license's granted classification roots; empty = whole tree */
  roots: number[];
  classificationsIds?: number[];
  /** brand ids (filter) */
  brands?: number[];
  /** the license's own brands when ownBrands is set */
  ownBrands?: number[];
}

/** Conditions of a selection on a (classification_id, brand_id) pair of columns. */
export function selectionCond(p: Params, s: AssortmentSelection, cls: string, brand: string): string {
  const out: string[] = [];
  if (s.roots.length)
    out.push(`${cls} in (select id from classifications where path && ${p.add(s.roots, '::int[]')})`);
  if (s.classificationsIds?.length)
    out.push(
      `${cls} in (select id from classifications where path && ${p.add(s.classificationsIds, '::int[]')})`,
    );
  if (s.brands?.length) out.push(`${brand} = any(${p.add(s.brands, '::int[]')})`);
  if (s.ownBrands) out.push(`${brand} = any(${p.add(s.ownBrands, '::int[]')})`);
  return out.length ? out.join(' and ') : 'true';
}

/** Per (seller, brand): the state at the end of both periods and the stock events within them. */
export interface AssortmentFigureRow {
  seller_id: number;
  brand_id: number | null;
  cur_published: number;
  cur_in_stock: number;
  cur_priced: number;
  /** in the seller's currency: the exact numeric sum as text (domain ConvertedSum adds it) */
  cur_value: string;
  prev_published: number;
  prev_in_stock: number;
  prev_priced: number;
  prev_value: string;
  went_out: number;
  back_in: number;
  prev_went_out: number;
  prev_back_in: number;
}

export interface Periods {
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
}

/**
 * The roll-up figures of a selection per (seller, brand): state at the end of the period (each seller's
 * latest roll-up day ≤ `to`) and of the previous period (≤ `previousTo`), events summed over the days of
 * each period (running totals of assortment_events_cum at both ends). Reads rollup_daily_brand (index
 * (seller_id, day, classification_id, brand_id)) and assortment_events_cum only: a few rows per group.
 */
export async function selectAssortmentFigures(
  db: Queryable,
  s: AssortmentSelection,
  q: Periods,
): Promise<AssortmentFigureRow[]> {
  const p = new Params();
  const sellers = p.add(s.sellers, '::int[]');
  const zone = p.add(s.zone, '::text');
  const to = p.add(q.to, '::date');
  const prevTo = p.add(q.previousTo, '::date');
  const prevFrom = p.add(q.previousFrom, '::date');
  const cond = selectionCond(p, s, 'r.classification_id', 'r.brand_id');
  const cumCond = selectionCond(p, s, 'c.classification_id', 'c.brand_id');
  const sql = `
    with last as (
      select x.id as seller_id,
             (select max(r.day) from rollup_daily_brand r where r.zone = ${zone} and r.seller_id = x.id and r.day <= ${to}) as cur_day,
             (select max(r.day) from rollup_daily_brand r where r.zone = ${zone} and r.seller_id = x.id and r.day <= ${prevTo}) as prev_day
        from unnest(${sellers}) as x(id)
    ),
    -- events of a group in (a, b] = its running total on its seller's last day ≤ b − the one ≤ a
    -- (assortment_events_cum, migration 112): at the period's end (+), the day before it (− this
    -- period, + the previous one) and the day before the previous period (−)
    marks as (
      select x.id as seller_id, m.sign, m.part,
             (select max(c.day) from assortment_events_cum c
               where c.zone = ${zone} and c.seller_id = x.id and c.day <= m.d) as day
        from unnest(${sellers}) as x(id)
        cross join (values (${to}, 1, 'cur'), (${prevTo}, -1, 'cur'), (${prevTo}, 1, 'prev'),
                           (${prevFrom} - 1, -1, 'prev')) as m(d, sign, part)
    ),
    events as (
      select c.seller_id, c.brand_id, c.classification_id,
             sum(case when m.part = 'cur' then m.sign * c.went_out_cum else 0 end) as wo,
             sum(case when m.part = 'cur' then m.sign * c.back_in_cum else 0 end) as bk,
             sum(case when m.part = 'prev' then m.sign * c.went_out_cum else 0 end) as pwo,
             sum(case when m.part = 'prev' then m.sign * c.back_in_cum else 0 end) as pbk
        from marks m join assortment_events_cum c on c.zone = ${zone} and c.seller_id = m.seller_id and c.day = m.day
       where ${cumCond}
       group by 1, 2, 3
    ),
    parts as (
      select r.seller_id, r.brand_id, r.published as cp, r.in_stock as ci, r.priced as cpr,
             r.effective_price_sum as cv, 0 as pp, 0 as pi, 0 as ppr, 0::numeric as pv, 0 as wo, 0 as bk, 0 as pwo, 0 as pbk
        from last join rollup_daily_brand r on r.zone = ${zone} and r.seller_id = last.seller_id and r.day = last.cur_day
       where ${cond}
      union all
      select r.seller_id, r.brand_id, 0, 0, 0, 0, r.published, r.in_stock, r.priced, r.effective_price_sum, 0, 0, 0, 0
        from last join rollup_daily_brand r on r.zone = ${zone} and r.seller_id = last.seller_id and r.day = last.prev_day
       where ${cond}
      union all
      select seller_id, brand_id, 0, 0, 0, 0, 0, 0, 0, 0, wo, bk, pwo, pbk from events
       where wo <> 0 or bk <> 0 or pwo <> 0 or pbk <> 0
    )
    select seller_id, brand_id,
           sum(cp)::int as cur_published, sum(ci)::int as cur_in_stock, sum(cpr)::int as cur_priced,
           sum(cv)::text as cur_value,
           sum(pp)::int as prev_published, sum(pi)::int as prev_in_stock, sum(ppr)::int as prev_priced,
           sum(pv)::text as prev_value,
           sum(wo)::int as went_out, sum(bk)::int as back_in, sum(pwo)::int as prev_went_out,
           sum(pbk)::int as prev_back_in
      from parts
     group by seller_id, brand_id`;
  const { rows } = await db.query<AssortmentFigureRow>(sql, p.values);
  return rows;
}

export interface SellerRow {
  id: number;
  name: string;
  color: string;
  currency: string;
}

export async function selectSellers(db: Queryable, ids: number[]): Promise<SellerRow[]> {
  const { rows } = await db.query<SellerRow>(
    'select id, name, color, currency from sellers where id = any($1::int[])',
    [ids],
  );
  return rows;
}

export async function selectBrandNames(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const { rows } = await db.query<{ id: number; name: string }>(
    'select id, name from brands where id = any($1::int[])',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Brand ids with this name (names are not unique; normalized_name is). */
export async function selectBrandIdsByName(db: Queryable, name: string): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('select id from brands where name = $1', [name]);
  return rows.map((r) => r.id);
}

// ───────────────────────────── drill-downs ─────────────────────────────

export interface ProductQuery {
  selection: AssortmentSelection;
  /** restrict to these brand ids; `null` inside = listings without brand; undefined = every brand */
  brandIds?: (number | null)[];
  to: string;
  from: string;
  /** currency → factor to the requested currency */
  rates: Map<string, number>;
  sort: AssortmentProductSort;
  dir: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface ProductRow {
  id: string;
  product_id: string;
  sku: string | null;
  name: string | null;
  brand: string | null;
  seller_id: number;
  seller_name: string;
  color: string | null;
  url: string | null;
  image_url: string | null;
  price: number | null;
  price_type: string | null;
  stock_out: boolean | null;
  event_date: string | null;
  back_date: string | null;
  days_out: number | null;
  total: number;
}

export function brandCond(p: Params, brandIds: (number | null)[] | undefined, col: string): string {
  if (!brandIds) return 'true';
  const ids = brandIds.filter((b): b is number => b !== null);
  const parts: string[] = [];
  if (ids.length) parts.push(`${col} = any(${p.add(ids, '::int[]')})`);
  if (brandIds.includes(null)) parts.push(`${col} is null`);
  return parts.length ? `(${parts.join(' or ')})` : 'false';
}

export const ratesCte = (p: Params, rates: Map<string, number>) => ratesOf(p, rates).cte;

/**
 * A price × a factor, to the cent (the drill-downs' converted price). A price already in the asked
 * currency (factor 1: most of a market's spans) is its own value — numeric(14,2) has at most 14 digits, so
 * its float8 printed with 15 and rounded to the cent gives it back — and skips the numeric rounding, which
 * was ~11 ms of a brand's list of 33k spans sorted by price on the large market (issue 30).
 */
const toCents = (price: string, factor: string) =>
  `case when ${factor} = 1 then ${price}::float8 else round((${price} * ${factor})::numeric, 2)::float8 end`;

/**
 * The rates CTE (`rates(currency, f)`) and, over the same two arrays, `converted(k)`: span row `k`'s
 * effective price in the requested currency to the cent, null without a rate (an array lookup: per row
 * cheaper than a join with the CTE, which a price sort does for every span of a brand's list).
 */
function ratesOf(p: Params, rates: Map<string, number>) {
  const currencies = p.add([...rates.keys()], '::text[]');
  const factors = p.add([...rates.values()], '::float8[]');
  return {
    cte: `rates(currency, f) as (select * from unnest(${currencies}, ${factors}))`,
    converted: (k: string) =>
      toCents(`${k}.effective_price`, `(${factors})[array_position(${currencies}, ${k}.currency)]`),
  };
}

/**
 * The id of zone `zone` (an SQL text expression) in assortment_spans (zone_ids, migration 490: every zone
 * of rollup_zones has one; the spans keep the 2-byte id, not the name, in their key and indexes). Null (no
 * span matches) for a zone without one.
 */
export const zoneId = (zone: string) => `(select zi.id from zone_ids zi where zi.zone = ${zone})`;

/**
 * Per seller of `sellers`, the day X whose state the drill-down lists: its latest roll-up day ≤ `to` in
 * `zone` (carried as ends.zone: the zone of the roll-up rows, and ends.zone_id: the spans').
 */
const ENDS = (sellers: string, to: string, zone: string, kind: ListKind) => `
  ends as (
    select x.id as seller_id, d.day, ${zone} as zone, ${zoneId(zone)} as zone_id
      from unnest(${sellers}) as x(id)
      cross join lateral (select max(r.day) as day from rollup_daily_brand r
                           where r.zone = ${zone} and r.seller_id = x.id and r.day <= ${to}) d
     where d.day is not null ${kind === 'out' ? OUT_ON_X(zone) : ''}
  )`;

/**
 * 'out': only the sellers the roll-up counts out of stock on X (the list's own count). A seller with none
 * would otherwise cost a scan of every stock-out span of its history (the out indexes lead by the sort
 * key, the day is checked on each entry) to find nothing: on the large market, a day without stock-outs
 * made the 'Todos' list take 0.8 s at c1 and 3.3 s at c16 (issue 30, 2026-11-29).
 */
const OUT_ON_X = (zone: string) => `
       and (select coalesce(sum(r.published - r.in_stock), 0) from rollup_daily_brand r
             where r.zone = ${zone} and r.seller_id = x.id and r.day = d.day) > 0`;

export const LISTING_COLUMNS = `p.id::text as id, p.product_id, p.sku, p.name, coalesce(b.name, 'Sin marca') as brand,
       p.seller_id, s.name as seller_name, s.color, p.url, p.image_url`;

/** Which list a drill-down shows: the state on X, those out of stock on X, or an event of the period. */
export type ListKind = 'state' | 'out' | 'went_out' | 'back_in';

/** The span columns a page is sorted on (assortment_spans `a`), read before any other table. */
const SPAN_KEYS = (kind: ListKind) => `a.product_id as id, a.seller_id, a.name_key, a.brand_key, a.currency,
       a.effective_price, a.price_type, a.stock_out,
       ${kind === 'state' ? 'null::date' : kind === 'out' ? 'a.out_day' : 'a.first_day'} as event_day`;

/**
 * Span `a` is in the list of seller row `e` (ends: seller_id, day X; the period's bounds for events).
 * `byClass`: for a count of the list's spans of some classifications (or none), which must read the
 * classification index's range — written `stock_out is true` (the column is not null: the same spans),
 * which does not let the planner take the out-of-stock partial indexes instead: they lead by the sort
 * keys, so a count of the listings without classification checked every out-of-stock span of the seller
 * (2.7 ms a seller on the large market: 32 of the 36 ms of the 'Todos' out-of-stock page; issue 30).
 */
function inList(kind: ListKind, e: string, p: Params, q: ProductQuery, byClass = false): string {
  if (kind === 'went_out' || kind === 'back_in')
    // (both forms: the columns' values are checked on the sort indexes' tuples, the inequality selects the
    // events' partial index)
    return `a.seller_id = ${e}.seller_id and a.zone_id = ${e}.zone_id and a.stock_out = ${kind === 'went_out'} and a.prev_stock_out = ${kind === 'back_in'}
            and a.stock_out <> a.prev_stock_out
            and a.first_day >= ${p.add(q.from, '::date')} and a.first_day <= ${p.add(q.to, '::date')}`;
  const out = kind !== 'out' ? '' : byClass ? 'and a.stock_out is true' : 'and a.stock_out';
  return `a.seller_id = ${e}.seller_id and a.zone_id = ${e}.zone_id and a.last_day >= ${e}.day and a.first_day <= ${e}.day ${out}`;
}

/** A page row's (`k`) converted price, when the page was not sorted by it (pageOf): ratesOf's, on 25 rows. */
const PAGE_PRICE = `(select ${toCents('k.effective_price', 'r.f')} from rates r where r.currency = k.currency)`;

/** The order of a drill-down's page over the rows `k` of `keyed` (SPAN_KEYS, price, seller_key). */
function pageOrder(q: ProductQuery): string {
  const dir = q.dir === 'desc' ? 'desc' : 'asc';
  const key: Record<AssortmentProductSort, string> = {
    name: 'k.name_key',
    price: 'k.price',
    seller: 'k.seller_key',
    brand: 'k.brand_key',
    date: 'k.event_day',
  };
  // a listing's events of the period (a stock list) follow each other by day
  return `${key[q.sort]} ${dir} nulls last, k.id ${dir}, k.event_day ${dir}`;
}

/**
 * CTEs `keyed` (the candidate rows `cand`, SPAN_KEYS, with the seller's sort key and, when the page is
 * sorted by it, the converted price) and `page` (the page in the sort's order, with `total`): only the
 * page's rows are then joined to products, sellers and brands, and priced (pageRows). A brand's list
 * holds every span of the brand (tens of thousands on the large market): converting each one's price
 * (numeric rounding) and joining the rates per row was half of its time (issue 30: 72 → 35 ms for a
 * brand of 33k listings), so a page sorted otherwise prices only its rows.
 */
function pageOf(q: ProductQuery, p: Params, cand: string, total = 'count(*) over ()::int as total'): string {
  const rates = ratesOf(p, q.rates);
  return `
    ${rates.cte},
    keyed as (
      select c.*, ${q.sort === 'price' ? rates.converted('c') : 'null::float8'} as price, lower(s.name) as seller_key
        from (${cand}) c
        join sellers s on s.id = c.seller_id
    ),
    page as (
      select k.*, ${total} from keyed k
       order by ${pageOrder(q)}
       limit ${p.add(q.limit, '::int')} offset ${p.add(q.offset, '::int')}
    )`;
}

/**
 * The page's rows (`page k`) with the listing's columns, and the dates of the list: `event_date`; for
 * the events, the return date (went_out) or the previous in-stock date (back_in) from the price history
 * (one probe per row of the page), and `days_out`.
 */
function pageRows(q: ProductQuery, p: Params, kind: ListKind): string {
  const to = kind === 'out' || kind === 'went_out' ? p.add(q.to, '::date') : '';
  const zone = kind === 'went_out' || kind === 'back_in' ? p.add(q.selection.zone, '::text') : '';
  let other = '';
  let backDate = 'null::text';
  let daysOut = kind === 'out' ? `${to} - k.event_day` : 'null::int';
  if (kind === 'went_out') {
    // the seller's last run of the event's day, then the first in-stock interval after it
    const t = `(select max(ir.observed_at) from ingest_runs ir
                 where ir.seller_id = k.seller_id and ir.status = 'succeeded'
                   and ir.observed_at >= vigia_day_start(k.event_day, ${zone})
                   and ir.observed_at < vigia_day_start(k.event_day + 1, ${zone}))`;
    other = `cross join lateral (select (select vigia_day(min(x.valid_from), ${zone})
                                             from price_intervals x
                                            where x.product_id = k.id and x.valid_from > ${t} and not x.stock_out) as d) o`;
    backDate = `case when o.d <= ${to} then o.d::text end`;
    daysOut = `(case when o.d <= ${to} then o.d else ${to} end) - k.event_day`;
  } else if (kind === 'back_in') {
    other = `cross join lateral (select (select vigia_day(max(x.valid_to), ${zone})
                                             from price_intervals x
                                            where x.product_id = k.id and not x.stock_out
                                              and x.valid_to <= vigia_day_start(k.event_day, ${zone})) as d) o`;
    daysOut = 'case when o.d is not null then k.event_day - o.d end';
  }
  return `
    select ${LISTING_COLUMNS}, ${q.sort === 'price' ? 'k.price' : PAGE_PRICE} as price, k.price_type, k.stock_out, k.event_day::text as event_date,
           ${backDate} as back_date, ${daysOut} as days_out, k.total
      from page k
      join products p on p.id = k.id
      join sellers s on s.id = k.seller_id
      left join brands b on b.id = p.brand_id
      ${other}
     order by ${pageOrder(q)}`;
}

/**
 * Classification restriction of a selection as arrays of ids (null: none): inside it, so that it is
 * checked on the spans' index tuples, and outside it (for counting the side with fewer classifications).
 */
async function classificationIds(
  db: Queryable,
  s: AssortmentSelection,
): Promise<{ inside: number[]; outside: number[] } | null> {
  if (!s.roots.length && !s.classificationsIds?.length) return null;
  const { rows } = await db.query<{ inside: number[]; outside: number[] }>(
    `select coalesce(array_agg(id) filter (where inside), '{}') as inside,
            coalesce(array_agg(id) filter (where not inside), '{}') as outside
       from (select id, (cardinality($1::int[]) = 0 or path && $1::int[])
                        and (cardinality($2::int[]) = 0 or path && $2::int[]) as inside
               from classifications) c`,
    [s.roots, s.classificationsIds ?? []],
  );
  return rows[0];
}

/**
 * A drill-down's page of listings (docs/metrics.md "Read model of the drill-downs"), from assortment_spans:
 *  - state (by brand / by e-commerce) and out ('out' of the stock variant): the spans covering each
 *    seller's day X (its latest roll-up day ≤ `to`, the day the row's figures describe), with their
 *    effective price then; 'out': those out of stock, `event_date` = the day they went out;
 *  - went_out / back_in: the spans that start in the period with stock_out ≠ prev_stock_out (the daily
 *    roll-up's events), `event_date` = the day.
 * A whole seller or several ('Todas', 'Todos', a seller's row): per seller (and currency, for the price)
 * the first page × size spans of the list in the sort's order by an index range scan, merged; the total
 * is the roll-up's count on X (published, or out of stock) less / only the listings of the
 * classifications outside / inside the restriction, or (events) a count on the events' index. For the
 * price, each (seller, currency) contributes the spans up to its (page × size)-th price plus those that
 * round to the same converted price, so ties after conversion keep the order; a page that reaches
 * listings without a price sorts them all. A brand (a brand row, a brand filter): all its spans of the
 * list (one index range per seller), sorted — except a brand row's list in the order of the listing id
 * (sorts by seller, by brand, by date: see brandKeyOf), which is read like a whole seller's, and counted on
 * the brand's index.
 */
export async function selectProducts(
  db: Queryable,
  q: ProductQuery & { kind: ListKind },
): Promise<ProductRow[]> {
  const s = q.selection;
  const classes = await classificationIds(db, s);
  if (!ofSomeBrands(q)) {
    const rows = await topProducts(db, q, classes);
    if (rows) return rows;
  } else {
    const brandKey = await brandKeyOf(db, q);
    if (brandKey !== null) {
      const rows = await topProducts(db, q, classes, brandKey);
      if (rows) return rows;
    }
  }
  const p = new Params();
  const sellers = p.add(s.sellers, '::int[]');
  const to = p.add(q.to, '::date');
  const conds = narrowConds(p, q, classes);
  const cand = `
    select ${SPAN_KEYS(q.kind)}
      from ends e join assortment_spans a on ${inList(q.kind, 'e', p, q)}
     where ${conds}`;
  const sql = `
    with ${ENDS(sellers, to, p.add(s.zone, '::text'), q.kind)},
    ${pageOf(q, p, cand)}
    ${pageRows(q, p, q.kind)}`;
  const { rows } = await db.query<ProductRow>(sql, p.values);
  return rows;
}

/**
 * A list of some brands (selectProducts' narrow path) in the order of a sort by name or price
 * (ascending; `priced`: how many of the list have a price in the requested currency — by price they come
 * first, the others after them by id), as the spans' keys: listing id and first day (days since
 * 2000-01-01). Kept by kept-orders.ts, so that the list's next pages and directions are 25 spans read by
 * key instead of every span of the brands.
 */
export interface ListOrder {
  ids: Float64Array;
  days: Int32Array;
  priced: number;
}

/** The list of selectProducts' narrow path (the state on X; sort name or price), every span in order. */
export async function selectListOrder(
  db: Queryable,
  q: ProductQuery & { kind: 'state' },
): Promise<ListOrder> {
  const s = q.selection;
  const classes = await classificationIds(db, s);
  const p = new Params();
  const rates = ratesOf(p, q.rates);
  const conds = narrowConds(p, q, classes);
  const sql = `
    with ${ENDS(p.add(s.sellers, '::int[]'), p.add(q.to, '::date'), p.add(s.zone, '::text'), 'state')},
    ${rates.cte},
    k as (
      select a.product_id as id, a.name_key, a.first_day - date '2000-01-01' as d,
             ${q.sort === 'price' ? rates.converted('a') : 'null::float8'} as price, null::date as event_day
        from ends e join assortment_spans a on ${inList('state', 'e', p, q)}
       where ${conds}
    )
    select count(*)::int as n, count(k.price)::int as priced,
           coalesce(string_agg(k.id::text || ' ' || k.d::text, ' ' order by ${pageOrder({ ...q, dir: 'asc' })}), '') as keys
      from k`;
  // (one text of the keys: 33k rows would cost the event loop ~30 ms to take apart, the text ~3 ms)
  const { rows } = await db.query<{ n: number; priced: number; keys: string }>(sql, p.values);
  const { n, priced, keys } = rows[0];
  const order: ListOrder = { ids: new Float64Array(n), days: new Int32Array(n), priced };
  let at = 0;
  for (let i = 0; i < n; i++) {
    let end = keys.indexOf(' ', at);
    order.ids[i] = Number(keys.slice(at, end));
    at = end + 1;
    end = keys.indexOf(' ', at);
    order.days[i] = Number(keys.slice(at, end === -1 ? undefined : end));
    at = end + 1;
  }
  return order;
}

/**
 * The page `q` asks of a list kept in order (selectListOrder): the same rows as selectProducts, from the
 * page's spans read by key. Descending is the ascending order reversed — by price, its priced part and
 * then the rest, as listings without a price come last either way (ids are unique in the list).
 */
export async function selectOrderedPage(
  db: Queryable,
  q: ProductQuery & { kind: 'state' },
  order: ListOrder,
): Promise<ProductRow[]> {
  const n = order.ids.length;
  // (by name nothing is priced: the whole order reversed)
  const at = (j: number) =>
    q.dir === 'asc' ? j : j < order.priced ? order.priced - 1 - j : n - 1 - (j - order.priced);
  const ids: number[] = [];
  const days: number[] = [];
  for (let j = q.offset; j < Math.min(n, q.offset + q.limit); j++) {
    ids.push(order.ids[at(j)]);
    days.push(order.days[at(j)]);
  }
  if (!ids.length) return [];
  const p = new Params();
  const cand = `
    select ${SPAN_KEYS('state')}
      from unnest(${p.add(ids, '::bigint[]')}, ${p.add(days, '::int[]')}) as x(id, d)
      join assortment_spans a on a.product_id = x.id and a.first_day = date '2000-01-01' + x.d
       and a.zone_id = ${zoneId(p.add(q.selection.zone, '::text'))}`;
  const sql = `
    with ${pageOf({ ...q, offset: 0 }, p, cand, `${p.add(n, '::int')} as total`).trimStart()}
    ${pageRows(q, p, 'state')}`;
  const { rows } = await db.query<ProductRow>(sql, p.values);
  return rows;
}

/**
 * Whether a drill-down lists some brands only (a brand row, the selection's brands or own brands): the
 * lists selectProducts reads whole (every span of the brands on X) rather than per seller in the sort's
 * order — but for a brand row's sorts in the listing id's order (brandKeyOf).
 */
export const ofSomeBrands = (q: ProductQuery) =>
  q.brandIds !== undefined || !!q.selection.brands?.length || q.selection.ownBrands !== undefined;

/** The conditions of such a list on span `a`: the classification restriction (inside) and the brands'. */
const narrowConds = (p: Params, q: ProductQuery, classes: { inside: number[] } | null) =>
  [
    classes ? `a.classification_id = any(${p.add(classes.inside, '::int[]')})` : 'true',
    brandConds(p, q),
  ].join(' and ');

/** The brand restrictions of a drill-down (a brand row's ids, the selection's brands, its own brands) on span `a`. */
function brandConds(p: Params, q: ProductQuery): string {
  const s = q.selection;
  return [
    brandCond(p, q.brandIds, 'a.brand_id'),
    s.brands?.length ? `a.brand_id = any(${p.add(s.brands, '::int[]')})` : 'true',
    s.ownBrands ? `a.brand_id = any(${p.add(s.ownBrands, '::int[]')})` : 'true',
  ].join(' and ');
}

/**
 * The spans' brand_key of a brand row's list (`brandIds`: the ids of one brand name, or [null] for 'Sin
 * marca') when its page is in the order of the listing id — by seller, by brand (one key: the ids'
 * order), by date of the state list (no date: the ids' order) — so that each seller's first spans are an
 * index range of assortment_spans_brand_key_idx (seller, zone, brand_key, product_id, …) in that order,
 * the brand ids then checked on the page's spans only. Null otherwise (or when the ids' names do not
 * share one key): the list is read whole. On the large market a brand of 33k listings read whole costs
 * ~30,000 heap pages and a sort (~50 ms of PostgreSQL; issue 30).
 */
async function brandKeyOf(db: Queryable, q: ProductQuery & { kind: ListKind }): Promise<string | null> {
  const ids = q.brandIds;
  if (q.kind !== 'state' || !ids?.length || !(q.sort === 'seller' || q.sort === 'brand' || q.sort === 'date'))
    return null;
  const named = ids.filter((b): b is number => b !== null);
  if (named.length && named.length !== ids.length) return null;
  if (!named.length) return NO_BRAND_KEY;
  const { rows } = await db.query<{ key: string }>(
    `select distinct lower(name) as key from brands where id = any($1::int[])`,
    [named],
  );
  return rows.length === 1 ? rows[0].key : null;
}

/** brand_key of a listing without brand (migration 111: lower(coalesce(brands.name, 'Sin marca'))). */
const NO_BRAND_KEY = 'sin marca';

/**
 * The page of a whole-seller drill-down by per-seller index range scans (see selectProducts), or of a
 * brand row's list in the order of the listing id when `brandKey` is given (brandKeyOf); null when a price
 * page reaches listings without a price in the requested currency (they sort last: the caller then sorts
 * every listing of the list).
 */
async function topProducts(
  db: Queryable,
  q: ProductQuery & { kind: ListKind },
  classes: { inside: number[]; outside: number[] } | null,
  brandKey?: string,
): Promise<ProductRow[] | null> {
  const p = new Params();
  const sellers = p.add(q.selection.sellers, '::int[]');
  const zone = p.add(q.selection.zone, '::text');
  const depth = p.add(q.offset + q.limit, '::int');
  const dir = q.dir === 'desc' ? 'desc' : 'asc';
  const events = q.kind === 'went_out' || q.kind === 'back_in';
  const ends = events
    ? `ends as (select x.id as seller_id, null::date as day, ${zone} as zone, ${zoneId(zone)} as zone_id
                from unnest(${sellers}) as x(id))`
    : ENDS(sellers, p.add(q.to, '::date'), zone, q.kind);
  const cls = classes ? `and a.classification_id = any(${p.add(classes.inside, '::int[]')})` : '';
  // a brand row's list: its key first (the index's order; one value), its ids checked on the spans read
  const ofBrand = brandKey === undefined ? '' : `and ${brandConds(p, q)}`;
  const brand = brandKey === undefined ? '' : `and a.brand_key = ${p.add(brandKey, '::text')} ${ofBrand}`;
  const byKey = brandKey === undefined ? '' : `a.brand_key ${dir}, `;
  // (a brand row's list: per seller its count on X, an index-only scan of assortment_spans_brand_idx —
  // seller, zone, brand_id, last_day, first_day)
  const brandEnds =
    brandKey === undefined
      ? ''
      : `,
    brand_ends as (
      select e.*, c.n from ends e
      cross join lateral (select count(*)::int as n from assortment_spans a where ${inList(q.kind, 'e', p, q)} ${ofBrand}) c
    )`;
  // (an event list may hold a listing twice: its events follow each other by day)
  const day = events ? `, a.first_day ${dir}` : '';
  const order: Record<AssortmentProductSort, string> = {
    name: `a.name_key ${dir}, a.product_id ${dir}${day}`,
    brand: `a.brand_key ${dir}, a.product_id ${dir}${day}`,
    seller: `${byKey}a.product_id ${dir}${day}`,
    date:
      q.kind === 'state'
        ? `${byKey}a.product_id ${dir}`
        : q.kind === 'out'
          ? `a.out_day ${dir}, a.product_id ${dir}`
          : `a.first_day ${dir}, a.product_id ${dir}`,
    price: `a.effective_price ${dir}, a.product_id ${dir}`,
  };
  let cand: string;
  if (q.sort === 'price') {
    // per (seller, currency with a rate): the depth-th price, then every span of the list up to it and its
    // rounding ties (a numeric bound, so that it is the index scan's range; none when fewer spans)
    const bound =
      dir === 'desc'
        ? `>= coalesce(v.vk - (0.011 / pc.f)::numeric, -1e15)`
        : `<= coalesce(v.vk + (0.011 / pc.f)::numeric, 1e15)`;
    const base = `${inList(q.kind, 'pc', p, q)} and a.currency = pc.currency and a.effective_price is not null ${cls}`;
    cand = `
      select k.* from (select e.seller_id, e.day, e.zone_id, r.currency, r.f from ends e cross join rates r) pc
      left join lateral (select a.effective_price as vk from assortment_spans a where ${base}
                          order by ${order.price} offset ${depth} - 1 limit 1) v on true
      cross join lateral (select ${SPAN_KEYS(q.kind)} from assortment_spans a
                           where ${base} and a.effective_price ${bound} offset 0) k`;
  } else {
    cand = `
      select k.* from ${brandKey === undefined ? 'ends' : 'brand_ends'} e
      cross join lateral (select ${SPAN_KEYS(q.kind)} from assortment_spans a
                           where ${inList(q.kind, 'e', p, q)} ${cls} ${brand}
                           order by ${order[q.sort]} limit ${depth}) k`;
  }
  // The list's count: the roll-up's (published or out of stock on X; events: the running totals of
  // assortment_events_cum at the period's end minus the day before it), less or only the listings of the
  // classifications outside or inside the restriction (their present classification, as the rows are
  // filtered), counted on the spans: the side with fewer classifications.
  const cum = q.kind === 'went_out' ? 'went_out_cum' : 'back_in_cum';
  const rollup = () =>
    events
      ? `(select coalesce(sum(m.sign * c.${cum}), 0)::int from ends e
         cross join (values (${p.add(q.to, '::date')}, 1), (${p.add(q.from, '::date')} - 1, -1)) as m(d, sign)
         join assortment_events_cum c on c.zone = e.zone and c.seller_id = e.seller_id
          and c.day = (select max(y.day) from assortment_events_cum y
                        where y.zone = e.zone and y.seller_id = e.seller_id and y.day <= m.d))`
      : `(select coalesce(sum(${q.kind === 'out' ? 'r.published - r.in_stock' : 'r.published'}), 0)::int from ends e
         join rollup_daily_brand r on r.zone = e.zone and r.seller_id = e.seller_id and r.day = e.day)`;
  // (one branch per kind of key, each a range of the classification index; a brand row's list: the sum of
  // its sellers' counts instead of the roll-up's, its ids checked on the restriction's spans)
  const countSpans = (ids: number[], nulls: boolean) => `(select count(*)::int from ends e
      cross join lateral (
        select 1 from assortment_spans a
         where ${inList(q.kind, 'e', p, q, true)} and a.classification_id = any(${p.add(ids, '::int[]')}) ${ofBrand}
        ${nulls ? `union all select 1 from assortment_spans a where ${inList(q.kind, 'e', p, q, true)} and a.classification_id is null ${ofBrand}` : ''}
      ) x)`;
  const whole = () =>
    brandKey === undefined ? rollup() : '(select coalesce(sum(n), 0)::int from brand_ends)';
  const total = !classes
    ? whole()
    : classes.outside.length < classes.inside.length
      ? `${whole()} - ${countSpans(classes.outside, true)}`
      : countSpans(classes.inside, false);
  const sql = `
    with ${ends}${brandEnds},
    ${pageOf(q, p, cand, `${total} as total, count(*) over ()::int as candidates`)}
    ${pageRows(q, p, q.kind).replace('k.total', 'k.total, k.candidates')}`;
  const { rows } = await db.query<ProductRow & { candidates?: number }>(sql, p.values);
  if (q.sort === 'price') {
    // fewer priced candidates than the page needs: listings without a price (last) may belong on it
    const candidates = rows[0]?.candidates ?? 0;
    if (candidates < q.offset + q.limit && (rows[0]?.total ?? Number.POSITIVE_INFINITY) > candidates)
      return null;
  }
  return rows.map(({ candidates: _c, ...r }) => r);
}
