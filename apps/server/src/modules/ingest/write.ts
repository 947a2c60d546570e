import type pg from 'pg';
import type { Candidate } from './diff.js';
import type { IngestRun, Observation } from './observation.js';

// Step "write": the staged candidates written to the listings (products), then — after the match step,
// since the snapshot carries the listing's match group — to their price history (price_intervals) and
// the snapshot (listing_current). A partial run also stamps last_seen of every observed listing.

/** A partial run: every observed listing was seen now (a full run stamps sellers.last_crawl_at instead: lock step). */
export async function touchLastSeen(
  client: pg.PoolClient,
  run: IngestRun,
  batch: Observation[],
): Promise<void> {
  const t = run.observedAt;
  const partial = run.mode === 'partial';
  const n = batch.length;
  if (partial && n) {
    await client.query(
      'update products set last_seen = $2 where seller_id = $1 and product_id = any($3::text[]) and last_seen < $2',
      [run.sellerId, t, batch.map((o) => o.productId)],
    );
  }
}

/** Listings: inserts the new ones, rewrites the description of changed or re-published ones. Returns how many are new. */
export async function writeListings(
  client: pg.PoolClient,
  run: IngestRun,
  cand: Candidate[],
  described: boolean[],
): Promise<number> {
  const t = run.observedAt;
  const anyNew = cand.some((c) => c.pid === null);
  let newListings = 0;
  if (anyNew) {
    const { rows } = await client.query<{ product_id: string; id: number }>({
      text: `with ins as (
           insert into products (seller_id, product_id, sku, ean, name, brand_id, url, image_url, category_id,
                                 classification_id, first_seen, last_seen, published, descr_hash)
           select $1, product_id, sku, ean, name, brand_id, url, image_url, category_id, classification_id, $2, $2,
                  true, dh
             from obs where pid is null
           on conflict (seller_id, product_id) do nothing
           returning id, product_id
         )
         update obs o set pid = ins.id, is_new = true from ins where o.product_id = ins.product_id
         returning o.product_id, o.pid as id`,
      values: [run.sellerId, t],
    });
    newListings = rows.length;
    const at = new Map(cand.map((c) => [c.o.productId, c]));
    for (const r of rows) at.get(r.product_id)!.id = r.id;
  }
  if (cand.some((c, i) => described[i] && c.pid !== null)) {
    await client.query({
      text: `update products p set
            sku = coalesce(o.sku, p.sku), ean = coalesce(o.ean, p.ean), name = coalesce(o.name, p.name),
            brand_id = coalesce(o.brand_id, p.brand_id), url = coalesce(o.url, p.url),
            image_url = coalesce(o.image_url, p.image_url), category_id = coalesce(o.category_id, p.category_id),
            classification_id = coalesce(o.classification_id, p.classification_id),
            published = true, unpublished_at = null, descr_hash = o.dh
           from obs o
          where p.id = o.pid and not o.is_new and o.described`,
    });
  }
  return newListings;
}

/**
 * Price history and snapshot: closes the open interval of every changed (or re-published) listing and
 * opens a new one, refreshes listing_current. Returns how many listings changed.
 */
export async function writePriceStates(
  client: pg.PoolClient,
  run: IngestRun,
  cand: Candidate[],
): Promise<number> {
  const t = run.observedAt;
  // Changed observed state (or re-published): close the open interval, open a new one and
  // refresh the snapshot, in one statement (all parts see the state from before it).
  const { rows: changedRows } = await client.query<{ n: number }>({
    text: `with changed as materialized (
         select o.*, lc.since as open_from from obs o left join listing_current lc on lc.product_id = o.pid
          where lc.product_id is null or not o.was_published
             or (o.normal_price, o.sale_price, o.exclusive_price, o.byquantity_price, o.price_type, o.stock_out, o.currency)
                is distinct from
                (lc.normal_price, lc.sale_price, lc.exclusive_price, lc.byquantity_price, lc.price_type, lc.stock_out, lc.currency)
       ),
       -- the open interval of a listing starts at listing_current.since (ingest keeps it so): a primary-key
       -- probe per changed listing
       closed as (
         update price_intervals pi set valid_to = $1
           from changed c
          where pi.product_id = c.pid and pi.valid_from = c.open_from and pi.valid_to is null and pi.valid_from < $1
         returning 1
       ),
       -- a new interval from $1, or, when the open one already starts at $1 (a second run at the same
       -- instant), that one rewritten (a plain insert: no speculative insertion for the common case)
       opened as (
         insert into price_intervals (product_id, valid_from, normal_price, sale_price, exclusive_price,
                                      byquantity_price, byquantity_qty, price_type, stock_out, currency)
         select pid, $1, normal_price, sale_price, exclusive_price, byquantity_price, byquantity_qty, price_type,
                stock_out, currency
           from changed where open_from is distinct from $1
         returning 1
       ),
       reopened as (
         update price_intervals pi set
            normal_price = c.normal_price, sale_price = c.sale_price, exclusive_price = c.exclusive_price,
            byquantity_price = c.byquantity_price, byquantity_qty = c.byquantity_qty, price_type = c.price_type,
            stock_out = c.stock_out, currency = c.currency, valid_to = null
           from changed c
          where c.open_from = $1 and pi.product_id = c.pid and pi.valid_from = $1
         returning 1
       ),
       snapshot as (
         insert into listing_current as lc (product_id, seller_id, group_id, match_status, brand_id, classification_id,
                normal_price, sale_price, exclusive_price, byquantity_price, price_type, stock_out, currency,
                effective_price, previous_effective_price, price_changed_at, since, obs_hash, published)
         select c.pid, $2, mm.group_id, mm.status, p.brand_id, p.classification_id,
                c.normal_price, c.sale_price, c.exclusive_price, c.byquantity_price, c.price_type, c.stock_out, c.currency,
                c.effective_price, null, $1, $1, c.ph, true
           from changed c
           join products p on p.id = c.pid
           left join match_members mm on mm.product_id = c.pid and mm.status <> 'rejected'
          where c.described
         on conflict (product_id) do update set
            group_id = excluded.group_id, match_status = excluded.match_status,
            brand_id = excluded.brand_id, classification_id = excluded.classification_id,
            normal_price = excluded.normal_price, sale_price = excluded.sale_price,
            exclusive_price = excluded.exclusive_price, byquantity_price = excluded.byquantity_price,
            price_type = excluded.price_type, stock_out = excluded.stock_out, currency = excluded.currency,
            effective_price = excluded.effective_price,
            previous_effective_price = case when lc.effective_price is distinct from excluded.effective_price
                                            then lc.effective_price else lc.previous_effective_price end,
            price_changed_at = case when lc.effective_price is distinct from excluded.effective_price
                                    then excluded.price_changed_at else lc.price_changed_at end,
            since = excluded.since, obs_hash = excluded.obs_hash, published = true
         returning 1
       ),
       -- a listing whose description did not change keeps its brand, classification and match group:
       -- only its prices (one primary-key update, no look-up of its product and match)
       prices as (
         update listing_current lc set
            normal_price = c.normal_price, sale_price = c.sale_price, exclusive_price = c.exclusive_price,
            byquantity_price = c.byquantity_price, price_type = c.price_type, stock_out = c.stock_out,
            currency = c.currency, effective_price = c.effective_price,
            previous_effective_price = case when lc.effective_price is distinct from c.effective_price
                                            then lc.effective_price else lc.previous_effective_price end,
            price_changed_at = case when lc.effective_price is distinct from c.effective_price
                                    then $1 else lc.price_changed_at end,
            since = $1, obs_hash = c.ph, published = true
           from changed c
          where lc.product_id = c.pid and not c.described
         returning 1
       )
       select (select count(*) from changed)::int as n,
              (select count(*) from closed) + (select count(*) from opened) + (select count(*) from reopened)
              + (select count(*) from snapshot) + (select count(*) from prices) as w`,
    values: [t, run.sellerId],
  });
  const changes = changedRows[0].n;
  // Every other candidate: its description, match group and observation hash in the snapshot (nothing
  // to do when every candidate changed: the statement above wrote all of that for them, after the
  // descriptions and matches were written).
  if (changes < cand.length)
    await client.query({
      text: `update listing_current lc set obs_hash = o.ph, brand_id = p.brand_id, classification_id = p.classification_id,
              group_id = mm.group_id, match_status = mm.status
         from obs o
         join products p on p.id = o.pid
         left join match_members mm on mm.product_id = o.pid and mm.status <> 'rejected'
        where lc.product_id = o.pid
          and (lc.obs_hash, lc.brand_id, lc.classification_id, lc.group_id, lc.match_status)
              is distinct from (o.ph, p.brand_id, p.classification_id, mm.group_id, mm.status)`,
    });
  return changes;
}
