import { addDays, DISCOUNT_BUCKET, daysInclusive, discountBucket, discountPercent } from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import { selectPromoIntervals, selectRollupSellerDays } from './queries.js';

// The closed-day figures that add up over sellers (issue 30 part 2; docs/metrics.md "Dashboard"), kept
// per (seller, license roots, zone, day) in dashboard_seller_days (migration 460) — days of a market zone
// (the organisation's once its roll-up rows are ready: ingest zones.ts dayZone): the roll-up counts
// (availability, in discount, average discount) and, from the promotion intervals, the discount
// histogram and per currency the sum of the discounts' amounts. Any competitor selection's figures of
// those cards are then sums of its sellers' rows; the price index and deviation come from the index
// history held in memory (index-history.ts). Computed once per seller and day (the warm-up does every
// licensed seller's), a closed day never changes.

/** Number of discount buckets (0, 5, …, 100 %). */
export const BUCKETS = 100 / DISCOUNT_BUCKET + 1;

export interface SellerDay {
  /** the seller had a roll-up row on or before the day */
  has_rollup: boolean;
  published: number;
  in_stock: number;
  promoted: number;
  discounted: number;
  discount_pct_sum: number;
  /** promoted listings with a discount %, per bucket (index = bucket / 5) */
  buckets: number[];
  /** per listing currency: [sum of normal − promotion price, listings] */
  money: Record<string, [number, number]>;
}

/**
 * Per seller and day of [from, to] (days of `zone`): its figures, computed from the roll-up's rows of the
 * zone and the promotion intervals at the zone's day ends.
 */
export async function computeSellerDays(
  db: Queryable,
  q: { sellers: number[]; roots: number[]; zone: string; from: string; to: string },
): Promise<Map<number, Map<string, SellerDay>>> {
  const D = daysInclusive(q.from, q.to);
  const [counts, promos] = await Promise.all([selectRollupSellerDays(db, q), selectPromoIntervals(db, q)]);
  const out = new Map<number, Map<string, SellerDay>>();
  const days: SellerDay[][] = [];
  for (const [k, seller] of q.sellers.entries()) {
    const m = new Map<string, SellerDay>();
    days.push([]);
    for (let d = 0; d < D; d++) {
      const day: SellerDay = {
        has_rollup: false,
        published: 0,
        in_stock: 0,
        promoted: 0,
        discounted: 0,
        discount_pct_sum: 0,
        buckets: new Array(BUCKETS).fill(0),
        money: {},
      };
      days[k].push(day);
      m.set(addDays(q.from, d), day);
    }
    out.set(seller, m);
  }
  for (const c of counts) {
    const day = out.get(c.seller_id)?.get(c.day);
    if (!day) continue;
    Object.assign(day, {
      has_rollup: true,
      published: c.published,
      in_stock: c.in_stock,
      promoted: c.promoted,
      discounted: c.discounted,
      discount_pct_sum: c.discount_pct_sum,
    });
  }
  const index = new Map(q.sellers.map((s, k) => [s, k]));
  for (const r of promos) {
    const pct = discountPercent(r.normal_price, r.promo_price);
    if (pct === null || r.normal_price === null || r.promo_price === null) continue;
    const bucket = discountBucket(pct) / DISCOUNT_BUCKET;
    const amount = r.normal_price - r.promo_price;
    const sellerDays = days[index.get(r.seller_id) as number];
    for (let d = Math.max(r.a, 0); d <= Math.min(r.b, D - 1); d++) {
      const day = sellerDays[d];
      day.buckets[bucket]++;
      const m = day.money[r.currency] ?? [0, 0];
      m[0] += amount;
      m[1]++;
      day.money[r.currency] = m;
    }
  }
  return out;
}

/** Stored rows of the sellers over [from, to] in `zone` (roots sorted). */
async function selectSellerDays(
  db: Queryable,
  q: { sellers: number[]; roots: number[]; zone: string; from: string; to: string },
): Promise<Map<number, Map<string, SellerDay>>> {
  const { rows } = await db.query<SellerDay & { seller_id: number; day: string }>(
    `select seller_id, to_char(day, 'YYYY-MM-DD') as day, has_rollup, published, in_stock, promoted, discounted,
            discount_pct_sum, buckets, money
       from dashboard_seller_days
      where seller_id = any($1::int[]) and roots = $2::int[] and zone = $5 and day between $3::date and $4::date`,
    [q.sellers, q.roots, q.from, q.to, q.zone],
  );
  const out = new Map<number, Map<string, SellerDay>>(q.sellers.map((s) => [s, new Map()]));
  for (const { seller_id, day, ...f } of rows) out.get(seller_id)?.set(day, f);
  return out;
}

async function insertSellerDays(
  db: Queryable,
  roots: number[],
  zone: string,
  rows: { seller: number; day: string; f: SellerDay }[],
): Promise<void> {
  if (!rows.length) return;
  await db.query(
    `insert into dashboard_seller_days (seller_id, roots, zone, day, has_rollup, published, in_stock, promoted,
                                        discounted, discount_pct_sum, buckets, money)
     select r.seller_id, $1::int[], $3, r.day, r.has_rollup, r.published, r.in_stock, r.promoted, r.discounted,
            r.discount_pct_sum, array(select jsonb_array_elements_text(r.buckets)::int), r.money
       from jsonb_to_recordset($2::jsonb) as r(seller_id int, day date, has_rollup boolean, published int,
            in_stock int, promoted int, discounted int, discount_pct_sum float8, buckets jsonb, money jsonb)
     on conflict do nothing`,
    [roots, JSON.stringify(rows.map((r) => ({ seller_id: r.seller, day: r.day, ...r.f }))), zone],
  );
}

/**
 * Every seller's figures for each day of [from, to] (closed days of `zone`; roots sorted): the stored rows, the
 * missing ones computed at once (one range from the first to the last missing day, the sellers missing
 * some) and stored.
 */
export async function sellerDays(
  db: Queryable,
  q: { sellers: number[]; roots: number[]; zone: string; from: string; to: string },
): Promise<Map<number, Map<string, SellerDay>>> {
  const stored = await selectSellerDays(db, q);
  let lo: string | null = null;
  let hi: string | null = null;
  const missing: number[] = [];
  for (const s of q.sellers) {
    const m = stored.get(s) as Map<string, SellerDay>;
    let any = false;
    for (let d = q.from; d <= q.to; d = addDays(d, 1)) {
      if (m.has(d)) continue;
      any = true;
      if (lo === null || d < lo) lo = d;
      if (hi === null || d > hi) hi = d;
    }
    if (any) missing.push(s);
  }
  if (!missing.length || lo === null || hi === null) return stored;
  const computed = await computeSellerDays(db, {
    sellers: missing,
    roots: q.roots,
    zone: q.zone,
    from: lo,
    to: hi,
  });
  const fresh: { seller: number; day: string; f: SellerDay }[] = [];
  for (const s of missing) {
    const m = stored.get(s) as Map<string, SellerDay>;
    for (const [day, f] of computed.get(s) ?? []) {
      if (m.has(day)) continue;
      m.set(day, f);
      fresh.push({ seller: s, day, f });
    }
  }
  await insertSellerDays(db, q.roots, q.zone, fresh);
  return stored;
}

/**
 * Deletes the rows of days before the warm window's first day in their zone (`windows`: zone → first
 * day; `otherwise` for a zone not listed).
 */
export async function pruneSellerDays(
  db: Queryable,
  windows: Map<string, string>,
  otherwise: string,
): Promise<number> {
  const res = await db.query(
    `delete from dashboard_seller_days d
      where d.day < coalesce((select w.first from unnest($1::text[], $2::date[]) as w(zone, first)
                               where w.zone = d.zone), $3::date)`,
    [[...windows.keys()], [...windows.values()], otherwise],
  );
  return res.rowCount ?? 0;
}
