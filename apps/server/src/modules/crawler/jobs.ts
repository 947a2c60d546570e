import { z } from 'zod';
import type { Queryable } from '../../db/database.js';
import { defineJob, enqueue, type JobEmit } from '../../platform/jobs/index.js';
import { registerRunQueuer } from '../feeds/index.js';
import { type CrawlHooks, executeCrawlRun } from './run.js';

// The crawl job, declared in one place: its queue, payload schema, handler and registration.
//   'crawl' { runId } → executeCrawlRun: plans the run's pages once, then fetches, reads and lands them in
//                       batches; a retried job (a killed worker) resumes from the pages still planned.

export const CRAWL_QUEUE = 'crawl';
export const crawlPayload = z.object({ runId: z.number().int().positive() });

export async function enqueueCrawl(db: Queryable, runId: number): Promise<void> {
  await enqueue(db, CRAWL_QUEUE, { runId } satisfies z.infer<typeof crawlPayload>, { maxAttempts: 5 });
}

/** Live progress on the exporter channel (the same 'import:progress' event as feed imports), and the
 * administrators told once when a seller's pages stop giving products. */
export function crawlHooks(emit: JobEmit | null, pool: Queryable): CrawlHooks {
  return {
    onProgress: (run, c) => {
      if (!emit || !run.requested_by) return;
      emit(run.requested_by, 'import:progress', {
        run_id: Number(run.id),
        source_id: run.source_id,
        status: c.status,
        rows_read: c.unchanged + c.extracted + c.rejected + c.failed,
        rows_written: c.extracted + c.unchanged,
        rows_rejected: c.rejected + c.failed,
        error: c.error,
      });
    },
    onBroken: async (run, d) => {
      await pool.query(
        `insert into notifications (user_id, namespace, kind, title, body, link, seller_id, payload)
         select u.id, 'prices', 'crawl_broken', $2, $3, '/app/operations', $4, jsonb_build_object('run_id', $5::bigint)
           from users u where u.org_id = $1 and u.is_admin and u.is_active`,
        [
          run.org_id,
          `${d.sellerName}: el rastreo dejó de leer productos`,
          `Ninguna de ${d.pages} páginas que antes tenían datos de producto los tuvo en el último rastreo (¿rediseño o bloqueo del sitio?). Sus precios no se actualizaron.`,
          run.seller_id,
          run.id,
        ],
      );
    },
  };
}

defineJob({
  queue: CRAWL_QUEUE,
  payload: crawlPayload,
  maxAttempts: 5,
  // a crawl is long and polite: it takes few resources, but one at a time per worker keeps hosts calm
  concurrency: 1,
  handler: async ({ runId }, ctx) => {
    await executeCrawlRun({ pool: ctx.pool, config: ctx.config }, runId, crawlHooks(ctx.emit, ctx.pool));
  },
});
// Runs of crawl sources (manual, scheduled) are queued here.
registerRunQueuer('crawl', enqueueCrawl);
