import type pg from 'pg';
import { allowLongStatements, withTransaction } from '../../db/database.js';
import type { RollupUpdater } from '../ingest/registry.js';

// Maintenance of the pricing read model (migrations/020_pricing.sql): pricing_rows (one per listing of
// a built pivot) and pricing_offers (one per pivot listing × confirmed-matched competitor listing).
//
// - `ensurePricingPivot` builds a pivot's rows on first use (and records it in pricing_pivots).
// - `pricingRollup` (registered with ingest's registerRollup) refreshes, inside the ingest transaction,
//   what the batch wrote: every listing of the seller whose products or listing_current row this
//   transaction changed (new, description, publication, last seen, price state, match group).
// - `refreshPricingForListings` is the entry point for anything else that changes listings or match
//   groups (manual match confirmation, title matching): pass the listing ids that changed, inside the
//   transaction that changed them.
// Every rewrite bumps pricing_pivots.version and logs the rewritten ids in pricing_changes, from which
// each API process refreshes its in-memory copy (model.ts). Builds take an exclusive advisory lock,
// roll-ups a shared one, so a pivot being built never misses a concurrent ingest.

type Queryable = pg.Pool | pg.PoolClient;

const LOCK_KEY = 7_020_001;
/** pricing_changes kept per pivot (older readers reload the pivot in full). */
const CHANGES_KEPT = 2000;

const ROW_COLUMNS = `product_id, pivot_id, group_id, listing_ref, sku, ean, name, brand_id, brand_name,
  classification_id, class_path, category_path, url, image_url, normal_price, sale_price, exclusive_price,
  price_type, stock_out, currency, published, first_seen, last_seen`;

const OFFER_COLUMNS = `pivot_product_id, product_id, pivot_id, seller_id, listing_ref, url, normal_price, sale_price,
  exclusive_price, price_type, stock_out, currency, published, first_seen, last_seen`;

const updateAll = (cols: string, key: string[]) =>
  cols
    .split(',')
    .map((c) => c.trim())
    .filter((c) => !key.includes(c))
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');

/**
 * (Re)writes pricing_rows and pricing_offers of the given listings (those of built pivots; others are
 * ignored) and records the change for the in-memory copies.
 */
async function rebuildRows(
  db: Queryable,
  listingIds: number[],
  log = true,
): Promise<{ id: number; pivot: number }[]> {
  if (!listingIds.length) return [];
  const { rows: own } = await db.query<{ id: number; pivot: number }>(
    `select p.id, p.seller_id as pivot from products p join pricing_pivots pp on pp.seller_id = p.seller_id
      where p.id = any($1::bigint[]) order by p.id`,
    [listingIds],
  );
  if (!own.length) return [];
  const ids = own.map((r) => r.id);
  await db.query(
    `with recursive src as (select p.* from products p where p.id = any($1::bigint[])),
      up(leaf, parent_id, path) as (
        select c.id, c.parent_id, array[c.id] from categories c
         where c.id in (select category_id from src where category_id is not null)
        union all
        select u.leaf, c.parent_id, c.id || u.path from up u join categories c on c.id = u.parent_id
      )
      insert into pricing_rows (${ROW_COLUMNS})
      select p.id, p.seller_id, mm.group_id, p.product_id, p.sku, p.ean, coalesce(p.name, ''), p.brand_id, b.name,
             p.classification_id, coalesce(cl.path, '{}'), coalesce(up.path, '{}'), p.url, p.image_url,
             lc.normal_price, lc.sale_price, lc.exclusive_price,
             lc.price_type, lc.stock_out, lc.currency, p.published, p.first_seen, p.last_seen
        from src p
        join listing_current lc on lc.product_id = p.id
        left join brands b on b.id = p.brand_id
        left join classifications cl on cl.id = p.classification_id
        left join up on up.leaf = p.category_id and up.parent_id is null
        left join match_members mm on mm.product_id = p.id and mm.status = 'confirmed'
       order by p.id
      on conflict (product_id) do update set ${updateAll(ROW_COLUMNS, ['product_id'])}`,
    [ids],
  );
  await db.query('delete from pricing_offers where pivot_product_id = any($1::bigint[])', [ids]);
  await db.query(
    `insert into pricing_offers (${OFFER_COLUMNS})
     select r.product_id, p.id, r.pivot_id, p.seller_id, p.product_id, p.url, lc.normal_price, lc.sale_price,
            lc.exclusive_price, lc.price_type, lc.stock_out, lc.currency, p.published, p.first_seen, p.last_seen
       from pricing_rows r
       join match_members mm on mm.group_id = r.group_id and mm.status = 'confirmed' and mm.product_id <> r.product_id
       join products p on p.id = mm.product_id and p.seller_id <> r.pivot_id
       join listing_current lc on lc.product_id = p.id
      where r.product_id = any($1::bigint[])
      order by r.product_id, p.id
     on conflict (pivot_product_id, product_id) do update set ${updateAll(OFFER_COLUMNS, ['pivot_product_id', 'product_id'])}`,
    [ids],
  );
  if (log) await logChanges(db, own);
  return own;
}

/**
 * New version per pivot touched (the row lock on pricing_pivots orders concurrent writers), with the
 * pivot listings it rewrote: what the in-memory copies reload (model.ts).
 */
async function logChanges(db: Queryable, changed: { id: number; pivot: number }[]): Promise<void> {
  const byPivot = new Map<number, Set<number>>();
  for (const r of changed) {
    const set = byPivot.get(r.pivot) ?? new Set<number>();
    set.add(r.id);
    byPivot.set(r.pivot, set);
  }
  for (const [pivot, ids] of [...byPivot].sort((a, b) => a[0] - b[0])) {
    const { rows } = await db.query<{ version: number }>(
      'update pricing_pivots set version = version + 1 where seller_id = $1 returning version',
      [pivot],
    );
    const version = rows[0].version;
    await db.query('insert into pricing_changes (pivot_id, version, product_ids) values ($1, $2, $3)', [
      pivot,
      version,
      [...ids].sort((a, b) => a - b),
    ]);
    if (version % 100 === 0) {
      await db.query('delete from pricing_changes where pivot_id = $1 and version <= $2', [
        pivot,
        version - CHANGES_KEPT,
      ]);
    }
  }
}

/**
 * Refreshes the read model after `listingIds` (of any seller) changed. Pivot listings, and pivot rows
 * whose match group gained or lost one of these listings, are rewritten in full; for the other
 * competitor listings only their offer rows are updated in place (a price change of a competitor
 * touches one row per pivot listing it is matched with). Call it inside the transaction that made the
 * change.
 */
export async function refreshPricingForListings(db: Queryable, listingIds: number[]): Promise<number> {
  if (!listingIds.length) return 0;
  const { rows } = await db.query<{ id: number }>(
    `select distinct id from (
        -- pivot listings themselves
        select p.id from products p join pricing_pivots pp on pp.seller_id = p.seller_id
         where p.id = any($1::bigint[])
        union all
        -- pivot rows of a group a listing joined (no offer row yet) …
        select r.product_id from match_members mm
          join pricing_rows r on r.group_id = mm.group_id and r.product_id <> mm.product_id
         where mm.product_id = any($1::bigint[]) and mm.status = 'confirmed'
           and not exists (select 1 from pricing_offers o
                            where o.pivot_product_id = r.product_id and o.product_id = mm.product_id)
        union all
        -- … or left (an offer row whose listing is no longer confirmed in the pivot row's group)
        select o.pivot_product_id from pricing_offers o join pricing_rows r on r.product_id = o.pivot_product_id
         where o.product_id = any($1::bigint[])
           and not exists (select 1 from match_members mm
                            where mm.product_id = o.product_id and mm.group_id = r.group_id and mm.status = 'confirmed')
      ) t order by id`,
    [listingIds],
  );
  const rebuildIds = rows.map((r) => r.id);
  // The rows of the pivots this refresh may log (logChanges), locked first and in one order: runs of
  // different sellers rewrite and update the same offer rows (a pivot listing's offers are the other
  // sellers' listings), and locking them in the order each run happened to reach them deadlocked two
  // concurrent runs (bench/src/ingest-day.ts at 3 sellers at once, 2026-11-28: 2 runs of 3 failed).
  await db.query(
    `select 1 from pricing_pivots
      where seller_id in (select p.seller_id from products p where p.id = any($1::bigint[]))
         or seller_id in (select o.pivot_id from pricing_offers o where o.product_id = any($2::bigint[]))
      order by seller_id for no key update`,
    [rebuildIds, listingIds],
  );
  const rebuilt = await rebuildRows(db, rebuildIds, false);
  const skip = rebuilt.map((r) => r.id);
  const { rows: updated } = await db.query<{ id: number; pivot: number }>(
    `update pricing_offers o set
        listing_ref = p.product_id, url = p.url, normal_price = lc.normal_price, sale_price = lc.sale_price,
        exclusive_price = lc.exclusive_price, price_type = lc.price_type, stock_out = lc.stock_out,
        currency = lc.currency, published = p.published, first_seen = p.first_seen, last_seen = p.last_seen
       from products p join listing_current lc on lc.product_id = p.id
      where o.product_id = p.id and p.id = any($1::bigint[]) and o.pivot_product_id <> all($2::bigint[])
        and (o.listing_ref, o.url, o.normal_price, o.sale_price, o.exclusive_price, o.price_type, o.stock_out,
             o.currency, o.published, o.first_seen, o.last_seen)
            is distinct from
            (p.product_id, p.url, lc.normal_price::float8, lc.sale_price::float8, lc.exclusive_price::float8,
             lc.price_type, lc.stock_out, lc.currency, p.published, p.first_seen, p.last_seen)
     returning o.pivot_product_id as id, o.pivot_id as pivot`,
    [listingIds, skip],
  );
  await logChanges(db, [...rebuilt, ...updated]);
  return rebuilt.length + updated.length;
}

/**
 * Listings of `sellerId` that the current ingest transaction wrote: their products row (new,
 * description, re-publication, last seen of a partial run, unpublication) or their listing_current row
 * (price state, match group). Rows written by this transaction carry its id in xmin, so the roll-up
 * needs no list of changes from ingest and never misses one.
 */
async function listingsWrittenNow(client: pg.PoolClient, sellerId: number): Promise<number[]> {
  const { rows } = await client.query<{ id: number }>(
    `select p.id from products p where p.seller_id = $1 and p.xmin = pg_current_xact_id()::xid
     union
     select lc.product_id from listing_current lc where lc.seller_id = $1 and lc.xmin = pg_current_xact_id()::xid`,
    [sellerId],
  );
  return rows.map((r) => r.id);
}

/** The ingest roll-up: keeps the read model of built pivots current, in the ingest transaction. */
export const pricingRollup: RollupUpdater = async (client, { sellerId }) => {
  await client.query('select pg_advisory_xact_lock_shared($1)', [LOCK_KEY]);
  const built = await client.query('select 1 from pricing_pivots limit 1');
  if (!built.rowCount) return;
  await refreshPricingForListings(client, await listingsWrittenNow(client, sellerId));
};

const builtPivots = new WeakMap<pg.Pool, Set<number>>();

/** Builds the read model of a pivot seller once (first request); later calls cost nothing. */
export async function ensurePricingPivot(pool: pg.Pool, pivot: number): Promise<void> {
  let known = builtPivots.get(pool);
  if (!known) {
    known = new Set();
    builtPivots.set(pool, known);
  }
  if (known.has(pivot)) return;
  const { rowCount } = await pool.query('select 1 from pricing_pivots where seller_id = $1', [pivot]);
  if (!rowCount) {
    await withTransaction(pool, async (client) => {
      await client.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
      // a pivot's first build is long work on a large market (~120k listings and their offers: more than
      // the requests' 30 s under load, issue 30), done once and shared by every request after it
      await allowLongStatements(client);
      const again = await client.query('select 1 from pricing_pivots where seller_id = $1', [pivot]);
      if (again.rowCount) return;
      await client.query('insert into pricing_pivots (seller_id) values ($1)', [pivot]);
      const { rows } = await client.query<{ id: number }>(
        'select id from products where seller_id = $1 order by id',
        [pivot],
      );
      await rebuildRows(
        client,
        rows.map((r) => r.id),
      );
    });
  }
  known.add(pivot);
}

/** Rebuilds every built pivot from scratch (operations: after a bulk load that bypassed ingest). */
export async function rebuildAllPricing(pool: pg.Pool): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
    const { rows } = await client.query<{ id: number }>(
      'select p.id from products p join pricing_pivots pp on pp.seller_id = p.seller_id order by p.id',
    );
    await rebuildRows(
      client,
      rows.map((r) => r.id),
    );
  });
}
