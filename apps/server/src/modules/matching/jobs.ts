import { z } from 'zod';
import type { Queryable } from '../../db/database.js';
import { defineJob, enqueue } from '../../platform/jobs/index.js';
import { runMatching, thresholdsOf } from './pipeline.js';

// Matching after data arrives (worker role): a feed import or a crawl queues 'match-seller' for the seller
// it changed; one job waits per seller ('short' policy keyed by the seller), so a burst of imports runs
// matching once. A seller's run is incremental (pipeline.ts, match_seller_state): it scores again only the
// listings in no group whose key, or whose brand's other listings or decisions, changed since its last run.
export const MATCH_SELLER_QUEUE = 'match-seller';
const payload = z.object({ sellerId: z.number().int().positive() });

export async function enqueueSellerMatching(db: Queryable, sellerId: number): Promise<void> {
  await enqueue(db, MATCH_SELLER_QUEUE, { sellerId }, { singletonKey: String(sellerId) });
}

defineJob({
  queue: MATCH_SELLER_QUEUE,
  payload,
  policy: 'short',
  maxAttempts: 3,
  handler: async ({ sellerId }, ctx) => {
    const r = await runMatching(ctx.pool, { sellerId, thresholds: thresholdsOf(ctx.config) });
    ctx.log.info({ sellerId, ...r }, 'seller matched');
  },
});
