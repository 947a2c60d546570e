import type { Queryable } from '../../db/database.js';

// Price history of the brand comparator's trend: the state of given listings at the end of given days.

export interface ListingState {
  normal: number | null;
  sale: number | null;
  exclusive: number | null;
  stockOut: boolean;
  currency: string;
}

/**
 * Per day (same order as `days`), listing id → its interval covering the end of that day in
 * America/Santiago (now, for today); a listing without one (unpublished then, or not yet listed) is
 * absent. One primary-key probe of price_intervals per (listing, day).
 */
export async function selectStatesAt(
  db: Queryable,
  ids: number[],
  days: string[],
  /** the organisation's market zone: where each day ends */
  zone: string,
): Promise<Map<number, ListingState>[]> {
  const out = days.map(() => new Map<number, ListingState>());
  if (!ids.length || !days.length) return out;
  const { rows } = await db.query<{
    id: number;
    k: number;
    normal: number | null;
    sale: number | null;
    exclusive: number | null;
    stock_out: boolean;
    currency: string;
  }>(
    `with d as (
       select k::int as k,
              least(now(), vigia_day_start(day + 1, $3::text) - interval '1 millisecond') as t
         from unnest($2::date[]) with ordinality u(day, k)
     )
     select x.id::float8 as id, d.k, pi.normal_price::float8 as normal, pi.sale_price::float8 as sale,
            pi.exclusive_price::float8 as exclusive, pi.stock_out, pi.currency
       from unnest($1::bigint[]) x(id)
       cross join d
       join lateral (select * from price_intervals pi where pi.product_id = x.id and pi.valid_from <= d.t
                      order by pi.valid_from desc limit 1) pi on pi.valid_to is null or pi.valid_to > d.t`,
    [ids, days, zone],
  );
  for (const r of rows)
    out[r.k - 1].set(r.id, {
      normal: r.normal,
      sale: r.sale,
      exclusive: r.exclusive,
      stockOut: r.stock_out,
      currency: r.currency,
    });
  return out;
}
