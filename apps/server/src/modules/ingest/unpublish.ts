import type pg from 'pg';
import type { IngestRun } from './observation.js';

/**
 * Step "unpublish" (full run): what the seller no longer shows is unpublished; its history stops here.
 * Returns the seller's ids (product_id) of the listings it unpublished.
 */
export async function unpublishMissing(
  client: pg.PoolClient,
  run: IngestRun,
  missing: number[],
  prevCrawl: Date | null,
): Promise<string[]> {
  const t = run.observedAt;
  let goneIds: string[] = [];
  if (missing.length) {
    const { rows: gone } = await client.query<{ id: number; product_id: string }>({
      text: `update products p set published = false, unpublished_at = $2, last_seen = coalesce($4::timestamptz, p.last_seen)
        where p.seller_id = $1 and p.published and p.id = any($3::bigint[])
       returning p.id, p.product_id`,
      values: [run.sellerId, t, missing, prevCrawl],
    });
    goneIds = gone.map((r) => r.product_id);
    await client.query({
      text: `with closed as (
         update price_intervals set valid_to = $2
          where product_id = any($1) and valid_to is null and valid_from < $2
         returning 1
       )
       update listing_current set published = false where product_id = any($1)`,
      values: [missing, t],
    });
  }
  return goneIds;
}
