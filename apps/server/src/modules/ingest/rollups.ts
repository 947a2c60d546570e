import { isoDateInZone } from '@vigia/domain';
import type pg from 'pg';
import { type RollupBefore, type RollupPrepare, type RollupUpdater, registerOwnRollup } from './registry.js';

// The built-in roll-ups, kept in every ingest transaction (ingest.ts imports this module, so they always
// run). Columns and their definitions: migrations/010_rollups.sql (discount_pct_sum: migrations/044).

/**
 * The day `$2` (yyyy-MM-dd in the zone `z`, a parameter) and its bounds [d0, d1) as instants. The day is
 * computed by the caller and passed as a value: the planner then uses it in index conditions even when
 * the table's statistics are stale (while a market is being loaded they say a seller has no rows).
 */
const dayBounds = (z: string) => `select $2::date as day, vigia_day_start($2::date, ${z}::text) as d0,
         vigia_day_start($2::date + 1, ${z}::text) as d1`;

/** The measures of rollup_daily_brand that are sums over listings (all but currency and averages). */
const MEASURES = [
  'published',
  'in_stock',
  'promoted',
  'promoted_sale',
  'promoted_exclusive',
  'promoted_byquantity',
  'priced',
  'effective_price_sum',
  'normal_priced',
  'normal_price_sum',
  'discounted',
  'discount_pct_sum',
  'new_listings',
  'unpublished',
  'went_out_of_stock',
  'back_in_stock',
] as const;
const EVENTS = new Set<string>(['new_listings', 'unpublished', 'went_out_of_stock', 'back_in_stock']);

/**
 * What the listings `$3` of seller `$1` add to rollup_daily_brand on day `$2`, by (classification,
 * brand), as they are stored now: a published listing counts in the state measures of its snapshot's
 * group; a listing first seen that day, or unpublished that day and still unpublished, counts as an event
 * in its product's group. "Before the day" (stock events) is the interval covering the day's start, needed
 * only for listings whose state changed since the day started (listing_current.since ≥ d0): given as
 * `$4`/`$5` (known, stock; aligned with `$3`) when the run read it before its changes, else looked up in
 * price_intervals.
 * Rollup_daily_brand for (seller, day) is this sum over all of the seller's listings.
 * In three parts (the CTEs `l` and `flags`, then the grouping) so that SAVE_BEFORE can also keep the
 * listings' day-start stock from `l`. `b` (DAY_BOUNDS) must be in scope.
 */
const LISTINGS = `
l as (
  select p.id, p.classification_id as p_class, p.brand_id as p_brand,
         (p.first_seen >= b.d0 and p.first_seen < b.d1) as is_new,
         (not p.published and p.unpublished_at >= b.d0 and p.unpublished_at < b.d1) as gone_today,
         lc.published, lc.classification_id, lc.brand_id, lc.price_type, lc.stock_out, lc.normal_price,
         lc.effective_price, (lc.currency = s.currency) as same_currency,
         case lc.price_type when 'SALE' then lc.sale_price when 'EXCLUSIVE' then lc.exclusive_price
                            when 'BYQUANTITY' then lc.byquantity_price end as promo_price,
         case when lc.published and lc.since >= b.d0 then
           case when t.start_known then t.start_stock
                else (select pi.stock_out from price_intervals pi
                       where pi.product_id = p.id and pi.valid_from < b.d0 and (pi.valid_to is null or pi.valid_to >= b.d0)
                       order by pi.valid_from desc limit 1) end
         end as prev_stock_out,
         -- unchanged since before the day started: its stock then is its stock now, if an interval
         -- covered the day's start at all (published, or unpublished during the day)
         case when lc.since < b.d0 then
           case when lc.published or p.unpublished_at >= b.d0 then lc.stock_out end
         end as day_start_stock,
         lc.since < b.d0 as unchanged_today
    from b
    join sellers s on s.id = $1
    cross join unnest($3::bigint[], $4::boolean[], $5::boolean[]) as t(id, start_known, start_stock)
    -- one primary-key probe per listing, whatever the statistics say (offset 0 keeps the subqueries
    -- apart: while a seller is being loaded they may claim it has no listings, and a plan scanning them
    -- all would cost the catalogue's size on every run)
    join lateral (select * from products p where p.id = t.id and p.seller_id = s.id offset 0) p on true
    left join lateral (select * from listing_current lc where lc.product_id = t.id offset 0) lc on true
)`;

const FLAGS = `
flags as (
  -- the state of a published listing, in its snapshot's group …
  select classification_id, brand_id, 1 as pub, case when not stock_out then 1 else 0 end as ins,
         case when price_type = 'SALE' then 1 else 0 end as ps,
         case when price_type = 'EXCLUSIVE' then 1 else 0 end as pe,
         case when price_type = 'BYQUANTITY' then 1 else 0 end as pq,
         case when same_currency then effective_price end as eff,
         case when same_currency then normal_price end as nor,
         case when price_type <> 'NORMAL' and same_currency
              then round(vigia_discount_pct(normal_price, promo_price), 4) end as disc, -- migration 050
         0 as nw, 0 as gn,
         case when stock_out and prev_stock_out = false then 1 else 0 end as wo,
         case when not stock_out and prev_stock_out then 1 else 0 end as bk
    from l where published
  union all
  -- … and the day's events of the listing, in its product's group
  select p_class, p_brand, 0, 0, 0, 0, 0, null, null, null,
         case when is_new then 1 else 0 end, case when gone_today then 1 else 0 end, 0, 0
    from l where is_new or gone_today
)`;

const GROUPED = `
select classification_id, brand_id,
       sum(pub)::int as published, sum(ins)::int as in_stock, sum(ps + pe + pq)::int as promoted,
       sum(ps)::int as promoted_sale, sum(pe)::int as promoted_exclusive, sum(pq)::int as promoted_byquantity,
       count(eff)::int as priced, coalesce(sum(eff), 0) as effective_price_sum,
       count(nor)::int as normal_priced, coalesce(sum(nor), 0) as normal_price_sum,
       count(disc)::int as discounted, coalesce(sum(disc), 0) as discount_pct_sum,
       sum(nw)::int as new_listings, sum(gn)::int as unpublished, sum(wo)::int as went_out_of_stock,
       sum(bk)::int as back_in_stock
  from flags
 group by classification_id, brand_id`;

const contribution = (z: string) => `with b as (${dayBounds(z)}), ${LISTINGS}, ${FLAGS} ${GROUPED}`;

/**
 * What the touched listings `$3` of (seller `$1`, day `$2`) contribute before the run's changes, kept in
 * the temporary table rollup_before (one per connection, emptied at commit) until the run has written.
 * Returns, for those unchanged since before the day started, their stock at the day's start (the
 * after-phase gets it as values instead of looking it up in the price history per changed listing).
 * `$4`/`$5` are empty here.
 */
const SAVE_BEFORE = `
with b as (${dayBounds('$6')}), ${LISTINGS}, ${FLAGS},
c as (${GROUPED}),
saved as (
  insert into rollup_before (zone, classification_id, brand_id, ${MEASURES.join(', ')})
  select $6, c.classification_id, c.brand_id, ${MEASURES.map((m) => `c.${m}`).join(', ')} from c
)
select id, day_start_stock from l where unchanged_today`;

/**
 * Adds to the rows of (seller `$1`, day `$2`) what the touched listings `$3` contribute now minus what
 * they contributed before (rollup_before): one write per group whose figures moved; groups not there
 * yet are inserted.
 */
const ADD_DIFFERENCE = `
with b as (${dayBounds('$6')}),
c as (${contribution('$6')}),
d as (
  select classification_id, brand_id, ${MEASURES.map((m) => `sum(${m}) as ${m}`).join(', ')}
    from (select classification_id, brand_id, ${MEASURES.join(', ')} from c
          union all
          select classification_id, brand_id, ${MEASURES.map((m) => `-${m}`).join(', ')} from rollup_before
           where zone = $6) x
   group by classification_id, brand_id
  having ${MEASURES.map((m) => `sum(${m}) <> 0`).join(' or ')}
)
insert into rollup_daily_brand as r (zone, day, seller_id, classification_id, brand_id, currency, ${MEASURES.join(', ')},
       effective_price_avg, normal_price_avg)
select $6, b.day, $1, d.classification_id, d.brand_id, (select currency from sellers where id = $1),
       ${MEASURES.map((m) => `d.${m}`).join(', ')},
       round(d.effective_price_sum / nullif(d.priced, 0), 2), round(d.normal_price_sum / nullif(d.normal_priced, 0), 2)
  from d cross join b
on conflict (zone, seller_id, day, classification_id, brand_id) do update set
   ${MEASURES.map((m) => `${m} = r.${m} + excluded.${m}`).join(', ')},
   effective_price_avg = round((r.effective_price_sum + excluded.effective_price_sum)
                               / nullif(r.priced + excluded.priced, 0), 2),
   normal_price_avg = round((r.normal_price_sum + excluded.normal_price_sum)
                            / nullif(r.normal_priced + excluded.normal_priced, 0), 2),
   updated_at = now()`;

/** The temporary tables of SAVE_BEFORE, created once per connection (outside any run's transaction). */
const BEFORE_TABLE = `
create temp table if not exists rollup_before (
  zone text not null, classification_id int, brand_id int, ${MEASURES.map((m) => `${m} ${m.endsWith('_sum') ? 'numeric' : 'int'} not null`).join(', ')}
) on commit delete rows`;

const beforeReady = new WeakSet<pg.PoolClient>();

/**
 * The seller's first run of day `$2` writes the day's rows at once: the rows of its previous run's day
 * `$6` (their state measures — nothing changed since that run — and no events yet) plus what the
 * touched listings `$3` contribute now minus what they contributed before (rollup_before); groups with
 * no published listing and no event are left out. One insert per group, no update.
 */
const FIRST_OF_DAY = `
with b as (${dayBounds('$7')}),
c as (${contribution('$7')}),
d as (
  select classification_id, brand_id, ${MEASURES.map((m) => `sum(${m}) as ${m}`).join(', ')}
    from (select r.classification_id, r.brand_id, ${MEASURES.map((m) => (EVENTS.has(m) ? `0 as ${m}` : `r.${m}`)).join(', ')}
            from rollup_daily_brand r
           where r.zone = $7 and r.seller_id = $1 and r.day = $6::date and r.published > 0
          union all
          select classification_id, brand_id, ${MEASURES.join(', ')} from c
          union all
          select classification_id, brand_id, ${MEASURES.map((m) => `-${m}`).join(', ')} from rollup_before
           where zone = $7) x
   group by classification_id, brand_id
)
insert into rollup_daily_brand (zone, day, seller_id, classification_id, brand_id, currency, ${MEASURES.join(', ')},
       effective_price_avg, normal_price_avg)
select $7, b.day, $1, d.classification_id, d.brand_id, (select currency from sellers where id = $1),
       ${MEASURES.map((m) => `d.${m}`).join(', ')},
       round(d.effective_price_sum / nullif(d.priced, 0), 2), round(d.normal_price_sum / nullif(d.normal_priced, 0), 2)
  from d cross join b
 where d.published <> 0 or d.new_listings <> 0 or d.unpublished <> 0`;

/** Groups of (seller `$1`, day `$2`) left with no published listing and no event. */
const DROP_EMPTY = `
delete from rollup_daily_brand r
 where r.zone = $3 and r.seller_id = $1 and r.day = $2::date and r.published = 0 and r.new_listings = 0 and r.unpublished = 0`;

// rollup_daily_brand for (seller, day of the run) is maintained by difference, so that a run costs what
// it changes rather than the size of the catalogue. Before the run's changes, what the touched listings
// contribute is saved; after them, the seller's first run of a day writes the day's rows from its
// previous run's day plus the difference (FIRST_OF_DAY), and a later run of the same day adds the
// difference to them and drops the groups left empty. test/rollups-check.ts recomputes the same rows
// independently from the price history (tests, operations). The statements are prepared (named):
// planning them would cost more than running them.

/** The zones the daily roll-up is kept in (rollup_zones, migration 431): the deployment's and the chosen ones. */
export async function rollupZones(db: pg.PoolClient | pg.Pool): Promise<string[]> {
  const { rows } = await db.query<{ zone: string }>({
    name: 'rollup-zones',
    text: 'select zone from rollup_zones order by zone',
  });
  return rows.map((r) => r.zone);
}

/** Creates rollup_before on this connection if needed; ingest calls it before the run's transaction. */
export const dailyRollupPrepare: RollupPrepare = async (client) => {
  if (beforeReady.has(client)) return;
  await client.query(BEFORE_TABLE);
  beforeReady.add(client);
};

/**
 * The zones of a run and, per zone, the day-start stock of the listings it touches that had not changed
 * yet that day (SAVE_BEFORE's rows), from the run's before-phase to its after-phase on the same
 * connection. Set by every run's before-phase, so that nothing of a failed run is used by the next one.
 */
const dayStart = new WeakMap<
  pg.PoolClient,
  { sellerId: number; zones: Map<string, { day: string; stock: Map<number, boolean | null> }> }
>();

export const dailyRollupBefore: RollupBefore = async (
  client,
  { sellerId, observedAt, touched, zones: list },
) => {
  dayStart.delete(client);
  const zones = new Map<string, { day: string; stock: Map<number, boolean | null> }>();
  for (const zone of list) {
    const day = isoDateInZone(observedAt, zone);
    const saved = { day, stock: new Map<number, boolean | null>() };
    zones.set(zone, saved);
    if (!touched.length) continue;
    const { rows } = await client.query<{ id: number; day_start_stock: boolean | null }>({
      name: 'rollup-daily-save',
      text: SAVE_BEFORE,
      values: [sellerId, day, touched, [], [], zone],
    });
    for (const r of rows) saved.stock.set(r.id, r.day_start_stock);
  }
  dayStart.set(client, { sellerId, zones });
};

export const dailyListingRollup: RollupUpdater = async (
  client,
  { sellerId, observedAt, previousAt, touched, zones: list },
) => {
  const saved = dayStart.get(client);
  dayStart.delete(client);
  const zones = saved && saved.sellerId === sellerId ? saved.zones : null;
  // the run's zones (RollupContext.zones, the before-phase's too; a zone added since is rebuilt by its job)
  for (const zone of list) {
    const day = isoDateInZone(observedAt, zone);
    const previousDay = previousAt ? isoDateInZone(previousAt, zone) : null;
    const z = zones?.get(zone);
    const stock = z && z.day === day ? z.stock : null;
    const known = touched.map((id) => stock?.has(id) ?? false);
    const start = touched.map((id) => stock?.get(id) ?? null);
    if (!previousDay || previousDay < day) {
      await client.query({
        name: 'rollup-daily-first',
        text: FIRST_OF_DAY,
        values: [sellerId, day, touched, known, start, previousDay, zone],
      });
      continue;
    }
    if (!touched.length) continue;
    await client.query({
      name: 'rollup-daily-add',
      text: ADD_DIFFERENCE,
      values: [sellerId, day, touched, known, start, zone],
    });
    await client.query({ name: 'rollup-daily-drop', text: DROP_EMPTY, values: [sellerId, day, zone] });
  }
};

registerOwnRollup('daily', dailyListingRollup, dailyRollupBefore, dailyRollupPrepare);
