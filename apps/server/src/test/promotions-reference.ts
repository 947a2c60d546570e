import type pg from 'pg';
import {
  type RunningGroup,
  type ScopeValues,
  scopeArgs,
  spansIn,
  type TypePricesRow,
} from '../modules/promotions/queries.js';

// The range and scatter-plot figures (and the type averages in a currency other than CLP) as SQL over
// promo_spans: what the endpoints computed before the in-memory copy (modules/promotions/model.ts,
// distribution.ts) and the reference the model is tested against (promotions-model.test.ts). promo_spans itself is checked against the price history by
// checkPromotions.

type Queryable = pg.Pool | pg.PoolClient;
const SPANS = spansIn();

/** The `ranges + 1` boundaries of the pooled promotion prices: min, the quantiles between, max. */
export async function selectRangePoints(
  db: Queryable,
  s: ScopeValues,
  ranges: number,
): Promise<number[] | null> {
  const qs = Array.from({ length: ranges + 1 }, (_, i) => i / ranges);
  const { rows } = await db.query<{ pts: number[] | null }>(
    `with ${SPANS}
     select percentile_cont($8::float8[]) within group (order by promo) as pts from spans where vigia_promo_price(promo::numeric) is not null`,
    [...scopeArgs(s), qs],
  );
  return rows[0]?.pts ?? null;
}

/** Promotions per seller and range (1-based; `inner` = the boundaries between ranges). */
export async function selectRangeCounts(
  db: Queryable,
  s: ScopeValues,
  inner: number[],
): Promise<{ seller_id: number; range: number; count: number }[]> {
  const { rows } = await db.query<{ seller_id: number; range: number; count: number }>(
    `with ${SPANS}
     select seller_id, width_bucket(promo, $8::float8[]) + 1 as range, count(*)::int as count
       from spans where vigia_promo_price(promo::numeric) is not null group by 1, 2`,
    [...scopeArgs(s), inner],
  );
  return rows;
}

/** The 95th percentile of the pooled promotion prices (the scatter plot's buckets follow it). */
export async function selectPriceP95(db: Queryable, s: ScopeValues): Promise<number | null> {
  const { rows } = await db.query<{ p95: number | null }>(
    `with ${SPANS}
     select percentile_cont(0.95) within group (order by promo)::float8 as p95 from spans where vigia_promo_price(promo::numeric) is not null`,
    scopeArgs(s),
  );
  return rows[0]?.p95 ?? null;
}

export interface RefScatterRow {
  seller_id: number;
  price: number;
  count: number;
  ids: number[] | null;
}

/** Promotions per seller and price bucket (lower bound); `sample` products of each when asked. */
export async function selectScatter(
  db: Queryable,
  s: ScopeValues,
  width: number,
  sample: number,
): Promise<RefScatterRow[]> {
  const { rows } = await db.query<RefScatterRow>(
    `with ${SPANS}
     select seller_id, (floor(promo / $8::float8) * $8::float8)::float8 as price, count(distinct product_id)::int as count,
            case when $9::int > 0 then (array_agg(distinct product_id))[1:$9::int] end as ids
       from spans where vigia_promo_price(promo::numeric) is not null group by 1, 2 order by 1, 2`,
    [...scopeArgs(s), width, sample],
  );
  return rows;
}

/**
 * The type screen's promotions and average prices per seller, asked classification and price type over
 * the window, each promotion's prices × its factor at its first day's rates (spansIn: FIRST_DAY_FACTOR),
 * the discount SQL's vigia_discount_pct of its own prices: what the endpoint computed in a currency other
 * than CLP before the in-memory copy (distribution.ts typeChart).
 */
export async function selectTypePrices(db: Queryable, s: ScopeValues): Promise<TypePricesRow[]> {
  const { rows } = await db.query<TypePricesRow>(
    `with ${SPANS}
     select seller_id, cls, price_type, count(*)::int as count,
            (sum(normal) / nullif(count(normal), 0))::float8 as normal,
            (sum(vigia_promo_price(promo_price) * factor) / nullif(count(vigia_promo_price(promo_price) * factor), 0))::float8 as promotion,
            avg(vigia_discount_pct(normal_price, promo_price)) filter (where factor is not null)::float8 as discount
       from spans group by 1, 2, 3 order by 1, 2, 3`,
    scopeArgs(s),
  );
  return rows;
}

/**
 * The running promotions under the first asked classification grouped by (seller, first day, currency):
 * what the duration chart read before distribution.ts runningGroups, its reference.
 */
export async function selectRunningGroups(
  db: Queryable,
  s: Pick<ScopeValues, 'sellers' | 'asked' | 'zone'>,
): Promise<RunningGroup[]> {
  const { rows } = await db.query<RunningGroup>(
    `select sp.seller_id, sp.first_day::text as first_day, sp.currency, count(*)::int as n,
            sum(sp.normal_price)::text as normal, count(sp.normal_price)::int as normal_n,
            sum(vigia_promo_price(sp.promo_price))::text as promo,
            count(vigia_promo_price(sp.promo_price))::int as promo_n,
            sum(sp.discount_pct)::text as disc, count(sp.discount_pct)::int as disc_n
       from promo_spans sp
       join classifications c on c.id = sp.classification_id and c.path @> array[$2::int]
      where sp.zone = $3 and sp.seller_id = any($1::int[]) and sp.last_day is null
      -- by the day itself (its text once per group, not per promotion)
      group by sp.seller_id, sp.first_day, sp.currency`,
    [s.sellers, s.asked[0], s.zone],
  );
  return rows;
}
