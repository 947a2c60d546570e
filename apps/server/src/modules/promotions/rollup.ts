import { DEFAULT_TIMEZONE, isoDateInZone } from '@vigia/domain';
import type pg from 'pg';
import { type RollupUpdater, registerRollup } from '../ingest/index.js';

// The promotions roll-up (migrations/100_promotions.sql), run in every ingest transaction after the
// daily roll-up (modules/rollups.ts imports ingest's roll-ups first):
//  - promo_daily for the run's (seller, day) = rollup_daily_brand of that (seller, day) summed over
//    brands and over the leaves under each node (a few hundred rows read, one row per node written);
//  - promo_spans for the listings the run touched (only they can change state): a listing whose state
//    is now a promotion of type X without an open promotion of X opens one on the run's day — or
//    re-opens the one of X that an earlier run of the same day ended (last_day = day − 1); a listing
//    whose open promotion is not its state any more ends it on the day before the run's day (a
//    promotion the same day opened is deleted: the day's last state decides).
// promotions-check.ts recomputes both from the price history (tests, operations).

const santiagoDay = (at: Date) => isoDateInZone(at, DEFAULT_TIMEZONE);

const DAILY_DELETE = 'delete from promo_daily where seller_id = $1 and day = $2::date';
const DAILY = `
insert into promo_daily (seller_id, day, classification_id, published, promoted, promoted_sale, promoted_exclusive,
                         promoted_byquantity)
select $1, $2::date, node, sum(r.published), sum(r.promoted), sum(r.promoted_sale), sum(r.promoted_exclusive),
       sum(r.promoted_byquantity)
  from rollup_daily_brand r join classifications c on c.id = r.classification_id cross join unnest(c.path) node
 where r.seller_id = $1 and r.day = $2::date
 group by node
having sum(r.published) > 0`;

/** The touched listings' state now: the promotion type (null: none) and its prices. */
const STATE = `
select lc.product_id, p.classification_id, lc.normal_price, lc.currency,
       case when lc.published and lc.price_type <> 'NORMAL' then lc.price_type end as ptype,
       case lc.price_type when 'SALE' then lc.sale_price when 'EXCLUSIVE' then lc.exclusive_price
                          when 'BYQUANTITY' then lc.byquantity_price end as promo_price
  from unnest($1::bigint[]) t(id)
  join listing_current lc on lc.product_id = t.id
  join products p on p.id = t.id`;

/** Ends (or deletes, when opened the same day) open promotions that are no longer the listing's state. */
const END = `
with s as (${STATE}),
ending as (
  select ps.id, ps.first_day from promo_spans ps join s on s.product_id = ps.product_id
   where ps.last_day is null and ps.price_type is distinct from s.ptype
),
del as (delete from promo_spans where id in (select id from ending where first_day >= $2::date))
update promo_spans set last_day = $2::date - 1 where id in (select id from ending where first_day < $2::date)`;

/** Re-opens a promotion of the listing's present type that an earlier run of the same day ended. */
const REOPEN = `
with s as (${STATE})
update promo_spans ps set last_day = null from s
 where ps.product_id = s.product_id and ps.last_day = $2::date - 1 and ps.price_type = s.ptype
   and not exists (select 1 from promo_spans o where o.product_id = s.product_id and o.last_day is null)`;

/** Opens a promotion for listings on promotion without an open one. */
const OPEN = `
with s as (${STATE})
insert into promo_spans (product_id, seller_id, classification_id, price_type, first_day, last_day, normal_price,
                         promo_price, currency)
select s.product_id, $3, s.classification_id, s.ptype, $2::date, null, s.normal_price, s.promo_price, s.currency
  from s
 where s.ptype is not null
   and not exists (select 1 from promo_spans o where o.product_id = s.product_id and o.last_day is null)`;

export const promotionsRollup: RollupUpdater = async (
  client: pg.PoolClient,
  { sellerId, observedAt, touched },
) => {
  const day = santiagoDay(observedAt);
  await client.query({ name: 'promo-daily-delete', text: DAILY_DELETE, values: [sellerId, day] });
  await client.query({ name: 'promo-daily', text: DAILY, values: [sellerId, day] });
  if (!touched.length) return;
  await client.query({ name: 'promo-end', text: END, values: [touched, day] });
  await client.query({ name: 'promo-reopen', text: REOPEN, values: [touched, day] });
  await client.query({ name: 'promo-open', text: OPEN, values: [touched, day, sellerId] });
};

registerRollup('promotions', promotionsRollup);
