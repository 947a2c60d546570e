import type { Queryable } from '../../db/database.js';

// Bookkeeping of import runs (import_runs) shared by the two kinds of source that run as worker jobs: a
// feed import (import.ts) and a crawl (crawler/run.ts).

export interface StartedRun {
  id: number;
  org_id: number;
  source_id: number | null;
  seller_id: number;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  requested_by: number | null;
  attempts: number;
}

/**
 * Marks a queued run — or one still 'running' because the worker of its last attempt was killed — as
 * running one more attempt; null when it is done already (a job delivered twice). `resume`: the run goes
 * on from where its last attempt stopped (a crawl: its start and counts are kept); otherwise it starts
 * again from nothing (a feed: nothing of an interrupted attempt landed).
 */
export async function startRun(
  db: Queryable,
  runId: number,
  kind: 'feed' | 'crawl',
  resume: boolean,
): Promise<StartedRun | null> {
  const { rows } = await db.query<StartedRun>(
    `update import_runs set status = 'running', attempts = attempts + 1, finished_at = null, error = null,
            ${resume ? 'started_at = coalesce(started_at, now())' : 'started_at = now(), rows_read = 0, rows_written = 0, rows_changed = 0, rows_rejected = 0, unpublished = 0'}
      where id = $1 and status in ('queued', 'running') and source_kind = $2
     returning id, org_id, source_id, seller_id, status, requested_by, attempts`,
    [runId, kind],
  );
  return rows[0] ?? null;
}

/**
 * After an error that is not the source's (the database, a lost connection): the run goes back to the
 * queue with its error, and the caller rethrows so that the job is retried. Never throws.
 */
export async function requeueRun(db: Queryable, runId: number, err: unknown): Promise<void> {
  await db
    .query(`update import_runs set status = 'queued', error = $2 where id = $1`, [
      runId,
      String((err as Error)?.message ?? err).slice(0, 2_000),
    ])
    .catch(() => {});
}
