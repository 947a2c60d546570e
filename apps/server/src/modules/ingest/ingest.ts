import type pg from 'pg';
import { withTransaction } from '../../db/database.js';

/**
 * The one way data enters Vigía. Feed imports, the crawler and the demo generator all hand a batch of
 * observations of one seller at one instant to `ingestObservations`, which in ONE transaction:
 *   1. upserts the listings (products) with their brand, seller category and classification;
 *   2. closes the open price interval of every listing whose observed state changed and opens a new one;
 *   3. updates listing_current (the snapshot the screens read);
 *   4. puts new listings with an EAN into their match group (EAN equality → confirmed);
 *   5. in a full run, unpublishes listings the seller no longer shows and stamps sellers.last_crawl_at;
 *   6. runs every registered roll-up updater for the seller and day.
 * The run is recorded in ingest_runs; a failed run is marked failed with its error and changes nothing else.
 */

export interface Observation {
  productId: string; // the seller's own id
  sku?: string | null;
  ean?: string | null;
  name?: string | null;
  brand?: string | null; // brand name as the seller shows it
  url?: string | null;
  imageUrl?: string | null;
  categoryPath?: string[] | null; // the seller's breadcrumb, root first
  classificationId?: number | null; // leaf of v2_classification when known
  normalPrice: number | null;
  salePrice?: number | null;
  exclusivePrice?: number | null;
  byquantityPrice?: number | null;
  byquantityQty?: number | null;
  priceType?: 'NORMAL' | 'SALE' | 'EXCLUSIVE' | 'BYQUANTITY' | null; // derived when absent
  stockOut?: boolean;
  currency?: string | null; // default: the seller's currency
}

export interface IngestRun {
  sellerId: number;
  source: 'demo' | 'feed' | 'crawler' | 'test';
  /** full: the whole catalogue was observed (missing listings are unpublished); partial: only these. */
  mode: 'full' | 'partial';
  observedAt: Date;
}

export interface IngestResult {
  runId: number;
  observations: number;
  changes: number;
  newListings: number;
  unpublished: number;
}

/** A roll-up kept up to date at ingest time, inside the ingest transaction. */
export type RollupUpdater = (
  client: pg.PoolClient,
  ctx: { sellerId: number; observedAt: Date; runId: number },
) => Promise<void>;

const rollupUpdaters: { name: string; fn: RollupUpdater }[] = [];

/** Registers a roll-up (e.g. daily promotion counts); runs after every ingest batch, in its transaction. */
export function registerRollup(name: string, fn: RollupUpdater): void {
  if (!rollupUpdaters.some((r) => r.name === name)) rollupUpdaters.push({ name, fn });
}

/** Price type of an observation that does not state it: the kind of its lowest price. */
export function derivePriceType(o: Observation): NonNullable<Observation['priceType']> {
  if (o.priceType) return o.priceType;
  const normal = o.normalPrice ?? Number.POSITIVE_INFINITY;
  const sale = o.salePrice ?? Number.POSITIVE_INFINITY;
  const exclusive = o.exclusivePrice ?? Number.POSITIVE_INFINITY;
  if (o.exclusivePrice != null && exclusive <= sale && exclusive < normal) return 'EXCLUSIVE';
  if (o.salePrice != null && sale < normal) return 'SALE';
  if (o.byquantityPrice != null && o.byquantityPrice < normal) return 'BYQUANTITY';
  return 'NORMAL';
}

/** Effective price (PRODUCT.md, docs/metrics.md): the lowest of the normal, sale and exclusive prices present. */
export function effectivePrice(
  o: Pick<Observation, 'normalPrice' | 'salePrice' | 'exclusivePrice'>,
): number | null {
  const present = [o.normalPrice, o.salePrice, o.exclusivePrice].filter(
    (p): p is number => p !== null && p !== undefined && p > 0,
  );
  return present.length ? Math.min(...present) : null;
}

function validate(o: Observation, i: number): void {
  const where = `observación ${i} (${o.productId})`;
  if (!o.productId || o.productId.length > 200) throw new Error(`${where}: productId inválido`);
  for (const [k, v] of Object.entries({
    normalPrice: o.normalPrice,
    salePrice: o.salePrice,
    exclusivePrice: o.exclusivePrice,
    byquantityPrice: o.byquantityPrice,
  })) {
    if (v !== null && v !== undefined && (!Number.isFinite(v) || v < 0 || v >= 1e12)) {
      throw new Error(`${where}: ${k} fuera de rango`);
    }
  }
}

const categoryCache = new Map<string, number>();

/** Resolves a seller breadcrumb to the id of its leaf in categories, creating missing levels. */
async function resolveCategory(client: pg.PoolClient, sellerId: number, path: string[]): Promise<number> {
  let parent: number | null = null;
  let key = `${sellerId}`;
  for (let level = 0; level < path.length; level++) {
    const name = path[level].trim().slice(0, 200);
    key += `>${name}`;
    const cached = categoryCache.get(key);
    if (cached !== undefined) {
      parent = cached;
      continue;
    }
    const res: pg.QueryResult<{ id: number }> = await client.query(
      `insert into categories (seller_id, parent_id, name, level) values ($1, $2, $3, $4)
       on conflict (seller_id, parent_id, name) do update set name = excluded.name
       returning id`,
      [sellerId, parent, name, level + 1],
    );
    parent = res.rows[0].id;
    categoryCache.set(key, parent);
  }
  if (parent === null) throw new Error('categoría vacía');
  return parent;
}

/** Forgets cached category ids (tests that recreate databases call it). */
export function clearIngestCaches(): void {
  categoryCache.clear();
}

async function resolveBrands(client: pg.PoolClient, names: string[]): Promise<Map<string, number>> {
  const distinct = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  const map = new Map<string, number>();
  if (!distinct.length) return map;
  const norm = distinct.map((n) => n.toLowerCase());
  await client.query(
    `insert into brands (name, normalized_name)
     select n, nn from unnest($1::text[], $2::text[]) as t(n, nn)
     on conflict (normalized_name) do nothing`,
    [distinct, norm],
  );
  const { rows } = await client.query<{ id: number; normalized_name: string }>(
    'select id, normalized_name from brands where normalized_name = any($1)',
    [norm],
  );
  const byNorm = new Map(rows.map((r) => [r.normalized_name, r.id]));
  for (const n of distinct) map.set(n, byNorm.get(n.toLowerCase())!);
  return map;
}

export async function ingestObservations(
  pool: pg.Pool,
  run: IngestRun,
  observations: Observation[],
): Promise<IngestResult> {
  const { rows: runRows } = await pool.query<{ id: number }>(
    `insert into ingest_runs (seller_id, source, mode, observed_at, observations) values ($1, $2, $3, $4, $5) returning id`,
    [run.sellerId, run.source, run.mode, run.observedAt, observations.length],
  );
  const runId = runRows[0].id;
  try {
    const result = await withTransaction(pool, (client) => applyBatch(client, runId, run, observations));
    await pool.query(
      `update ingest_runs set status = 'succeeded', changes = $2, finished_at = now() where id = $1`,
      [runId, result.changes],
    );
    return result;
  } catch (err) {
    await pool
      .query(`update ingest_runs set status = 'failed', error = $2, finished_at = now() where id = $1`, [
        runId,
        String(err instanceof Error ? err.message : err).slice(0, 2000),
      ])
      .catch(() => {});
    throw err;
  }
}

async function applyBatch(
  client: pg.PoolClient,
  runId: number,
  run: IngestRun,
  observations: Observation[],
): Promise<IngestResult> {
  observations.forEach(validate);
  const seller = await client.query<{ currency: string }>('select currency from sellers where id = $1', [
    run.sellerId,
  ]);
  if (!seller.rowCount) throw new Error(`eCommerce ${run.sellerId} no existe`);
  const sellerCurrency = seller.rows[0].currency;
  // Intervals are built forward in time: an observation older than the seller's last one is refused.
  const last = await client.query<{ t: Date | null }>(
    `select max(observed_at) as t from ingest_runs where seller_id = $1 and status = 'succeeded'`,
    [run.sellerId],
  );
  const lastT = last.rows[0].t;
  if (lastT && run.observedAt < lastT) {
    throw new Error(
      `observación anterior a la última registrada del eCommerce ${run.sellerId} (${lastT.toISOString()})`,
    );
  }

  // Last observation of a product id wins within one batch.
  const byId = new Map<string, Observation>();
  for (const o of observations) byId.set(o.productId, o);
  const obs = [...byId.values()];

  const brandIds = await resolveBrands(client, obs.map((o) => o.brand ?? '').filter(Boolean));
  const categoryIds: (number | null)[] = [];
  for (const o of obs) {
    categoryIds.push(
      o.categoryPath?.length ? await resolveCategory(client, run.sellerId, o.categoryPath) : null,
    );
  }

  const col = <T>(f: (o: Observation, i: number) => T) => obs.map(f);
  await client.query(`create temp table obs (
      product_id text, sku text, ean text, name text, brand_id int, url text, image_url text,
      category_id int, classification_id int, normal_price numeric(14,2), sale_price numeric(14,2),
      exclusive_price numeric(14,2), byquantity_price numeric(14,2), byquantity_qty smallint,
      price_type text, stock_out boolean, currency text, effective_price numeric(14,2), pid bigint
    ) on commit drop`);
  await client.query(
    `insert into obs select * , null::bigint from unnest(
        $1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::int[], $9::int[],
        $10::numeric[], $11::numeric[], $12::numeric[], $13::numeric[], $14::smallint[], $15::text[],
        $16::boolean[], $17::text[], $18::numeric[])`,
    [
      col((o) => o.productId),
      col((o) => o.sku ?? null),
      col((o) => o.ean ?? null),
      col((o) => o.name ?? null),
      col((o) => (o.brand ? (brandIds.get(o.brand.trim()) ?? null) : null)),
      col((o) => o.url ?? null),
      col((o) => o.imageUrl ?? null),
      categoryIds,
      col((o) => o.classificationId ?? null),
      col((o) => o.normalPrice ?? null),
      col((o) => o.salePrice ?? null),
      col((o) => o.exclusivePrice ?? null),
      col((o) => o.byquantityPrice ?? null),
      col((o) => o.byquantityQty ?? null),
      col((o) => derivePriceType(o)),
      col((o) => o.stockOut ?? false),
      col((o) => (o.currency ?? sellerCurrency).toUpperCase()),
      col((o) => effectivePrice(o)),
    ],
  );

  const t = run.observedAt;
  const partial = run.mode === 'partial';
  // 1. Listings: insert new ones; update descriptive fields only where something differs (or it reappears).
  const upsert = await client.query<{ inserted: boolean }>(
    `insert into products as p (seller_id, product_id, sku, ean, name, brand_id, url, image_url, category_id,
                                classification_id, first_seen, last_seen, published)
     select $1, product_id, sku, ean, name, brand_id, url, image_url, category_id, classification_id, $2, $2, true
       from obs
     on conflict (seller_id, product_id) do update set
        sku = coalesce(excluded.sku, p.sku), ean = coalesce(excluded.ean, p.ean),
        name = coalesce(excluded.name, p.name), brand_id = coalesce(excluded.brand_id, p.brand_id),
        url = coalesce(excluded.url, p.url), image_url = coalesce(excluded.image_url, p.image_url),
        category_id = coalesce(excluded.category_id, p.category_id),
        classification_id = coalesce(excluded.classification_id, p.classification_id),
        published = true, unpublished_at = null,
        last_seen = case when $3 then excluded.last_seen else p.last_seen end
      where $3 or not p.published
         or (excluded.sku, excluded.ean, excluded.name, excluded.brand_id, excluded.url, excluded.image_url,
             excluded.category_id, excluded.classification_id)
            is distinct from
            (coalesce(excluded.sku, p.sku), coalesce(excluded.ean, p.ean), coalesce(excluded.name, p.name),
             coalesce(excluded.brand_id, p.brand_id), coalesce(excluded.url, p.url),
             coalesce(excluded.image_url, p.image_url), coalesce(excluded.category_id, p.category_id),
             coalesce(excluded.classification_id, p.classification_id))
     returning (xmax = 0) as inserted`,
    [run.sellerId, t, partial],
  );
  const newListings = upsert.rows.filter((r) => r.inserted).length;
  await client.query(
    `update obs o set pid = p.id from products p where p.seller_id = $1 and p.product_id = o.product_id`,
    [run.sellerId],
  );

  // 2–3. Changed observed state → close the open interval, open a new one, refresh the snapshot.
  await client.query(`create temp table changed on commit drop as
      select o.*, lc.effective_price as old_effective, (lc.product_id is null) as is_new
        from obs o left join listing_current lc on lc.product_id = o.pid
       where lc.product_id is null
          or (o.normal_price, o.sale_price, o.exclusive_price, o.byquantity_price, o.price_type, o.stock_out, o.currency)
             is distinct from
             (lc.normal_price, lc.sale_price, lc.exclusive_price, lc.byquantity_price, lc.price_type, lc.stock_out, lc.currency)`);
  const { rows: cnt } = await client.query<{ n: number }>('select count(*)::int as n from changed');
  const changes = cnt[0].n;
  if (changes > 0) {
    await client.query(
      `update price_intervals pi set valid_to = $1
         from changed c where pi.product_id = c.pid and pi.valid_to is null and pi.valid_from < $1`,
      [t],
    );
    await client.query(
      `insert into price_intervals (product_id, valid_from, normal_price, sale_price, exclusive_price,
                                    byquantity_price, byquantity_qty, price_type, stock_out, currency)
       select pid, $1, normal_price, sale_price, exclusive_price, byquantity_price, byquantity_qty, price_type,
              stock_out, currency
         from changed
       on conflict (product_id, valid_from) do update set
          normal_price = excluded.normal_price, sale_price = excluded.sale_price,
          exclusive_price = excluded.exclusive_price, byquantity_price = excluded.byquantity_price,
          byquantity_qty = excluded.byquantity_qty, price_type = excluded.price_type,
          stock_out = excluded.stock_out, currency = excluded.currency, valid_to = null`,
      [t],
    );
    // 4. Match by EAN for listings not yet in a live group.
    await client.query(
      `insert into match_groups (ean)
       select distinct c.ean from changed c
        where c.is_new and c.ean is not null
       on conflict (ean) where ean is not null do nothing`,
    );
    await client.query(
      `insert into match_members (group_id, product_id, method, confidence, status)
       select g.id, c.pid, 'ean', 1, 'confirmed'
         from changed c join match_groups g on g.ean = c.ean
        where c.is_new and c.ean is not null
       on conflict (product_id) where status <> 'rejected' do nothing`,
    );
    await client.query(
      `insert into listing_current as lc (product_id, seller_id, group_id, match_status, brand_id, classification_id,
              normal_price, sale_price, exclusive_price, byquantity_price, price_type, stock_out, currency,
              effective_price, previous_effective_price, price_changed_at, since)
       select c.pid, $2, mm.group_id, mm.status, p.brand_id, p.classification_id,
              c.normal_price, c.sale_price, c.exclusive_price, c.byquantity_price, c.price_type, c.stock_out, c.currency,
              c.effective_price, null, $1, $1
         from changed c
         join products p on p.id = c.pid
         left join match_members mm on mm.product_id = c.pid and mm.status <> 'rejected'
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
          since = excluded.since`,
      [t, run.sellerId],
    );
  }

  // 5. Full run: what the seller no longer shows is unpublished; its history stops here.
  let unpublished = 0;
  if (!partial) {
    const gone = await client.query(
      `update products p set published = false, unpublished_at = $2,
              last_seen = coalesce((select last_crawl_at from sellers where id = $1), p.last_seen)
        where p.seller_id = $1 and p.published
          and not exists (select 1 from obs o where o.pid = p.id)
       returning p.id`,
      [run.sellerId, t],
    );
    unpublished = gone.rowCount ?? 0;
    if (unpublished > 0) {
      await client.query(
        `update price_intervals set valid_to = $2 where product_id = any($1) and valid_to is null and valid_from < $2`,
        [gone.rows.map((r) => r.id), t],
      );
    }
    await client.query(
      'update sellers set last_crawl_at = greatest(coalesce(last_crawl_at, $2), $2) where id = $1',
      [run.sellerId, t],
    );
  }

  // 6. Roll-ups, same transaction.
  for (const r of rollupUpdaters) await r.fn(client, { sellerId: run.sellerId, observedAt: t, runId });

  return { runId, observations: obs.length, changes, newListings, unpublished };
}
