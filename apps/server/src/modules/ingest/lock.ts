import type pg from 'pg';
import type { IngestRun } from './observation.js';

/** What the lock step learns about the seller (values from before this run). */
export interface LockedSeller {
  sellerCurrency: string;
  seq: number;
  epoch: number;
  /** sellers.last_crawl_at before this run. */
  prevCrawl: Date | null;
  /** The seller's last succeeded run (null: none). */
  lastT: Date | null;
}

/**
 * Step "lock": takes the seller's row lock, which serialises runs of one seller (runs of different
 * sellers proceed in parallel). Refuses an unknown seller and a run older than its last one.
 */
export async function lockSeller(client: pg.PoolClient, run: IngestRun): Promise<LockedSeller> {
  const t = run.observedAt;
  const partial = run.mode === 'partial';
  // The seller's row lock serialises runs of one seller (runs of different sellers proceed in parallel);
  // ingest_seq is bumped and a full run stamps last_crawl_at, returning the values from before. The lock
  // is FOR NO KEY UPDATE, what the update itself takes (no key column changes): FOR UPDATE also blocked
  // the key-share lock of a foreign key to the seller — a pivot's first pricing build inserting its
  // pricing_pivots row under the pricing lock (pricing/maintain.ts) then waited for this run while the
  // run's pricing roll-up waited for that lock: a deadlock (CI, matching/routes.test.ts, 2026-11-29).
  // Runs of one seller still exclude each other, and the zone rebuilds' FOR UPDATE excludes them.
  const seller = await client.query<{
    currency: string;
    seq: number;
    epoch: number;
    prev_crawl: Date | null;
    last: Date | null;
  }>({
    name: 'ingest-seller',
    text: `update sellers s set ingest_seq = o.ingest_seq + 1,
            last_crawl_at = case when $3 then o.last_crawl_at else greatest(coalesce(o.last_crawl_at, $2), $2) end
       from (select id, ingest_seq, last_crawl_at from sellers where id = $1 for no key update) o
      where s.id = o.id
     returning s.currency, o.ingest_seq as seq, extract(epoch from s.created_at)::float8 as epoch,
               o.last_crawl_at as prev_crawl,
               (select max(r.observed_at) from ingest_runs r where r.seller_id = s.id and r.status = 'succeeded') as last`,
    values: [run.sellerId, t, partial],
  });
  if (!seller.rowCount) throw new Error(`eCommerce ${run.sellerId} no existe`);
  const { currency: sellerCurrency, seq, epoch, prev_crawl: prevCrawl, last: lastT } = seller.rows[0];
  // Intervals are built forward in time: an observation older than the seller's last one is refused.
  if (lastT && t < lastT) {
    throw new Error(
      `observación anterior a la última registrada del eCommerce ${run.sellerId} (${lastT.toISOString()})`,
    );
  }
  return { sellerCurrency, seq, epoch, prevCrawl, lastT };
}
