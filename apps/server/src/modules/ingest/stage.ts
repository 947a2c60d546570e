import type pg from 'pg';
import type { Candidate } from './diff.js';
import { resolveBrands, resolveCategory } from './dimensions.js';
import { effectivePrice, type Observation } from './observation.js';

/**
 * The run's differing observations are staged in the temporary table `obs`, created once per database
 * connection and emptied at every commit (on commit delete rows): creating and dropping a table in every
 * run would write and delete its catalogue rows each time (and make every other connection drop its
 * cached plans and catalogue entries).
 */
const obsReady = new WeakSet<pg.PoolClient>();
export async function ensureObsTable(client: pg.PoolClient): Promise<void> {
  if (obsReady.has(client)) return;
  // Outside the run's transaction, so that a run that fails does not take the table with it.
  await client.query(
    `create temp table if not exists obs (
       product_id text not null, sku text, ean text, name text, brand_id int, url text, image_url text,
       category_id int, classification_id int, normal_price numeric(14,2), sale_price numeric(14,2),
       exclusive_price numeric(14,2), byquantity_price numeric(14,2), byquantity_qty smallint, price_type text,
       stock_out boolean, currency text, effective_price numeric(14,2), pid bigint, was_published boolean,
       descr_changed boolean, ph bigint, dh bigint, described boolean, is_new boolean not null default false
     ) on commit delete rows`,
  );
  obsReady.add(client);
}

/** Category ids known to the pool (cache) and those created by the current run (pending until commit). */
export interface CategoryIds {
  cache: Map<string, number>;
  pending: Map<string, number>;
}

/**
 * Step "stage": the candidates go into the temporary table `obs` (one statement), with the ids of
 * their brand and seller category (resolved, and created when missing, for the described ones). Returns
 * which candidates are described.
 */
export async function stageCandidates(
  client: pg.PoolClient,
  categories: CategoryIds,
  sellerId: number,
  cand: Candidate[],
): Promise<boolean[]> {
  const obs = cand.map((c) => c.o);
  // Only new, re-published or re-described listings ("described": staged as such, the statements below
  // write their description) need their brand and seller category resolved.
  const described = cand.map((c) => c.pid === null || c.descr_changed || !c.published);
  const anyDescribed = described.some(Boolean);
  const brandIds = anyDescribed
    ? await resolveBrands(
        client,
        obs.filter((_, i) => described[i]).map((o) => o.brand ?? ''),
      )
    : new Map<string, number>();
  const categoryIds: (number | null)[] = [];
  for (let i = 0; i < obs.length; i++) {
    const path = obs[i].categoryPath;
    categoryIds.push(
      described[i] && path?.length
        ? await resolveCategory(client, categories.cache, categories.pending, sellerId, path)
        : null,
    );
  }
  const col = <T>(f: (o: Observation, i: number) => T) => obs.map(f);
  // Descriptive fields are read only for the listings whose description is written (the others are
  // sent as nulls: nothing to serialise).
  const dcol = <T>(f: (o: Observation) => T) => obs.map((o, i) => (described[i] ? f(o) : null));
  await client.query({
    name: 'ingest-obs',
    text: `insert into obs (product_id, sku, ean, name, brand_id, url, image_url, category_id, classification_id,
                        normal_price, sale_price, exclusive_price, byquantity_price, byquantity_qty, price_type,
                        stock_out, currency, effective_price, pid, was_published, descr_changed, ph, dh, described)
       select * from unnest(
          $1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::int[], $9::int[],
          $10::numeric(14,2)[], $11::numeric(14,2)[], $12::numeric(14,2)[], $13::numeric(14,2)[], $14::smallint[],
          $15::text[], $16::boolean[], $17::text[], $18::numeric(14,2)[], $19::bigint[], $20::boolean[],
          $21::boolean[], $22::bigint[], $23::bigint[], $24::boolean[])
         as t(product_id, sku, ean, name, brand_id, url, image_url, category_id, classification_id, normal_price,
              sale_price, exclusive_price, byquantity_price, byquantity_qty, price_type, stock_out, currency,
              effective_price, pid, was_published, descr_changed, ph, dh, described)`,
    values: [
      col((o) => o.productId),
      dcol((o) => o.sku ?? null),
      dcol((o) => o.ean ?? null),
      dcol((o) => o.name ?? null),
      col((o) => (o.brand ? (brandIds.get(o.brand.trim()) ?? null) : null)),
      dcol((o) => o.url ?? null),
      dcol((o) => o.imageUrl ?? null),
      categoryIds,
      dcol((o) => o.classificationId ?? null),
      col((o) => o.normalPrice ?? null),
      col((o) => o.salePrice ?? null),
      col((o) => o.exclusivePrice ?? null),
      col((o) => o.byquantityPrice ?? null),
      col((o) => o.byquantityQty ?? null),
      cand.map((c) => c.type),
      col((o) => o.stockOut ?? false),
      cand.map((c) => c.currency),
      col((o) => effectivePrice(o)),
      cand.map((c) => c.pid),
      cand.map((c) => c.pid === null || c.published),
      cand.map((c) => c.descr_changed),
      cand.map((c) => c.ph),
      cand.map((c) => c.dh),
      described,
    ],
  });
  // No ANALYZE: the planner sizes the temp table from its pages, which is close enough here, and
  // with random_page_cost 1.1 it probes indexes for a few rows instead of scanning whole tables.
  return described;
}
