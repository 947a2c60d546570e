// Issue 30, "against a columnar engine in the same run": the market's raw tables exported from PostgreSQL
// (COPY … TO STDOUT as CSV) into an in-memory DuckDB (@duckdb/node-api, bench-only), and the API's
// questions answered there from the raw rows with docs/metrics.md's definitions — never from the
// product's read models (pricing_rows/offers, listing_current, roll-ups, dashboard tables). Every
// repetition asks the API and DuckDB the same parameters, checks that the answers agree (after the API's
// rounding) and times both; the table gives API p95, DuckDB p95, their ratio and the answers agreed.
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import {
  addDays,
  ConvertedSum,
  DPM_DEFAULTS,
  daysInclusive,
  INDEX_EPSILON,
  isoDateInZone,
  licensesRoutes,
  normalizeSearch,
  type PriceSplitValues,
  type PricingKpiValues,
  periodChangeRounded,
  round2,
  routes,
  SEARCH_FOLD_FROM,
  SEARCH_FOLD_TO,
} from '@vigia/domain';
import pg from 'pg';
import { copyOut } from '../../apps/server/src/db/copy-out.js';
import { assortmentShifted } from './assortment.js';
import { historyBody, matchedSamples, newSelections, type Sample, searchBody } from './detail.js';
import { type BenchTarget, callRoute, percentile, type RouteCall, rowName } from './http.js';
import { competitorSubset, PRICING_PIVOTS } from './pricing.js';
import { PROMOTIONS_HEADERS, promotionsBase, promotionsRoots, shiftedFrom } from './promotions.js';

// ───────────────────────────── export: COPY … TO STDOUT without pg-copy-streams ─────────────────────────────

/** Writes the rows of `select` as CSV with a header (PostgreSQL's own CSV quoting) into `file`. */
export async function copyToCsv(client: pg.Client, select: string, file: string): Promise<number> {
  const fd = openSync(file, 'w');
  try {
    return await copyOut(client, `copy (${select}) to stdout with (format csv, header true)`, (c) =>
      writeSync(fd, c),
    );
  } finally {
    closeSync(fd);
  }
}

/** One raw table: what PostgreSQL exports and DuckDB's column types for it (the CSV's header order). */
export interface RawTable {
  name: string;
  select: string;
  columns: Record<string, string>;
}

const TS = 'TIMESTAMPTZ';
const MONEY = 'DECIMAL(14,2)';

/**
 * The raw tables the questions read. Not read: every read model (pricing_rows/offers, listing_current,
 * rollup_daily_brand, dashboard_*, promo_*, assortment_*). Of users only what names the demo user's
 * license (no password hashes). Classification paths as space-separated ids.
 */
export const RAW_TABLES: RawTable[] = [
  {
    name: 'sellers',
    select: 'select id, name, currency, last_crawl_at from sellers',
    columns: { id: 'INTEGER', name: 'VARCHAR', currency: 'VARCHAR', last_crawl_at: TS },
  },
  {
    name: 'products',
    select: `select id, seller_id, product_id, sku, ean, name, brand_id, category_id, classification_id,
                    first_seen, last_seen, published, unpublished_at from products`,
    columns: {
      id: 'BIGINT',
      seller_id: 'INTEGER',
      product_id: 'VARCHAR',
      sku: 'VARCHAR',
      ean: 'VARCHAR',
      name: 'VARCHAR',
      brand_id: 'INTEGER',
      category_id: 'INTEGER',
      classification_id: 'INTEGER',
      first_seen: TS,
      last_seen: TS,
      published: 'BOOLEAN',
      unpublished_at: TS,
    },
  },
  {
    name: 'price_intervals',
    select: `select product_id, valid_from, valid_to, normal_price, sale_price, exclusive_price,
                    byquantity_price, byquantity_qty, price_type, stock_out, currency from price_intervals`,
    columns: {
      product_id: 'BIGINT',
      valid_from: TS,
      valid_to: TS,
      normal_price: MONEY,
      sale_price: MONEY,
      exclusive_price: MONEY,
      byquantity_price: MONEY,
      byquantity_qty: 'SMALLINT',
      price_type: 'VARCHAR',
      stock_out: 'BOOLEAN',
      currency: 'VARCHAR',
    },
  },
  {
    name: 'match_members',
    select: 'select group_id, product_id, status from match_members',
    columns: { group_id: 'BIGINT', product_id: 'BIGINT', status: 'VARCHAR' },
  },
  {
    name: 'fx_rates',
    select: 'select currency, day, clp_per_unit from fx_rates',
    columns: { currency: 'VARCHAR', day: 'DATE', clp_per_unit: 'DECIMAL(18,6)' },
  },
  { name: 'brands', select: 'select id, name from brands', columns: { id: 'INTEGER', name: 'VARCHAR' } },
  {
    name: 'classifications',
    select: `select id, parent_id, name, level, array_to_string(path, ' ') as path from classifications`,
    columns: { id: 'INTEGER', parent_id: 'INTEGER', name: 'VARCHAR', level: 'SMALLINT', path: 'VARCHAR' },
  },
  {
    name: 'users',
    select: 'select id, email, org_id, pivot_id from users',
    columns: { id: 'INTEGER', email: 'VARCHAR', org_id: 'INTEGER', pivot_id: 'INTEGER' },
  },
  {
    name: 'ingest_runs',
    select: 'select seller_id, observed_at, status from ingest_runs',
    columns: { seller_id: 'INTEGER', observed_at: TS, status: 'VARCHAR' },
  },
  {
    name: 'organisations',
    select: 'select id, market_zone from organisations',
    columns: { id: 'INTEGER', market_zone: 'VARCHAR' },
  },
  {
    name: 'licenses',
    select: 'select id, org_id from licenses',
    columns: { id: 'INTEGER', org_id: 'INTEGER' },
  },
  ...(['sellers', 'pivots'] as const).map((t) => ({
    name: `license_${t}`,
    select: `select license_id, seller_id from license_${t}`,
    columns: { license_id: 'INTEGER', seller_id: 'INTEGER' },
  })),
  {
    name: 'license_classifications',
    select: 'select license_id, classification_id from license_classifications',
    columns: { license_id: 'INTEGER', classification_id: 'INTEGER' },
  },
];

/** DuckDB's read of a PostgreSQL CSV: header, `"` quoting and doubling; NULL = an unquoted empty field, `""` = the empty string. */
export function readCsvSql(file: string, columns: Record<string, string>): string {
  const cols = Object.entries(columns)
    .map(([k, v]) => `'${k}': '${v}'`)
    .join(', ');
  return `select * from read_csv('${file.replace(/'/g, "''")}', header = true, delim = ',', quote = '"',
            escape = '"', nullstr = '', allow_quoted_nulls = false, auto_detect = false, columns = {${cols}})`;
}

export interface LoadedMarket {
  db: DuckDBConnection;
  exportSeconds: number;
  loadSeconds: number;
  csvBytes: number;
  /** DuckDB's memory for the tables (duckdb_memory()) */
  duckBytes: number;
  /** PostgreSQL's size of the whole database (pg_database_size: every table, read model and index) */
  dbBytes: number;
  rows: Record<string, number>;
}

/** Exports the raw tables of the market at `url` to CSV and loads them into a new in-memory DuckDB. */
export async function loadMarket(url: string): Promise<LoadedMarket> {
  const dir = await mkdtemp(join(tmpdir(), 'vigia-duckdb-'));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let csvBytes = 0;
  const t0 = performance.now();
  try {
    await client.query(`set timezone = 'UTC'; set datestyle = 'ISO'`);
    // one snapshot for every table, as the API's answers are of one moment
    await client.query('begin isolation level repeatable read read only');
    for (const t of RAW_TABLES) await copyToCsv(client, t.select, join(dir, `${t.name}.csv`));
    await client.query('commit');
    for (const t of RAW_TABLES) csvBytes += statSync(join(dir, `${t.name}.csv`)).size;
    const size = await client.query<{ b: string }>('select pg_database_size(current_database()) as b');
    const dbBytes = Number(size.rows[0].b);
    const exportSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    const rows: Record<string, number> = {};
    for (const t of RAW_TABLES) {
      await db.run(`create table ${t.name} as ${readCsvSql(join(dir, `${t.name}.csv`), t.columns)}`);
      rows[t.name] = Number((await db.runAndReadAll(`select count(*) from ${t.name}`)).getRows()[0][0]);
    }
    const loadSeconds = (performance.now() - t1) / 1000;
    const mem = await db.runAndReadAll('select sum(memory_usage_bytes) from duckdb_memory()');
    return {
      db,
      exportSeconds,
      loadSeconds,
      csvBytes,
      duckBytes: Number(mem.getRows()[0][0]),
      dbBytes,
      rows,
    };
  } finally {
    await client.end();
    await rm(dir, { recursive: true, force: true });
  }
}

// ───────────────────────────── the questions, in DuckDB SQL over the raw tables ─────────────────────────────

const ids = (xs: readonly number[]) => {
  if (!xs.every(Number.isInteger)) throw new Error(`ids: ${xs}`);
  return xs.length ? xs.join(', ') : 'null';
};
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The demo user's license and market: what the API resolves from the token, read from the raw tables. */
export interface Market {
  license: number;
  zone: string;
  licensed: number[];
  roots: number[];
}

async function rowsOf(db: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  return (await db.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export async function marketOf(db: DuckDBConnection, email: string): Promise<Market> {
  const [u] = await rowsOf(
    db,
    `select l.id as license, o.market_zone as zone from users u join licenses l on l.org_id = u.org_id
      join organisations o on o.id = u.org_id where u.email = ${lit(email)}`,
  );
  const license = Number(u.license);
  const licensed = (
    await rowsOf(db, `select seller_id from license_sellers where license_id = ${license} order by 1`)
  ).map((r) => Number(r.seller_id));
  const roots = (
    await rowsOf(
      db,
      `select classification_id as id from license_classifications where license_id = ${license}`,
    )
  ).map((r) => Number(r.id));
  return { license, zone: String(u.zone), licensed, roots };
}

/**
 * Each listing's state at `at` (null: now, its latest interval): price type, stock, currency and its
 * effective price (lowest positive of normal, sale, exclusive: NORMAL_SALE_EXCLUSIVE_PRICE) converted to
 * `currency` at the rates in force on `day` (the latest on or before it; CLP per unit, CLP = 1).
 */
function pricedSql(currency: string, day: string): string {
  return `
    rates as (select currency, arg_max(clp_per_unit, day)::double as r from fx_rates
               where day <= date ${lit(day)} group by currency
              union all select 'CLP', 1 where not exists (select 1 from fx_rates where currency = 'CLP')),
    req as (select (select r from rates where currency = ${lit(currency)}) as r),
    state as (select product_id, arg_max_null(normal_price, valid_from) as normal_price,
                     arg_max_null(sale_price, valid_from) as sale_price,
                     arg_max_null(exclusive_price, valid_from) as exclusive_price,
                     arg_max_null(price_type, valid_from) as price_type, arg_max_null(stock_out, valid_from) as stock_out,
                     arg_max_null(currency, valid_from) as currency
                from price_intervals group by product_id),
    priced as (select s.product_id, s.price_type, s.stock_out,
                      least(case when s.normal_price > 0 then s.normal_price end,
                            case when s.sale_price > 0 then s.sale_price end,
                            case when s.exclusive_price > 0 then s.exclusive_price end)::double
                        * rates.r / req.r as price
                 from state s left join rates on rates.currency = s.currency cross join req)`;
}

export interface DpmQuestion {
  pivot: number;
  /** competitors asked (sellersIds); absent: every licensed seller */
  competitors?: number[];
  currency: string;
  mpiValue: number;
}

/** A DPM tally: the KPIs and the split of docs/metrics.md "Pricing KPIs" / "Price index split". */
export type DpmTally = PricingKpiValues & PriceSplitValues;

/**
 * DPM without a window (the latest crawl): the pivot's published listings under the license roots, each
 * scored against the published listings of the selected competitors confirmed in its live match group
 * (match: any stock; index: 100 × my price / lowest in-stock positive price). `by`: one tally, or one
 * per brand (no brand: 0).
 */
export function dpmSql(m: Market, q: DpmQuestion, day: string, by: 'all' | 'brand'): string {
  const { sql, lo, hi } = dpmBaseSql(m, q, day, false);
  const key = by === 'brand' ? 'coalesce(brand_id, 0) as id,' : '';
  return `
    ${sql},
    scored as (
      select pv.*, o.id is not null as matched, 100 * pv.my / o.low as idx
        from mine pv left join offers o on o.id = pv.id)
    select ${key} count(*) as total, count(*) filter (where matched) as match,
           count(idx) as "publishedMatch",
           count(*) filter (where price_type = 'NORMAL') as normal,
           count(*) filter (where price_type = 'SALE') as sale,
           count(*) filter (where price_type = 'EXCLUSIVE') as exclusive,
           count(*) filter (where stock_out) as stock_out,
           count(*) filter (where idx <= ${lo}) as cheapest,
           count(*) filter (where idx > ${lo} and idx <= ${hi}) as in_range,
           count(*) filter (where idx > ${hi}) as dearer,
           count(*) - count(idx) as without_index, avg(idx) as average_index
      from scored ${by === 'brand' ? 'group by 1 order by 1' : ''}`;
}

/**
 * The CTEs both DPM statements start with: `mine`, the pivot's published listings under the license
 * roots with their price (converted), type, stock and live match group; `offers`, for each of them the
 * lowest in-stock positive price among the published listings of the selected competitors confirmed in
 * that group (`perSeller`: one row per competitor too). And the index buckets' bounds.
 */
function dpmBaseSql(m: Market, q: DpmQuestion, day: string, perSeller: boolean) {
  const competitors = (q.competitors ?? m.licensed).filter((s) => s !== q.pivot && m.licensed.includes(s));
  const rootTest = m.roots.length
    ? `list_has_any(coalesce(list_transform(string_split(c.path, ' '), x -> x::int), []), [${ids(m.roots)}])`
    : 'true';
  const sql = `
    with ${pricedSql(q.currency, day)},
    mine as (
      select p.id, p.brand_id, x.price_type, x.stock_out, case when x.price > 0 then x.price end as my,
             mm.group_id
        from products p join priced x on x.product_id = p.id
        left join classifications c on c.id = p.classification_id
        left join match_members mm on mm.product_id = p.id and mm.status = 'confirmed'
       where p.seller_id = ${q.pivot} and p.published and ${rootTest}),
    offers as (
      select pv.id, ${perSeller ? 'p.seller_id,' : ''} min(x.price) filter (where not x.stock_out and x.price > 0) as low
        from mine pv
        join match_members mm on mm.group_id = pv.group_id and mm.status = 'confirmed' and mm.product_id <> pv.id
        join products p on p.id = mm.product_id and p.published and p.seller_id <> ${q.pivot}
                       and p.seller_id in (${ids(competitors)})
        join priced x on x.product_id = p.id
       group by pv.id ${perSeller ? ', p.seller_id' : ''})`;
  return { sql, competitors, lo: 100 + INDEX_EPSILON, hi: 100 + q.mpiValue + INDEX_EPSILON };
}

/**
 * DPM by e-commerce (`dpm/sellers`, docs/metrics.md "DPM groups"): per selected competitor, the pivot's
 * products (as dpmSql) with a published matched listing there (any stock); their KPIs by the pivot's price
 * type and stock, and the index against THAT competitor's lowest in-stock positive price; head to head
 * over the products with an index: the difference d = index − 100, a tie when |d| ≤ INDEX_EPSILON ×
 * min(100 + d, 100) (samePrice), cheaper below, dearer above, and the mean d. `all_products`: the
 * filtered products (coverage's denominator). Competitors without such products are rows of zeros.
 */
export function dpmSellersSql(m: Market, q: DpmQuestion, day: string): string {
  const { sql, competitors, lo, hi } = dpmBaseSql(m, q, day, true);
  const tie = `abs(s.d) <= ${INDEX_EPSILON} * least(100 + s.d, 100)`;
  return `
    ${sql},
    scored as (
      select o.seller_id, pv.price_type, pv.stock_out, 100 * pv.my / o.low as idx
        from offers o join mine pv on pv.id = o.id),
    diffs as (select *, idx - 100 as d from scored),
    comp as (select unnest([${ids(competitors)}]) as seller_id)
    select c.seller_id as id, count(s.seller_id) as total, count(s.seller_id) as match,
           count(s.idx) as "publishedMatch",
           count(*) filter (where s.price_type = 'NORMAL') as normal,
           count(*) filter (where s.price_type = 'SALE') as sale,
           count(*) filter (where s.price_type = 'EXCLUSIVE') as exclusive,
           count(*) filter (where s.stock_out) as stock_out,
           count(*) filter (where s.idx <= ${lo}) as cheapest,
           count(*) filter (where s.idx > ${lo} and s.idx <= ${hi}) as in_range,
           count(*) filter (where s.idx > ${hi}) as dearer,
           count(s.seller_id) - count(s.idx) as without_index, avg(s.idx) as average_index,
           count(s.d) as common,
           count(*) filter (where ${tie}) as equal,
           count(*) filter (where s.d < 0 and not ${tie}) as cheaper,
           count(*) filter (where s.d > 0 and not ${tie}) as more_expensive,
           avg(s.d) as average_difference_pct,
           (select count(*) from mine) as all_products
      from comp c left join diffs s using (seller_id)
     group by c.seller_id order by c.seller_id`;
}

/** An API dpm/sellers item: a DPM group with its head to head. */
interface DpmSellerItem extends DpmTally {
  id: number;
  products: number;
  match_pct: number | null;
  head_to_head?: {
    common: number;
    cheaper: number;
    equal: number;
    more_expensive: number;
    average_difference_pct: number | null;
  };
}

/**
 * Where the dpm/sellers answers differ: the same competitors; per competitor its KPIs and split
 * (tallyDiff), products, coverage (match_pct, round2) and head to head (counts; the mean difference after
 * round2); the summary's products.
 */
export function dpmSellersDiff(
  api: { items: DpmSellerItem[]; summary: { products: number } },
  rows: Record<string, unknown>[],
): string[] {
  const out: string[] = [];
  const mine = new Map(rows.map((r) => [Number(r.id), r]));
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b).join();
  if (sorted(api.items.map((x) => x.id)) !== sorted([...mine.keys()]))
    out.push(`sellers: API ${sorted(api.items.map((x) => x.id))} DuckDB ${sorted([...mine.keys()])}`);
  const all = rows.length ? Number(rows[0].all_products) : 0;
  if (api.summary.products !== all) out.push(`summary products: API ${api.summary.products} DuckDB ${all}`);
  for (const it of api.items) {
    const r = mine.get(it.id);
    if (!r) continue;
    const t = tallyOf(r);
    out.push(...tallyDiff(it, t).map((x) => `seller ${it.id} ${x}`));
    const want = {
      products: t.total,
      match_pct: all ? round2((100 * t.total) / all) : null,
      head_to_head: {
        common: Number(r.common),
        cheaper: Number(r.cheaper),
        equal: Number(r.equal),
        more_expensive: Number(r.more_expensive),
        average_difference_pct:
          r.average_difference_pct === null ? null : round2(Number(r.average_difference_pct)),
      },
    };
    const got = { products: it.products, match_pct: it.match_pct, head_to_head: it.head_to_head };
    if (JSON.stringify(got) !== JSON.stringify(want))
      out.push(`seller ${it.id}: API ${JSON.stringify(got)} DuckDB ${JSON.stringify(want)}`);
  }
  return out;
}

const TALLY_KEYS = [
  'total',
  'match',
  'publishedMatch',
  'normal',
  'sale',
  'exclusive',
  'stock_out',
  'cheapest',
  'in_range',
  'dearer',
  'without_index',
  'average_index',
] as const;

function tallyOf(r: Record<string, unknown>): DpmTally {
  const t = {} as Record<string, number | null>;
  for (const k of TALLY_KEYS) t[k] = num(r[k]);
  return t as unknown as DpmTally;
}

/**
 * Where two tallies differ: every count equal, and the average index equal after the API's rounding
 * (round2 of DuckDB's unrounded mean). Empty: they agree.
 */
export function tallyDiff(api: Partial<DpmTally>, duck: DpmTally): string[] {
  const out: string[] = [];
  for (const k of TALLY_KEYS) {
    const want = k === 'average_index' ? round2(duck[k]) : duck[k];
    if ((api[k] ?? null) !== want) out.push(`${k}: API ${api[k]} DuckDB ${want}`);
  }
  return out;
}

// ───────────────────────────── dashboard cards (POST /v2/dashboard/pre) ─────────────────────────────

export interface DashboardQuestion {
  pivot: number;
  competitors: number[];
  currency: string;
  /** the period and the previous one (days of the market zone), `to` = today or before */
  from: string;
  to: string;
  previousFrom: string;
  today: string;
}

/**
 * The dashboard's figures per day of [previousFrom, to] from the price intervals that are each listing's
 * state at the end of the day (an interval covers day d when day(valid_from) ≤ d ≤ day(valid_to) − 1,
 * days in the market zone; today: the open intervals). Market: the pivot's and the competitors' listings
 * under the license roots. One row per day: the counts (published, in stock, promoted), the average
 * discount's sum and count (same-currency listings, % rounded to 4 places as the roll-up keeps it), the
 * monetary discount's sum (requested currency at the day's rates) and count, the price index's sum,
 * |index − 100|'s sum and count (closed days: per match group, my lowest price against the lowest
 * in-stock competitor price in CLP at the day's rates; today: per pivot listing, the DPM index), and the
 * discount histogram as a list of buckets.
 */
export function dashboardDaysSql(m: Market, q: DashboardQuestion): string {
  const z = lit(m.zone);
  const market = ids([q.pivot, ...q.competitors]);
  const inRoots = (col: string) =>
    m.roots.length
      ? `${col} in (select id from classifications
                     where list_has_any(list_transform(string_split(path, ' '), x -> x::int), [${ids(m.roots)}]))`
      : 'true';
  const eff = `least(case when x.normal_price > 0 then x.normal_price end,
                     case when x.sale_price > 0 then x.sale_price end,
                     case when x.exclusive_price > 0 then x.exclusive_price end)::double`;
  const promo = `(case x.price_type when 'SALE' then x.sale_price when 'EXCLUSIVE' then x.exclusive_price
                                   when 'BYQUANTITY' then x.byquantity_price end)`;
  return `
    with days as (select unnest(generate_series(date ${lit(q.previousFrom)}, date ${lit(q.to)}, interval 1 day))::date as d),
    cur as (select distinct currency from fx_rates union select 'CLP'),
    rate as (select days.d, cur.currency,
                    coalesce(f.clp_per_unit::double, case when cur.currency = 'CLP' then 1 end) as r
               from days cross join cur asof left join fx_rates f on f.currency = cur.currency and f.day <= days.d),
    iv as (
      select x.product_id, p.seller_id, p.classification_id, x.price_type, x.stock_out, x.currency,
             x.currency = s.currency as same_currency, ${eff} as eff,
             x.normal_price::double as normal, ${promo}::double as promo,
             round(case when x.normal_price > 0 and ${promo} > 0 and ${promo} < x.normal_price
                        then 100 * (x.normal_price - ${promo}) / x.normal_price end, 4) as disc4,
             case when x.normal_price > 0 and ${promo} > 0 and ${promo} < x.normal_price
                  then 100 * (x.normal_price::double - ${promo}::double) / x.normal_price::double end as pct,
             -- the bucket exactly from the cents (round half up of 20 (N − P) / N): the double pct of
             -- 8.00 → 5.40 is 32.49999999999999, which would bucket a 32.5 % discount as 30
             case when x.normal_price > 0 and ${promo} > 0 and ${promo} < x.normal_price
                  then 5 * ((40 * ((x.normal_price - ${promo}) * 100)::bigint + (x.normal_price * 100)::bigint)
                            // (2 * (x.normal_price * 100)::bigint)) end as bucket,
             timezone(${z}, x.valid_from)::date as a,
             coalesce(timezone(${z}, x.valid_to)::date - 1, date '9999-12-31') as b
        from price_intervals x join products p on p.id = x.product_id join sellers s on s.id = p.seller_id
       where x.valid_from < timezone(${z}, (date ${lit(q.to)} + 1)::timestamp)
         and (x.valid_to is null or x.valid_to >= timezone(${z}, (date ${lit(q.previousFrom)} + 1)::timestamp))),
    state as (select days.d, iv.* from days join iv on days.d between iv.a and iv.b),
    mkt as (select * from state where seller_id in (${market}) and ${inRoots('classification_id')}),
    counts as (
      select mkt.d, count(*) as published, count(*) filter (where not stock_out) as in_stock,
             count(*) filter (where price_type <> 'NORMAL') as promoted,
             count(disc4) filter (where price_type <> 'NORMAL' and same_currency) as discounted,
             sum(disc4) filter (where price_type <> 'NORMAL' and same_currency)::double as disc_sum,
             count(pct) filter (where price_type <> 'NORMAL' and r.r is not null and q.r is not null) as money_n,
             sum((normal - promo) * r.r / q.r) filter (where price_type <> 'NORMAL' and pct is not null) as money_sum,
             list(bucket order by pct) filter (where price_type <> 'NORMAL' and bucket is not null) as buckets
        from mkt left join rate r on r.d = mkt.d and r.currency = mkt.currency
        left join rate q on q.d = mkt.d and q.currency = ${lit(q.currency)}
       group by mkt.d),
    members as (select group_id, product_id from match_members where status = 'confirmed'),
    pivot_groups as (select distinct mm.group_id from members mm join products p on p.id = mm.product_id
                      where p.seller_id = ${q.pivot}),
    priced as (
      select st.d, mm.group_id, st.product_id, st.seller_id, st.stock_out, st.classification_id,
             st.eff * r.r as clp
        from state st join members mm on mm.product_id = st.product_id
        join pivot_groups g on g.group_id = mm.group_id
        left join rate r on r.d = st.d and r.currency = st.currency),
    mine as (select d, group_id, min(clp) as mine from priced
              where seller_id = ${q.pivot} and clp > 0 and ${inRoots('classification_id')} group by all),
    best as (select d, group_id, min(clp) as best from priced
              where seller_id in (${ids(q.competitors)}) and not stock_out and clp > 0 group by all),
    closed_idx as (select mine.d, 100 * mine / best as idx from mine join best using (d, group_id)
                    where mine.d < date ${lit(q.today)}),
    today_idx as (
      select 100 * any_value(pv.clp) / min(o.clp) as idx
        from priced pv join priced o on o.d = pv.d and o.group_id = pv.group_id and o.product_id <> pv.product_id
       where pv.d = date ${lit(q.today)} and pv.seller_id = ${q.pivot} and ${inRoots('pv.classification_id')}
         and pv.clp > 0 and o.seller_id in (${ids(q.competitors)}) and not o.stock_out and o.clp > 0
       group by pv.product_id),
    idx as (select d, sum(idx) as idx_sum, sum(abs(idx - 100)) as dev_sum, count(*) as idx_n from closed_idx group by d
            union all
            select date ${lit(q.today)}, sum(idx), sum(abs(idx - 100)), count(*) from today_idx having count(*) > 0)
    select strftime(days.d, '%Y-%m-%d') as day, c.published, c.in_stock, c.promoted, c.discounted, c.disc_sum,
           c.money_n, c.money_sum, c.buckets, i.idx_sum, i.dev_sum, i.idx_n
      from days left join counts c on c.d = days.d left join idx i on i.d = days.d
     order by days.d`;
}

/** New and unpublished listings of the market per period, and the first day its sellers were seen. */
export function dashboardEventsSql(m: Market, q: DashboardQuestion): string {
  const z = lit(m.zone);
  const rootTest = m.roots.length
    ? `p.classification_id in (select id from classifications
        where list_has_any(list_transform(string_split(path, ' '), x -> x::int), [${ids(m.roots)}]))`
    : 'true';
  const day = (col: string) => `timezone(${z}, ${col})::date`;
  const sellers = ids([q.pivot, ...q.competitors]);
  const cur = (col: string) => `${day(col)} between date ${lit(q.from)} and date ${lit(q.to)}`;
  const prev = (col: string) => `${day(col)} between date ${lit(q.previousFrom)} and date ${lit(q.from)} - 1`;
  return `
    select count(*) filter (where ${rootTest} and ${cur('p.first_seen')}) as new_current,
           count(*) filter (where ${rootTest} and ${prev('p.first_seen')}) as new_previous,
           count(*) filter (where ${rootTest} and ${cur('p.unpublished_at')}) as unpublished_current,
           count(*) filter (where ${rootTest} and ${prev('p.unpublished_at')}) as unpublished_previous,
           strftime(min(${day('p.first_seen')}), '%Y-%m-%d') as monitoring_since
      from products p where p.seller_id in (${sellers})`;
}

type DayRow = Record<string, unknown>;

/** A day's figures (docs/metrics.md "Cards"), unrounded; null when the day has none. */
function dayFigures(r: DayRow) {
  const n = (k: string) => num(r[k]) ?? 0;
  const ratio = (a: number, b: number) => (b > 0 ? (100 * a) / b : null);
  const buckets = (r.buckets as number[] | null) ?? [];
  return {
    availability: ratio(n('in_stock'), n('published')),
    in_discount: ratio(n('promoted'), n('published')),
    average_discount: n('discounted') > 0 ? n('disc_sum') / n('discounted') : null,
    price_index: n('idx_n') > 0 ? n('idx_sum') / n('idx_n') : null,
    deviation: n('idx_n') > 0 ? n('dev_sum') / n('idx_n') : null,
    monetary_discount: n('money_n') > 0 ? n('money_sum') / n('money_n') : null,
    buckets: buckets.map(Number),
  };
}
type DayFigures = ReturnType<typeof dayFigures>;
const SNAPSHOT = [
  'availability',
  'in_discount',
  'average_discount',
  'price_index',
  'deviation',
  'monetary_discount',
] as const;

/** The mode of the buckets (the most frequent; ties → the smaller); null without any. */
function modeOf(buckets: number[]): number | null {
  const count = new Map<number, number>();
  for (const b of buckets) count.set(b, (count.get(b) ?? 0) + 1);
  let best: number | null = null;
  let bestN = 0;
  for (const [b, k] of count)
    if (k > bestN || (k === bestN && best !== null && b < best)) [best, bestN] = [b, k];
  return best;
}

/** The cards of a period: each snapshot card the average of its days' figures; the mode of all buckets. */
function periodCards(days: DayFigures[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const k of SNAPSHOT) {
    const vs = days.map((d) => d[k]).filter((v): v is number => v !== null);
    out[k] = vs.length ? vs.reduce((a, b) => a + b, 0) / vs.length : null;
  }
  out.mode_discount = modeOf(days.flatMap((d) => d.buckets));
  return out;
}

interface ApiCard {
  key: string;
  value: number | null;
  previous: number | null;
  days?: { date: string; value: number | null }[];
}

/**
 * Where the API's cards differ from DuckDB's: every card's value and previous (after round2), each
 * snapshot card's day figures (after round2; the mode card: each day's mode), the comparison and
 * monitoring_since. Empty: they agree.
 */
export function dashboardDiff(
  api: { comparison: string; monitoring_since: string | null; groups: { cards: ApiCard[] }[] },
  days: DayRow[],
  events: DayRow,
  q: DashboardQuestion,
): string[] {
  const figures = days.map((r) => ({ day: String(r.day), f: dayFigures(r) }));
  const current = figures.filter((x) => x.day >= q.from);
  const previous = figures.filter((x) => x.day < q.from);
  const since = (events.monitoring_since as string | null) ?? null;
  const comparable = since !== null && q.previousFrom > since;
  const cur = {
    ...periodCards(current.map((x) => x.f)),
    new: num(events.new_current),
    unpublished: num(events.unpublished_current),
  };
  const prev = {
    ...periodCards(previous.map((x) => x.f)),
    new: num(events.new_previous),
    unpublished: num(events.unpublished_previous),
  };
  const out: string[] = [];
  if (api.comparison !== (comparable ? 'available' : 'no_data'))
    out.push(`comparison: API ${api.comparison}`);
  if (api.monitoring_since !== since)
    out.push(`monitoring_since: API ${api.monitoring_since} DuckDB ${since}`);
  const r2 = (k: string, v: number | null) => (k === 'mode_discount' || v === null ? v : round2(v));
  for (const card of api.groups.flatMap((g) => g.cards)) {
    const k = card.key;
    const want = r2(k, cur[k as keyof typeof cur] ?? null);
    if (card.value !== want) out.push(`${k}: API ${card.value} DuckDB ${want}`);
    const wantPrev = comparable ? r2(k, prev[k as keyof typeof prev] ?? null) : null;
    if (card.previous !== wantPrev) out.push(`${k} previous: API ${card.previous} DuckDB ${wantPrev}`);
    for (const d of card.days ?? []) {
      const f = current.find((x) => x.day === d.date)?.f;
      const v = !f
        ? null
        : k === 'mode_discount'
          ? modeOf(f.buckets)
          : r2(k, f[k as (typeof SNAPSHOT)[number]]);
      if (d.value !== v) out.push(`${k} ${d.date}: API ${d.value} DuckDB ${v}`);
    }
  }
  return out;
}

// ───────────────────────────── one product's price history (/v1/historical/complete/) ─────────────────────────────

export interface HistoryQuestion {
  pivot: number;
  /** the opened listing (products.id); the bench opens pivot listings */
  product: number;
  currency: string;
  from: string;
  to: string;
  /** the API's "now": today's day ends there */
  now: Date;
}

/**
 * The daily points of the opened listing's series and of every other licensed seller's listings of its
 * live match group (docs/metrics.md "Price history"): a listing's point of day d is its LAST interval
 * overlapping [d's start, next day's start ∧ now); a seller with several listings shows its cheapest
 * (then the lowest id); position = rank of the price among the sellers priced that day, the pivot first
 * on ties, then the series' order (the opened listing's seller, then the others by name). Prices in
 * `currency` at each day's rates. One row per (seller, day) with a point, in series order; a seller
 * whose listings have no point in the period has one row without a date (an empty series).
 */
export function historySql(m: Market, q: HistoryQuestion): string {
  const z = lit(m.zone);
  const now = `timestamptz ${lit(q.now.toISOString())}`;
  const rootTest = m.roots.length
    ? `(p.classification_id is null or p.classification_id in (select id from classifications
        where list_has_any(list_transform(string_split(path, ' '), x -> x::int), [${ids(m.roots)}])))`
    : 'true';
  return `
    with days as (
      select d, timezone(${z}, d::timestamp) as s, least(timezone(${z}, (d + 1)::timestamp), ${now}) as e
        from (select unnest(generate_series(date ${lit(q.from)}, date ${lit(q.to)}, interval 1 day))::date as d)),
    subject as (select p.id, p.seller_id from products p
                 where p.id = ${q.product} and p.seller_id in (${ids(m.licensed)}) and ${rootTest}),
    grp as (select group_id from match_members where product_id = ${q.product} and status <> 'rejected'),
    listings as (
      select id, seller_id from subject
      union all
      select p.id, p.seller_id from match_members mm join products p on p.id = mm.product_id
       where mm.group_id = (select group_id from grp) and mm.status <> 'rejected' and p.id <> ${q.product}
         and p.seller_id in (${ids(m.licensed)}) and p.seller_id <> (select seller_id from subject)),
    series as (
      select l.seller_id, s.name, row_number() over (order by l.seller_id <> (select seller_id from subject), s.name) as ord
        from (select distinct seller_id from listings) l join sellers s on s.id = l.seller_id),
    picked as (
      select days.d, l.seller_id, l.id, x.price_type, x.stock_out, x.currency,
             least(case when x.normal_price > 0 then x.normal_price end,
                   case when x.sale_price > 0 then x.sale_price end,
                   case when x.exclusive_price > 0 then x.exclusive_price end) as eff
        from listings l join price_intervals x on x.product_id = l.id
        join days on x.valid_from < days.e and (x.valid_to is null or x.valid_to > days.s) and days.e > days.s
     qualify row_number() over (partition by days.d, l.id order by x.valid_from desc) = 1),
    rate as (select days.d, cur.currency, coalesce(f.clp_per_unit::double, case when cur.currency = 'CLP' then 1 end) as r
               from days cross join (select distinct currency from fx_rates union select 'CLP') cur
               asof left join fx_rates f on f.currency = cur.currency and f.day <= days.d),
    priced as (
      select pk.*, pk.eff::double * r.r / q.r as price
        from picked pk left join rate r on r.d = pk.d and r.currency = pk.currency
        left join rate q on q.d = pk.d and q.currency = ${lit(q.currency)}),
    points as (
      select pr.d, pr.seller_id, se.ord, pr.price, pr.price_type, pr.stock_out
        from priced pr join series se using (seller_id)
     qualify row_number() over (partition by pr.d, pr.seller_id order by pr.price nulls last, pr.id) = 1),
    ranked as (
      select seller_id, d, price, price_type, stock_out,
             case when price is not null then row_number() over (
               partition by d order by price nulls last, seller_id <> ${q.pivot}, ord) end as position
        from points)
    -- every series, a seller without a point in the period too (its row's date null)
    select se.seller_id, strftime(r.d, '%Y-%m-%d') as date, r.price, r.price_type, r.stock_out, r.position
      from series se left join ranked r using (seller_id) order by se.ord, r.d`;
}

/** Where the API's series differ from DuckDB's points: sellers in order, each point's price (round2), type, stock and position. */
export function historyDiff(
  api: {
    sellers: {
      id: number;
      prices: {
        date: string;
        price: number | null;
        price_type: string;
        stock_out: boolean;
        position: number | null;
      }[];
    }[];
  },
  rows: Record<string, unknown>[],
): string[] {
  const out: string[] = [];
  const order = [...new Set(rows.map((r) => Number(r.seller_id)))];
  const points = rows.filter((r) => r.date !== null);
  const apiOrder = api.sellers.map((s) => s.id);
  if (apiOrder.join() !== order.join()) out.push(`sellers: API ${apiOrder} DuckDB ${order}`);
  for (const s of api.sellers) {
    const mine = points.filter((r) => Number(r.seller_id) === s.id);
    if (mine.length !== s.prices.length)
      out.push(`seller ${s.id}: API ${s.prices.length} points, DuckDB ${mine.length}`);
    s.prices.forEach((p, k) => {
      const r = mine[k];
      if (!r) return;
      const want = {
        date: r.date,
        price: r.price === null ? null : round2(Number(r.price)),
        price_type: r.price_type,
        stock_out: r.stock_out,
        position: num(r.position),
      };
      const got = {
        date: p.date,
        price: p.price,
        price_type: p.price_type,
        stock_out: p.stock_out,
        position: p.position,
      };
      if (JSON.stringify(got) !== JSON.stringify(want))
        out.push(`seller ${s.id}: API ${JSON.stringify(got)} DuckDB ${JSON.stringify(want)}`);
    });
  }
  return out;
}

// ───────────────────────────── a search (POST /v1/list-products/) ─────────────────────────────

export interface SearchQuestion {
  pivot: number;
  search: string;
  currency: string;
  today: string;
  page: number;
  pageSize: number;
}

/**
 * The product list with a text query, dearest first (docs/metrics.md "Product list"): the pivot's
 * published listings under the license roots whose folded name, SKU, seller's id or EAN — or brand —
 * contains every folded word; price = the effective price of the listing's latest interval in `currency`
 * at today's rates; sorted by that price in CLP, descending, nulls last, then by id descending. The page's
 * rows and, in each, the total.
 */
export function searchSql(m: Market, q: SearchQuestion): string {
  const fold = (e: string) => `translate(lower(${e}), ${lit(SEARCH_FOLD_FROM)}, ${lit(SEARCH_FOLD_TO)})`;
  const words = normalizeSearch(q.search);
  const rootTest = m.roots.length
    ? `p.classification_id in (select id from classifications
        where list_has_any(list_transform(string_split(path, ' '), x -> x::int), [${ids(m.roots)}]))`
    : 'true';
  const key = fold(
    `coalesce(p.name, '') || ' ' || coalesce(p.sku, '') || ' ' || p.product_id || ' ' || coalesce(p.ean, '')`,
  );
  const wordTests = words.map(
    (w) => `(contains(${key}, ${lit(w)}) or contains(coalesce(${fold('b.name')}, ''), ${lit(w)}))`,
  );
  return `
    with ${pricedSql(q.currency, q.today)},
    hits as (
      select p.id, x.price, x.price * (select r from req) as clp_price
        from products p left join brands b on b.id = p.brand_id left join priced x on x.product_id = p.id
       where p.seller_id = ${q.pivot} and p.published and ${rootTest} and ${wordTests.join(' and ') || 'true'})
    select id, price, count(*) over () as total from hits
     order by clp_price desc nulls last, id desc
     limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`;
}

/** Where the API's page differs from DuckDB's: totalItems, the ids in order, each price (round2). */
export function searchDiff(
  api: { totalItems: number; items: { id: number; price: number | null }[] },
  rows: Record<string, unknown>[],
): string[] {
  const out: string[] = [];
  const total = rows.length ? Number(rows[0].total) : 0;
  if (api.totalItems !== total) out.push(`totalItems: API ${api.totalItems} DuckDB ${total}`);
  const got = api.items.map((it) => `${it.id}:${it.price}`).join(' ');
  const want = rows.map((r) => `${r.id}:${r.price === null ? null : round2(Number(r.price))}`).join(' ');
  if (got !== want) out.push(`items: API ${got} DuckDB ${want}`);
  return out;
}

// ───────────────────────────── promotions: level and duration (POST /v1/promotion/*) ─────────────────────────────

export interface PromotionsQuestion {
  pivot: number;
  /** the asked nodes (each selects its subtree) */
  nodes: number[];
  from: string;
  to: string;
  currency: string;
}

/**
 * Each listing's state at its seller's last succeeded run of every calendar day from the seller's first
 * run day to its latest (a day without a run keeps the previous run's state: ASOF), for the listings under
 * the asked nodes at the pivot and every licensed seller: `run_day` says whether the seller ran that day.
 * Only published states (an interval covers the run's instant).
 */
function runStatesSql(m: Market, q: PromotionsQuestion, onlyPromoted: boolean): string {
  const z = lit(m.zone);
  const sellers = ids([q.pivot, ...m.licensed.filter((s) => s !== q.pivot)]);
  return `
    runs as (select seller_id, timezone(${z}, observed_at)::date as d, max(observed_at) as t from ingest_runs
              where status = 'succeeded' and seller_id in (${sellers}) group by all),
    cal as (select seller_id, unnest(generate_series(min(d), max(d), interval 1 day))::date as d from runs group by 1),
    cal_t as (select cal.seller_id, cal.d, r.t, r.d = cal.d as run_day
                from cal asof join runs r on r.seller_id = cal.seller_id and r.d <= cal.d),
    nodes as (select n.node, c.id as cls from classifications c
                join (select unnest([${ids(q.nodes)}]) as node) n
                  on list_contains(list_transform(string_split(c.path, ' '), x -> x::int), n.node)),
    lst as (select p.id, p.seller_id, n.node from products p join nodes n on n.cls = p.classification_id
             where p.seller_id in (${sellers})),
    st as (select c.d, c.run_day, c.id, c.seller_id, c.node, x.price_type, x.currency, x.normal_price,
                  (case x.price_type when 'SALE' then x.sale_price when 'EXCLUSIVE' then x.exclusive_price
                                     when 'BYQUANTITY' then x.byquantity_price end) as promo_price
             from (select c.*, l.id, l.node from cal_t c join lst l on l.seller_id = c.seller_id) c
             asof join price_intervals x on x.product_id = c.id and x.valid_from <= c.t
            where (x.valid_to is null or x.valid_to > c.t) ${onlyPromoted ? "and x.price_type <> 'NORMAL'" : ''})`;
}

/** DuckDB SQL: the median of a sorted list of doubles (the middle one; of two, their mean). */
const medianOf = (xs: string) =>
  `(case when len(${xs}) % 2 = 1 then ${xs}[len(${xs}) // 2 + 1] else (${xs}[len(${xs}) // 2] + ${xs}[len(${xs}) // 2 + 1]) / 2 end)`;

/**
 * DuckDB SQL: whether `v` is a spike of the series whose sorted values are `xs` (docs/metrics.md
 * "Promotions", level `spike`): with ≥ 4 values, v ≥ median + max(3 points, 3 × 1.4826 × MAD), MAD =
 * the median of the absolute deviations from the median. Doubles throughout (no DECIMAL literal).
 */
export const spikeSql = (v: string, xs: string) => {
  const m = medianOf(xs);
  const mad = medianOf(`list_sort(list_transform(${xs}, x -> abs(x - ${m})))`);
  return `(${v} is not null and len(${xs}) >= 4 and ${v} >= ${m} + greatest(3::double, 3::double * 1.4826::double * ${mad}))`;
};

/**
 * Level (docs/metrics.md "Promotions"): per seller, node and Monday week clipped to the window, the
 * listing-days of the days the seller ran: published, and promoted (SALE, EXCLUSIVE, BYQUANTITY); the
 * week's percentage (100 × promoted / published, 2 decimals) and its spike flag among the weeks of the
 * seller and node that have a value (`kind` 'cell'); and the market's weeks — every seller and node
 * pooled — with their percentage and spike flag (`kind` 'market').
 */
export function promoLevelSql(m: Market, q: PromotionsQuestion): string {
  return `
    with ${runStatesSql(m, q, false)},
    wk as (select seller_id, node, strftime(date_trunc('week', d), '%Y-%m-%d') as week, count(*) as published,
                  count(*) filter (where price_type <> 'NORMAL') as promoted
             from st where run_day and d between date ${lit(q.from)} and date ${lit(q.to)}
            group by all),
    cell as (select *, round((100 * promoted)::double / published::double, 2) as percentage from wk),
    cell_series as (select seller_id, node, list_sort(list(percentage)) as xs from cell group by all),
    market as (select week, round((100 * sum(promoted))::double / sum(published)::double, 2) as percentage
                 from wk group by week),
    market_series as (select list_sort(list(percentage)) as xs from market)
    select 'cell' as kind, c.seller_id, c.node, c.week, c.published, c.promoted, c.percentage,
           ${spikeSql('c.percentage', 's.xs')} as spike
      from cell c join cell_series s using (seller_id, node)
    union all
    select 'market', null, null, k.week, null, null, k.percentage, ${spikeSql('k.percentage', 's.xs')}
      from market k cross join market_series s
     order by all`;
}

/**
 * Duration: the promotions (maximal runs of consecutive days on promotion with one price type, per
 * listing) counting in the window, per seller and their duration (last − first + 1; running ones up to
 * the seller's latest run day): their number, how many are running, and the averages of their first
 * day's prices converted at that day's rates (normal; promotion price above 0; discount % where
 * 0 < promotion < normal).
 */
export function promoDurationSql(m: Market, q: PromotionsQuestion): string {
  const factor = (cur: string, day: string) =>
    `(case when ${cur} = ${lit(q.currency)} then 1::double else
        (select arg_max(clp_per_unit, day)::double from fx_rates f where f.currency = ${cur} and f.day <= ${day})
        / (select arg_max(clp_per_unit, day)::double from fx_rates f where f.currency = ${lit(q.currency)} and f.day <= ${day}) end)`;
  return `
    with ${runStatesSql(m, q, true)},
    latest as (select seller_id, max(d) as last_run from runs group by 1),
    isl as (select *, d - cast(row_number() over (partition by id, price_type order by d) as integer) as k from st),
    spans as (select id, seller_id, price_type, min(d) as first_day, max(d) as last_day,
                     arg_min(normal_price, d) as normal_price, arg_min(promo_price, d) as promo_price,
                     arg_min(currency, d) as currency
                from isl group by id, seller_id, price_type, k),
    win as (select s.*, s.last_day = l.last_run as running, (s.last_day - s.first_day) + 1 as days
              from spans s join latest l using (seller_id)
             where s.first_day <= date ${lit(q.to)} and s.last_day >= date ${lit(q.from)}),
    fx as (select w.*, ${factor('w.currency', 'w.first_day')} as factor from win w)
    select seller_id, days, count(*) as count, count(*) filter (where running) as running,
           sum(normal_price * factor) / nullif(count(normal_price * factor), 0) as normal,
           sum(case when promo_price > 0 then promo_price end * factor)
             / nullif(count(case when promo_price > 0 then promo_price end * factor), 0) as promotion,
           avg(case when normal_price > 0 and promo_price > 0 and promo_price < normal_price
                    then 100 * (normal_price - promo_price)::double / normal_price::double end)
             filter (where factor is not null) as discount,
           sum(count(*)) over (partition by seller_id) as total
      from fx group by seller_id, days order by seller_id, days`;
}

/**
 * Where the level answers differ: per seller, node and week, published, promoted, the percentage (round2)
 * and the spike flag; and the market's spike weeks (week and percentage).
 */
export function levelDiff(
  api: {
    items: {
      seller: { id: number };
      classifications: {
        id: number;
        weeks: {
          week: string;
          published: number;
          promoted: number;
          percentage: number | null;
          spike: boolean;
        }[];
      }[];
    }[];
    spikes?: { week: string; percentage: number }[];
  },
  all: Record<string, unknown>[],
): string[] {
  const out: string[] = [];
  const rows = all.filter((r) => r.kind === 'cell');
  const mine = new Map(rows.map((r) => [`${r.seller_id} ${r.node} ${r.week}`, r]));
  let seen = 0;
  for (const it of api.items)
    for (const c of it.classifications)
      for (const w of c.weeks) {
        const r = mine.get(`${it.seller.id} ${c.id} ${w.week}`);
        if (r) seen++;
        const pub = r ? Number(r.published) : 0;
        const pro = r ? Number(r.promoted) : 0;
        const pct = pub > 0 ? round2((100 * pro) / pub) : null;
        const spike = r ? r.spike === true : false;
        if (r && r.percentage !== pct)
          out.push(`${it.seller.id}/${c.id}/${w.week}: DuckDB's SQL percentage ${r.percentage} ≠ ${pct}`);
        if (w.published !== pub || w.promoted !== pro || w.percentage !== pct || w.spike !== spike)
          out.push(
            `${it.seller.id}/${c.id}/${w.week}: API ${w.promoted}/${w.published} ${w.percentage}%${w.spike ? ' spike' : ''} DuckDB ${pro}/${pub} ${pct}%${spike ? ' spike' : ''}`,
          );
      }
  if (seen !== rows.length) out.push(`weeks: DuckDB has ${rows.length - seen} the API does not`);
  const market = all
    .filter((r) => r.kind === 'market' && r.spike === true)
    .map((r) => ({ week: String(r.week), percentage: Number(r.percentage) }));
  if (JSON.stringify(api.spikes ?? []) !== JSON.stringify(market))
    out.push(`market spikes: API ${JSON.stringify(api.spikes ?? [])} DuckDB ${JSON.stringify(market)}`);
  return out;
}

/** Where the duration answers differ: per seller and duration, count, running, total, percentage and prices (round2). */
export function durationDiff(
  api: {
    items: {
      seller: { id: number };
      classifications: {
        total: number;
        days: {
          day: number;
          percentage: number;
          count: number;
          running: number;
          prices: { normal: number | null; promotion: number | null; discount: number | null };
        }[];
      }[];
    }[];
  },
  rows: Record<string, unknown>[],
): string[] {
  const out: string[] = [];
  const mine = new Map(rows.map((r) => [`${r.seller_id} ${r.days}`, r]));
  let seen = 0;
  const r2 = (v: unknown) => (v === null || v === undefined ? null : round2(Number(v)));
  for (const it of api.items)
    for (const c of it.classifications)
      for (const d of c.days) {
        const r = mine.get(`${it.seller.id} ${d.day}`);
        if (!r) {
          out.push(`${it.seller.id} ${d.day} days: not in DuckDB`);
          continue;
        }
        seen++;
        const want = {
          count: Number(r.count),
          running: Number(r.running),
          total: Number(r.total),
          percentage: round2((100 * Number(r.count)) / Number(r.total)),
          normal: r2(r.normal),
          promotion: r2(r.promotion),
          discount: r2(r.discount),
        };
        const got = {
          count: d.count,
          running: d.running,
          total: c.total,
          percentage: d.percentage,
          ...d.prices,
        };
        if (JSON.stringify(got) !== JSON.stringify(want))
          out.push(
            `${it.seller.id} ${d.day} days: API ${JSON.stringify(got)} DuckDB ${JSON.stringify(want)}`,
          );
      }
  if (seen !== rows.length) out.push(`durations: DuckDB has ${rows.length - seen} the API does not`);
  return out;
}

// ───────────────────────────── assortment by e-commerce (POST /v1/assortment/ecommerce) ─────────────────────────────

export interface AssortmentQuestion {
  pivot: number;
  /** the selected sellers (the pivot added when missing) */
  sellers: number[];
  currency: string;
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
}

/**
 * Per selected seller and period (`cur`, `prev`; docs/metrics.md "Assortment"): at the end of the period
 * — the seller's last succeeded run of its latest run day on or before the period's last day — its
 * listings under the license roots published then (an interval covers the run's instant): their number,
 * those out of stock, and the exact DECIMAL sum and count of the effective prices of those priced in the
 * seller's currency, with the CLP per unit (DECIMAL text) of the seller's and the requested currency on
 * the period's last day (assortmentDiff converts with the domain's ConvertedSum); and the availability events over the
 * period's run days: published at the day's last run out of (in) stock, in (out of) stock in the interval
 * covering the day's start.
 */
export function assortmentSql(m: Market, q: AssortmentQuestion): string {
  const z = lit(m.zone);
  const sellers = ids(q.sellers);
  const rootTest = m.roots.length
    ? `p.classification_id in (select id from classifications
        where list_has_any(list_transform(string_split(path, ' '), x -> x::int), [${ids(m.roots)}]))`
    : 'true';
  // CLP per unit in force on the day as its exact DECIMAL(18,6) text (CLP: '1' when fx_rates has no row)
  const rateOn = (cur: string, day: string) =>
    `coalesce((select arg_max(clp_per_unit, f.day)::varchar from fx_rates f where f.currency = ${cur} and f.day <= date ${lit(day)}),
              case when ${cur} = 'CLP' then '1' end)`;
  return `
    with runs as (select seller_id, timezone(${z}, observed_at)::date as d, max(observed_at) as t from ingest_runs
                   where status = 'succeeded' and seller_id in (${sellers}) group by all),
    periods as (select * from (values ('cur', date ${lit(q.from)}, date ${lit(q.to)}),
                                      ('prev', date ${lit(q.previousFrom)}, date ${lit(q.previousTo)})) v(period, lo, hi)),
    ends as (select p.period, p.hi, r.seller_id, arg_max(r.t, r.d) as t from periods p join runs r on r.d <= p.hi group by all),
    lst as (select p.id, p.seller_id from products p where p.seller_id in (${sellers}) and ${rootTest}),
    at_end as (
      select e.period, e.hi, e.seller_id, x.stock_out, x.currency = s.currency as same_currency,
             least(case when x.normal_price > 0 then x.normal_price end,
                   case when x.sale_price > 0 then x.sale_price end,
                   case when x.exclusive_price > 0 then x.exclusive_price end) as eff
        from (select e.*, l.id from ends e join lst l using (seller_id)) e
        asof join price_intervals x on x.product_id = e.id and x.valid_from <= e.t
        join sellers s on s.id = e.seller_id
       where x.valid_to is null or x.valid_to > e.t),
    figures as (
      select period, seller_id, count(*) as published, count(*) filter (where stock_out) as out_of_stock,
             count(eff) filter (where same_currency) as priced,
             sum(eff) filter (where same_currency) as value_sum, any_value(hi) as hi
        from at_end group by all),
    run_days as (select p.period, r.seller_id, r.d, r.t, timezone(${z}, r.d::timestamp) as d0
                   from periods p join runs r on r.d between p.lo and p.hi),
    ev as (
      select v.period, v.seller_id, v.now_out,
             case when y.valid_to is null or y.valid_to >= v.d0 then y.stock_out end as start_out
        from (select rd.period, rd.seller_id, rd.d0, l.id, x.stock_out as now_out
                from run_days rd join lst l using (seller_id)
                asof join price_intervals x on x.product_id = l.id and x.valid_from <= rd.t
               where x.valid_to is null or x.valid_to > rd.t) v
        asof left join price_intervals y on y.product_id = v.id and y.valid_from < v.d0),
    events as (select period, seller_id, count(*) filter (where now_out and start_out = false) as went_out,
                      count(*) filter (where not now_out and start_out) as back_in
                 from ev group by all)
    select f.period, f.seller_id, f.published, f.out_of_stock, f.priced,
           coalesce(f.value_sum, 0)::varchar as value_sum,
           case f.period when 'cur' then ${rateOn('s.currency', q.to)} else ${rateOn('s.currency', q.previousTo)} end as rate,
           case f.period when 'cur' then ${rateOn(lit(q.currency), q.to)} else ${rateOn(lit(q.currency), q.previousTo)} end as target_rate,
           coalesce(e.went_out, 0) as went_out, coalesce(e.back_in, 0) as back_in
      from figures f join sellers s on s.id = f.seller_id
      left join events e on e.period = f.period and e.seller_id = f.seller_id`;
}

interface AssortmentApiRow {
  id: number | null;
  summary: boolean;
  total_products: number;
  previous_total_products: number;
  products_variation: number | null;
  total_value: number | null;
  previous_total_value: number | null;
  total_variation: number | null;
  average_value: number | null;
  previous_average_value: number | null;
  average_variation: number | null;
  participation: number | null;
  out_of_stock: number;
  availability: number | null;
  went_out_of_stock: number;
  back_in_stock: number;
  previous_went_out_of_stock: number;
  previous_back_in_stock: number;
}

/** One period's figures of a seller or of all: counts, and the exact value (domain ConvertedSum). */
function assortmentPeriod(rows: Record<string, unknown>[], period: 'cur' | 'prev', seller: number | null) {
  const mine = rows.filter((r) => r.period === period && (seller === null || Number(r.seller_id) === seller));
  const value = new ConvertedSum();
  let priced = 0;
  let target: string | null = null;
  for (const r of mine) {
    target = (r.target_rate as string | null) ?? target;
    // a seller whose currency has no rate: its listings count in the products, not in the value
    if (r.rate === null) continue;
    value.add(String(r.value_sum), String(r.rate));
    priced += Number(r.priced);
  }
  const sum = (k: string) => mine.reduce((a, r) => a + Number(r[k] ?? 0), 0);
  const at = target ?? String(rows.find((r) => r.period === period)?.target_rate ?? '1');
  return {
    published: sum('published'),
    outOfStock: sum('out_of_stock'),
    wentOut: sum('went_out'),
    backIn: sum('back_in'),
    priced,
    total: value.rounded(at),
    average: priced ? value.rounded(at, priced) : null,
    totalApprox: value.approximate(at),
    averageApprox: priced ? value.approximate(at, priced) : null,
  };
}

/**
 * Where the API's rows differ from DuckDB's: each seller's row and the summary ('Todos', the sellers
 * summed): products, out of stock, availability, value and average value (exact: DuckDB's DECIMAL sums
 * converted by the domain's ConvertedSum, equal to the cent), participation, the events of both periods,
 * and the three variations (periodChangeRounded of those figures).
 */
export function assortmentDiff(
  api: { sellers: AssortmentApiRow[] },
  rows: Record<string, unknown>[],
): string[] {
  const out: string[] = [];
  const total = assortmentPeriod(rows, 'cur', null).published;
  for (const row of api.sellers) {
    const sid = row.summary ? null : row.id;
    const cur = assortmentPeriod(rows, 'cur', sid);
    const prev = assortmentPeriod(rows, 'prev', sid);
    const want = {
      total_products: cur.published,
      previous_total_products: prev.published,
      products_variation: periodChangeRounded(cur.published, prev.published),
      total_value: cur.total,
      previous_total_value: prev.total,
      total_variation: periodChangeRounded(cur.totalApprox, prev.totalApprox),
      average_value: cur.average,
      previous_average_value: prev.average,
      average_variation: periodChangeRounded(cur.averageApprox, prev.averageApprox),
      participation: total ? round2((100 * cur.published) / total) : null,
      out_of_stock: cur.outOfStock,
      availability: cur.published ? round2((100 * (cur.published - cur.outOfStock)) / cur.published) : null,
      went_out_of_stock: cur.wentOut,
      back_in_stock: cur.backIn,
      previous_went_out_of_stock: prev.wentOut,
      previous_back_in_stock: prev.backIn,
    };
    const got = Object.fromEntries(Object.keys(want).map((k) => [k, row[k as keyof AssortmentApiRow]]));
    for (const [k, v] of Object.entries(want))
      if (got[k] !== v) out.push(`${sid ?? 'Todos'} ${k}: API ${got[k]} DuckDB ${v}`);
  }
  return out;
}

// ───────────────────────────── the rows ─────────────────────────────

/** One question asked of both sides: the API call, DuckDB's SQL, and where their answers differ. */
interface Question {
  call: RouteCall;
  /** DuckDB's statements (timed together) */
  sql: string[];
  /** differences between the API's JSON and DuckDB's rows (one list per statement); empty = agreed */
  diff: (api: unknown, duck: Record<string, unknown>[][]) => string[];
}

export interface DuckRow {
  name: string;
  requests: number;
  apiP50: number;
  apiP95: number;
  duckP50: number;
  duckP95: number;
  agreed: number;
  /** the first disagreements, for the report */
  examples: string[];
  compared: string;
}

interface RowDef {
  name: string;
  def: Parameters<typeof callRoute>[1];
  compared: string;
  question: (i: number) => Question;
}

/** Times `requests` repetitions of a row: the API's answer and DuckDB's, compared on each. */
async function runRow(target: BenchTarget, db: DuckDBConnection, row: RowDef, requests: number) {
  const api: number[] = [];
  const duck: number[] = [];
  let agreed = 0;
  const examples: string[] = [];
  for (let i = -2; i < requests; i++) {
    const q = row.question(i + 2);
    let t = performance.now();
    const res = await callRoute(target, row.def, q.call);
    const body = res.ok ? await res.json() : { status: res.status, text: await res.text() };
    const apiMs = performance.now() - t;
    t = performance.now();
    const rows: Record<string, unknown>[][] = [];
    for (const sql of q.sql) rows.push(await rowsOf(db, sql));
    const duckMs = performance.now() - t;
    if (i < 0) continue; // warm-up: neither side measured
    api.push(apiMs);
    duck.push(duckMs);
    const d = res.ok ? q.diff(body, rows) : [`API ${res.status}`];
    if (!d.length) agreed++;
    else if (examples.length < 3)
      examples.push(`#${i} ${JSON.stringify(q.call.query ?? q.call.body)}: ${d.slice(0, 4).join('; ')}`);
  }
  api.sort((a, b) => a - b);
  duck.sort((a, b) => a - b);
  return {
    name: row.name,
    requests,
    apiP50: percentile(api, 50),
    apiP95: percentile(api, 95),
    duckP50: percentile(duck, 50),
    duckP95: percentile(duck, 95),
    agreed,
    examples,
    compared: row.compared,
  } satisfies DuckRow;
}

const r = routes.pricing;

/** The rows asked of both sides, in the issue's priority order. */
function rowDefs(
  m: Market,
  today: string,
  pivots: number[],
  samples: Sample[],
  promoRoots: number[],
): RowDef[] {
  const selection = newSelections(pivots, m.licensed);
  const currency = 'CLP';
  const mpiValue = DPM_DEFAULTS.dpmValue;
  const rivals = m.licensed.filter((id) => !(PRICING_PIVOTS as readonly number[]).includes(id));
  const pivotOf = (i: number) => PRICING_PIVOTS[i % 2];
  const kpiDiff = (api: unknown, [duck]: Record<string, unknown>[][]) => {
    const a = api as DpmTally & { split: Partial<DpmTally> };
    return tallyDiff({ ...a, ...a.split }, tallyOf(duck[0]));
  };
  const brandsDiff = (api: unknown, [duck]: Record<string, unknown>[][]) => {
    const items = (api as { items: (DpmTally & { id: number; products: number; match_pct: number })[] })
      .items;
    const out: string[] = [];
    const mine = new Map(duck.map((d) => [Number(d.id), tallyOf(d)]));
    if (items.length !== mine.size) out.push(`brands: API ${items.length} DuckDB ${mine.size}`);
    for (const it of items) {
      const d = mine.get(it.id);
      if (!d) out.push(`brand ${it.id}: not in DuckDB`);
      else {
        out.push(...tallyDiff(it, d).map((x) => `brand ${it.id} ${x}`));
        const pct = round2((100 * d.match) / d.total);
        if (it.match_pct !== pct) out.push(`brand ${it.id} match_pct: API ${it.match_pct} DuckDB ${pct}`);
      }
    }
    return out;
  };
  const kpiCompared =
    'the 7 KPIs and the split (cheapest, in range, dearer, without index: equal counts; average index: equal after round2)';
  return [
    {
      name: rowName(r.dpmKpi),
      def: r.dpmKpi,
      compared: kpiCompared,
      question: (i) => ({
        call: { query: { pivot_id: pivotOf(i) } },
        sql: [dpmSql(m, { pivot: pivotOf(i), currency, mpiValue }, today, 'all')],
        diff: kpiDiff,
      }),
    },
    {
      // the pricing row's competitor subsets (pricing.ts competitorSubset), one per request
      name: rowName(r.dpmKpi, 'new competitors each request'),
      def: r.dpmKpi,
      compared: kpiCompared,
      question: (i) => {
        const competitors = competitorSubset(rivals, 21, i);
        return {
          call: { query: { pivot_id: pivotOf(i), sellersIds: competitors } },
          sql: [dpmSql(m, { pivot: pivotOf(i), competitors, currency, mpiValue }, today, 'all')],
          diff: kpiDiff,
        };
      },
    },
    {
      name: rowName(r.dpmBrands, 'new competitors each request'),
      def: r.dpmBrands,
      compared: `every brand's ${kpiCompared.replace('the 7', '7')}, and its match_pct after round2`,
      question: (i) => {
        const competitors = competitorSubset(rivals, 4, i);
        return {
          call: { query: { pivot_id: pivotOf(i), sellersIds: competitors } },
          sql: [dpmSql(m, { pivot: pivotOf(i), competitors, currency, mpiValue }, today, 'brand')],
          diff: brandsDiff,
        };
      },
    },
    {
      // DPM by e-commerce with the brands row's competitor subsets, one per request
      name: rowName(r.dpmSellers, 'new competitors each request'),
      def: r.dpmSellers,
      compared:
        "every competitor's 7 KPIs and split (equal counts; average index after round2), products, coverage (match_pct after round2) and head to head (common, cheaper, equal, more expensive; mean difference after round2); the summary's products",
      question: (i) => {
        const competitors = competitorSubset(rivals, 5, i);
        return {
          call: { query: { pivot_id: pivotOf(i), sellersIds: competitors } },
          sql: [dpmSellersSql(m, { pivot: pivotOf(i), competitors, currency, mpiValue }, today)],
          diff: (api, [rows]) => dpmSellersDiff(api as Parameters<typeof dpmSellersDiff>[0], rows),
        };
      },
    },
    {
      // the dashboard row's selections (detail.ts newSelections), one per request: 7 days ending today
      name: rowName(routes.dashboard.cards, 'new competitors each request'),
      def: routes.dashboard.cards,
      compared:
        "every card's value and previous (round2), each snapshot card's 7 day figures (round2; mode: the day's mode), comparison, monitoring_since",
      question: (i) => {
        const s = selection(i);
        const from = addDays(today, -6);
        const q: DashboardQuestion = {
          pivot: s.pivot,
          competitors: s.sellers.filter((c) => c !== s.pivot),
          currency,
          from,
          to: today,
          previousFrom: addDays(from, -7),
          today,
        };
        return {
          call: { body: { pivot_id: s.pivot, sellers: s.sellers } },
          sql: [dashboardDaysSql(m, q), dashboardEventsSql(m, q)],
          diff: (api, [days, events]) =>
            dashboardDiff(api as Parameters<typeof dashboardDiff>[0], days, events[0], q),
        };
      },
    },
    {
      // the detail row's products (detail.ts matchedSamples) in turn, over the month ending today
      name: rowName(routes.detail.history, '1 month'),
      def: routes.detail.history,
      compared:
        "the series' sellers in order, and each day's point: date, price (round2), price type, stock, position",
      question: (i) => {
        const now = new Date();
        const body = historyBody(samples[i % samples.length], now);
        const q: HistoryQuestion = {
          pivot: body.pivot_id,
          product: body.product_id,
          currency,
          from: body.from_date,
          to: body.to_date,
          now,
        };
        return {
          call: { body },
          sql: [historySql(m, q)],
          diff: (api, [rows]) => historyDiff(api as Parameters<typeof historyDiff>[0], rows),
        };
      },
    },
    {
      // the product list's search row (detail.ts searchBody): a word in turn, page 1 of 10, dearest first
      name: rowName(routes.productList.list, 'search, sort by price'),
      def: routes.productList.list,
      compared: 'totalItems, and the page: ids in order, each price (round2)',
      question: (i) => {
        const body = searchBody(pivots, i);
        const q: SearchQuestion = {
          pivot: body.pivot_id,
          search: body.search,
          currency,
          today,
          page: 1,
          pageSize: 10,
        };
        return {
          call: { body },
          sql: [searchSql(m, q)],
          diff: (api, [rows]) => searchDiff(api as Parameters<typeof searchDiff>[0], rows),
        };
      },
    },
    {
      // the promotions rows with a new window each request (promotions.ts: level is its 7th row)
      name: rowName(routes.promotions.level, 'all roots, new window each request'),
      def: routes.promotions.level,
      compared:
        "every seller, node and week's promoted and published listing-days, percentage (round2) and spike flag; the market's spike weeks",
      question: (i) => {
        const body = { ...promotionsBase(i), from_date: shiftedFrom(7, i), classificationsIds: promoRoots };
        const q: PromotionsQuestion = {
          pivot: body.pivot_id,
          nodes: promoRoots,
          from: body.from_date,
          to: body.to_date,
          currency,
        };
        return {
          call: { body, headers: PROMOTIONS_HEADERS },
          sql: [promoLevelSql(m, q)],
          diff: (api, [rows]) => levelDiff(api as Parameters<typeof levelDiff>[0], rows),
        };
      },
    },
    {
      // duration: its 10th row, one root in turn
      name: rowName(routes.promotions.duration, 'one root, new window each request'),
      def: routes.promotions.duration,
      compared: "every seller and duration's count, running, total, percentage and average prices (round2)",
      question: (i) => {
        const root = promoRoots[i % promoRoots.length];
        const body = { ...promotionsBase(i), from_date: shiftedFrom(10, i), classification: root };
        const q: PromotionsQuestion = {
          pivot: body.pivot_id,
          nodes: [root],
          from: body.from_date,
          to: body.to_date,
          currency,
        };
        return {
          call: { body, headers: PROMOTIONS_HEADERS },
          sql: [promoDurationSql(m, q)],
          diff: (api, [rows]) => durationDiff(api as Parameters<typeof durationDiff>[0], rows),
        };
      },
    },
    {
      // the assortment row "period varies" (assortment.ts assortmentShifted): 30 days ending 1–40 days ago
      name: rowName(routes.assortment.ecommerce, 'period varies'),
      def: routes.assortment.ecommerce,
      compared:
        "each seller's row and 'Todos': products, out of stock, availability, participation, stock events of both periods; value and average value of both periods exact to the cent (DECIMAL sums); the three variations",
      question: (i) => {
        const body = assortmentShifted(pivots, m.licensed, i);
        const days = daysInclusive(body.from_date, body.to_date);
        const q: AssortmentQuestion = {
          pivot: body.pivot_id,
          sellers: [...new Set([body.pivot_id, ...body.sellers])],
          currency,
          from: body.from_date,
          to: body.to_date,
          previousFrom: addDays(body.from_date, -days),
          previousTo: addDays(body.from_date, -1),
        };
        return {
          call: { body },
          sql: [assortmentSql(m, q)],
          diff: (api, [rows]) => assortmentDiff(api as Parameters<typeof assortmentDiff>[0], rows),
        };
      },
    },
  ];
}

export interface DuckdbResult {
  load: Omit<LoadedMarket, 'db'>;
  rows: DuckRow[];
}

/**
 * Loads the market at `url` (the database of the server at `target`) into DuckDB, then asks both sides
 * every row's questions `requests` times (c1, one after the other), comparing each answer.
 */
export async function benchDuckdb(
  target: BenchTarget,
  url: string,
  { requests = 30, only }: { requests?: number; only?: RegExp } = {},
): Promise<DuckdbResult> {
  const loaded = await loadMarket(url);
  const { db, ...load } = loaded;
  console.log(
    `  DuckDB: export ${load.exportSeconds.toFixed(1)} s (${(load.csvBytes / 2 ** 20).toFixed(1)} MiB CSV), load ${load.loadSeconds.toFixed(1)} s, ${(load.duckBytes / 2 ** 20).toFixed(1)} MiB in DuckDB`,
  );
  const m = await marketOf(db, 'demo@example.com');
  const sellersRes = await callRoute(target, licensesRoutes.sellers);
  const apiLicensed = ((await sellersRes.json()) as { id: number }[]).map((s) => s.id).sort((a, b) => a - b);
  if (apiLicensed.join() !== m.licensed.join())
    throw new Error(`licensed sellers: API ${apiLicensed} DuckDB ${m.licensed}`);
  const today = isoDateInZone(new Date(), m.zone);
  const out: DuckRow[] = [];
  const pivotsRes = await callRoute(target, licensesRoutes.pivots);
  const pivots = ((await pivotsRes.json()) as { id: number }[]).map((p) => p.id);
  const samples = await matchedSamples(target, pivots);
  const promoRoots = await promotionsRoots(target);
  for (const row of rowDefs(m, today, pivots, samples, promoRoots)) {
    if (only && !only.test(row.name)) continue;
    const res = await runRow(target, db, row, requests);
    console.log(
      `  ${res.name}: API p95 ${res.apiP95.toFixed(1)} ms, DuckDB p95 ${res.duckP95.toFixed(1)} ms, agreed ${res.agreed}/${res.requests}`,
    );
    for (const e of res.examples) console.log(`    differs ${e}`);
    out.push(res);
  }
  db.closeSync();
  return { load, rows: out };
}

/** The Markdown table of a run: the load, then one line per row. */
export function renderDuckdb(res: DuckdbResult): string[] {
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
  const f = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '—');
  const lines = [
    `- Raw tables exported (COPY … TO STDOUT, CSV) in ${res.load.exportSeconds.toFixed(1)} s: ${mib(res.load.csvBytes)} of CSV; ` +
      `loaded into DuckDB in ${res.load.loadSeconds.toFixed(1)} s: ${mib(res.load.duckBytes)} in DuckDB's memory. ` +
      `The PostgreSQL database: ${mib(res.load.dbBytes)}, ${(res.load.dbBytes / res.load.csvBytes).toFixed(1)}× the raw tables' CSV. Rows: ` +
      Object.entries(res.load.rows)
        .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
        .join(', '),
    '',
    '| row (c1) | requests | API p50 / p95 ms | DuckDB p50 / p95 ms | API p95 / DuckDB p95 | answers agreed | compared |',
    '|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const x of res.rows)
    lines.push(
      `| ${x.name} | ${x.requests} | ${f(x.apiP50)} / ${f(x.apiP95)} | ${f(x.duckP50)} / ${f(x.duckP95)} | ${(x.apiP95 / x.duckP95).toFixed(2)} | ${x.agreed}/${x.requests} | ${x.compared} |`,
    );
  return lines;
}
