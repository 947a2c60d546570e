import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/database.js';
import { emitToUser } from '../../platform/exporter/index.js';
import { enqueue, registerJobHandler } from '../../platform/jobs/index.js';
import { type CrawlHooks, executeCrawlRun } from './run.js';

// The crawl job, declared in one place: its queue, payload schema, handler and registration.
//   'crawl' { runId } → executeCrawlRun: plans the run's pages once, then fetches, reads and lands them in
//                       batches; a retried job (a killed worker) resumes from the pages still planned.

export const CRAWL_QUEUE = 'crawl';
export const crawlPayload = z.object({ runId: z.number().int().positive() });

export async function enqueueCrawl(db: Queryable, runId: number): Promise<void> {
  await enqueue(db, CRAWL_QUEUE, { runId } satisfies z.infer<typeof crawlPayload>, { maxAttempts: 5 });
}

const apps = new WeakMap<Config, FastifyInstance>();
export function attachCrawlerApp(app: FastifyInstance): void {
  apps.set(app.deps.config, app);
}

/** Live progress on the exporter channel (the same 'import:progress' event as feed imports), and the
 * administrators told once when a seller's pages stop giving products. */
export function crawlHooks(config: Config, pool: Queryable): CrawlHooks {
  return {
    onProgress: (run, c) => {
      const app = apps.get(config);
      if (!app || !run.requested_by) return;
      emitToUser(app, run.requested_by, 'import:progress', {
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

export function registerCrawlJobs(): void {
  registerJobHandler<unknown>(CRAWL_QUEUE, async (payload, ctx) => {
    const { runId } = crawlPayload.parse(payload);
    await executeCrawlRun({ pool: ctx.pool, config: ctx.config }, runId, crawlHooks(ctx.config, ctx.pool));
  });
}
