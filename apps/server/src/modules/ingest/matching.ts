import { foldText } from '@vigia/domain';
import type pg from 'pg';
import { withTransaction } from '../../db/database.js';
import { notFound } from '../../lib/errors.js';
import { bumpChanges } from '../../platform/change-signal.js';
import { matchChangeHooks } from './registry.js';

// Matching beyond EAN equality (PRODUCT.md "match"): a published listing without EAN and without a live
// match group is suggested into the match group whose listings (of other sellers, same brand and same
// classification, confirmed members) have the most similar title. A person confirms or rejects it.
//
// Similarity: pg_trgm's similarity() when the extension is installed (migrations/012_pg_trgm.sql),
// otherwise the Jaccard index of the titles' normalised word sets, computed here. Suggestions need a
// similarity ≥ minSimilarity (default 0.5); confidence maps [minSimilarity, 1] linearly onto [0.7, 0.95].
// A group that already has a live listing of the same seller, or that the listing was rejected from,
// is never suggested. listing_current.group_id / match_status follow every change.

export interface SuggestOptions {
  /** Only listings of this seller (default: all). */
  sellerId?: number;
  minSimilarity?: number;
  /** Force a method (tests); default: trigram when pg_trgm is installed, else Jaccard. */
  method?: 'trgm' | 'jaccard';
}

export interface SuggestResult {
  suggested: number;
  method: 'trgm' | 'jaccard';
}

const MIN_CONFIDENCE = 0.7;
const MAX_CONFIDENCE = 0.95;

/** Confidence of a suggestion from its similarity (see above). */
export function confidenceOf(similarity: number, minSimilarity: number): number {
  const c =
    MIN_CONFIDENCE + ((MAX_CONFIDENCE - MIN_CONFIDENCE) * (similarity - minSimilarity)) / (1 - minSimilarity);
  return Math.round(Math.min(MAX_CONFIDENCE, Math.max(MIN_CONFIDENCE, c)) * 1000) / 1000;
}

/**
 * Words of a title, folded as every search folds (domain foldText: lower case, accents off); "1kg" →
 * "1", "kg"; "1,5" stays one word.
 */
export function titleTokens(title: string): Set<string> {
  const norm = foldText(title)
    .replace(/(\d)([a-z])/g, '$1 $2')
    .replace(/([a-z])(\d)/g, '$1 $2');
  return new Set(norm.split(/[^a-z0-9,]+/).filter((w) => w && w !== ','));
}

/** Jaccard index |A ∩ B| / |A ∪ B| of two titles' word sets. */
export function tokenJaccard(a: string, b: string): number {
  const ta = titleTokens(a);
  const tb = titleTokens(b);
  if (!ta.size && !tb.size) return 0;
  let inter = 0;
  for (const w of ta) if (tb.has(w)) inter++;
  return inter / (ta.size + tb.size - inter);
}

export async function hasTrigram(db: pg.Pool | pg.PoolClient): Promise<boolean> {
  const { rowCount } = await db.query(`select 1 from pg_extension where extname = 'pg_trgm'`);
  return (rowCount ?? 0) > 0;
}

/** Listings that may be suggested, and the groups they may join (filters shared by both methods). */
const CANDIDATES = `
  cand as (
    select p.id, p.seller_id, p.name, p.brand_id, p.classification_id
      from products p
     where p.ean is null and p.published and p.name is not null and p.brand_id is not null
       and ($1::int is null or p.seller_id = $1)
       and not exists (select 1 from match_members m where m.product_id = p.id and m.status <> 'rejected')
  ),
  pairs as (
    -- distinct: sellers that write names alike give one comparison, not one per seller
    select distinct c.id as product_id, c.name, m.group_id, o.name as other_name
      from cand c
      join products o on o.brand_id = c.brand_id and o.classification_id is not distinct from c.classification_id
                     and o.seller_id <> c.seller_id and o.published and o.name is not null
      join match_members m on m.product_id = o.id and m.status = 'confirmed'
     where not exists (select 1 from match_members r
                        where r.product_id = c.id and r.group_id = m.group_id and r.status = 'rejected')
       and not exists (select 1 from match_members s join products ps on ps.id = s.product_id
                        where s.group_id = m.group_id and s.status <> 'rejected' and ps.seller_id = c.seller_id)
  )`;

/** Suggests title matches for listings without EAN; returns how many were suggested. */
export async function suggestTitleMatches(pool: pg.Pool, opts: SuggestOptions = {}): Promise<SuggestResult> {
  const min = opts.minSimilarity ?? 0.5;
  const method = opts.method ?? ((await hasTrigram(pool)) ? 'trgm' : 'jaccard');
  return withTransaction(pool, async (client) => {
    let best: { product_id: number; group_id: number; sim: number }[];
    if (method === 'trgm') {
      ({ rows: best } = await client.query(
        `with ${CANDIDATES},
         scored as (
           select product_id, group_id, max(similarity(name, other_name)) as sim from pairs group by product_id, group_id
         )
         select distinct on (product_id) product_id, group_id, sim::float8 as sim
           from scored where sim >= $2
          order by product_id, sim desc, group_id`,
        [opts.sellerId ?? null, min],
      ));
    } else {
      const { rows } = await client.query<{
        product_id: number;
        name: string;
        group_id: number;
        other_name: string;
      }>(
        `with ${CANDIDATES} select product_id, name, group_id, other_name from pairs order by product_id, group_id`,
        [opts.sellerId ?? null],
      );
      const top = new Map<number, { product_id: number; group_id: number; sim: number }>();
      for (const r of rows) {
        const sim = tokenJaccard(r.name, r.other_name);
        const cur = top.get(r.product_id);
        if (sim >= min && (!cur || sim > cur.sim))
          top.set(r.product_id, { product_id: r.product_id, group_id: r.group_id, sim });
      }
      best = [...top.values()];
    }
    if (!best.length) return { suggested: 0, method };
    const { rows: inserted } = await client.query<{ product_id: number }>(
      `insert into match_members (group_id, product_id, method, confidence, status)
       select g, p, 'title', c, 'suggested' from unnest($1::bigint[], $2::bigint[], $3::real[]) as t(g, p, c)
        order by p
       on conflict do nothing
       returning product_id`,
      [best.map((b) => b.group_id), best.map((b) => b.product_id), best.map((b) => confidenceOf(b.sim, min))],
    );
    const suggested = inserted.map((r) => r.product_id);
    await syncListingCurrent(client, suggested);
    await bumpChanges(client, suggested, 'matches', 'listings');
    return { suggested: inserted.length, method };
  });
}

/** listing_current.group_id / match_status of the listings from their live match membership. */
async function syncListingCurrent(db: pg.PoolClient, productIds: number[]): Promise<void> {
  if (!productIds.length) return;
  await db.query(
    `update listing_current lc set group_id = mm.group_id, match_status = mm.status
       from (select p.id, m.group_id, m.status
               from unnest($1::bigint[]) as p(id)
               left join match_members m on m.product_id = p.id and m.status <> 'rejected') mm
      where lc.product_id = mm.id
        and (lc.group_id, lc.match_status) is distinct from (mm.group_id, mm.status)`,
    [productIds],
  );
}

async function decide(
  pool: pg.Pool,
  groupId: number,
  productId: number,
  userId: number,
  status: 'confirmed' | 'rejected',
): Promise<void> {
  await withTransaction(pool, async (client) => {
    const { rowCount } = await client.query(
      `update match_members set status = $3, decided_by = $4, decided_at = now()
        where group_id = $1 and product_id = $2 and status <> $3`,
      [groupId, productId, status, userId],
    );
    if (!rowCount) {
      const exists = await client.query(
        'select 1 from match_members where group_id = $1 and product_id = $2',
        [groupId, productId],
      );
      if (!exists.rowCount) throw notFound('No existe esa sugerencia de emparejamiento.');
      return; // already decided that way
    }
    await syncListingCurrent(client, [productId]);
    // Every process's read models learn of the decision when it commits (platform/change-signal.ts).
    await bumpChanges(client, [productId], 'matches', 'listings');
    // What features derive from match groups follows (e.g. the pricing read model: pricing/rollup.ts
    // subscribes with registerMatchChangeHook).
    for (const h of matchChangeHooks) await h.fn(client, [productId]);
  });
}

/** A person confirms a suggested (or rejected) match: the listing joins the group as confirmed. */
export function confirmMatch(
  pool: pg.Pool,
  groupId: number,
  productId: number,
  userId: number,
): Promise<void> {
  return decide(pool, groupId, productId, userId, 'confirmed');
}

/** A person rejects a match: the listing leaves the group and is never suggested into it again. */
export function rejectMatch(
  pool: pg.Pool,
  groupId: number,
  productId: number,
  userId: number,
): Promise<void> {
  return decide(pool, groupId, productId, userId, 'rejected');
}
