import type pg from 'pg';
import type { IngestRun } from './observation.js';

/** Step "record": the run's record in ingest_runs, in the run's transaction. Returns its id. */
export async function recordRun(
  client: pg.PoolClient,
  run: IngestRun,
  observations: number,
  changes: number,
): Promise<number> {
  const t = run.observedAt;
  // (A failed run is recorded by recordFailedRun, after the rollback.)
  const { rows: runRows } = await client.query<{ id: number }>({
    name: 'ingest-run',
    text: `insert into ingest_runs (seller_id, source, mode, observed_at, observations, status, changes, started_at, finished_at)
     values ($1, $2, $3, $4, $5, 'succeeded', $6, now(), clock_timestamp()) returning id`,
    values: [run.sellerId, run.source, run.mode, t, observations, changes],
  });
  const runId = runRows[0].id;
  return runId;
}

/** A failed run is recorded after the rollback (and nothing else of it is kept); never throws. */
export async function recordFailedRun(
  pool: pg.Pool,
  run: IngestRun,
  observations: number,
  err: unknown,
): Promise<void> {
  await pool
    .query(
      `insert into ingest_runs (seller_id, source, mode, observed_at, observations, status, error, finished_at)
         values ((select id from sellers where id = $1::int), $2, $3, $4, $5, 'failed', $6, now())`,
      [
        run.sellerId,
        run.source,
        run.mode,
        run.observedAt,
        observations,
        String(err instanceof Error ? err.message : err).slice(0, 2000),
      ],
    )
    .catch(() => {});
}
