import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/database.js';
import { emitToUser } from '../../platform/exporter/index.js';
import { enqueue, registerJobHandler } from '../../platform/jobs/index.js';
import { executeRun, type RunHooks } from './import.js';

// The feed import job, declared in one place: its queue, payload schema, handler and registration
// (the platform issue moves jobs to their own roles; this file is what it converts).
//
//   'feed-import' { runId }  → executeRun: streams the source into one ingest transaction. A feed that
//                              fails as a whole is recorded as failed (not retried); another error (the
//                              database, a killed worker whose lease expired) retries the job, and the run
//                              starts again from the beginning — nothing of the interrupted attempt landed.

export const FEED_IMPORT_QUEUE = 'feed-import';
export const feedImportPayload = z.object({ runId: z.number().int().positive() });
export type FeedImportPayload = z.infer<typeof feedImportPayload>;

/** Queues the import of a run (inside the caller's transaction when `db` is its client). */
export async function enqueueFeedImport(db: Queryable, runId: number): Promise<void> {
  await enqueue(db, FEED_IMPORT_QUEUE, { runId } satisfies FeedImportPayload, { maxAttempts: 3 });
}

// Job handlers get the config, not the app; progress goes through the app's exporter channel.
const apps = new WeakMap<Config, FastifyInstance>();
export function attachFeedsApp(app: FastifyInstance): void {
  apps.set(app.deps.config, app);
}

/** Live progress to the user who asked for the run (exporter channel, event 'import:progress'). */
export function progressHooks(config: Config): RunHooks {
  return {
    onProgress: (run, p) => {
      const app = apps.get(config);
      if (!app || !run.requested_by) return;
      emitToUser(app, run.requested_by, 'import:progress', {
        run_id: Number(run.id),
        source_id: run.source_id,
        status: p.status,
        rows_read: p.rowsRead,
        rows_written: p.rowsWritten,
        rows_rejected: p.rowsRejected,
        error: p.error,
      });
    },
  };
}

export function registerFeedJobs(): void {
  registerJobHandler<unknown>(FEED_IMPORT_QUEUE, async (payload, ctx) => {
    const { runId } = feedImportPayload.parse(payload);
    await executeRun({ pool: ctx.pool, config: ctx.config }, runId, progressHooks(ctx.config));
  });
}
