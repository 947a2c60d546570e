import { type IngestResponse, ingestRow } from '@vigia/domain';
import type pg from 'pg';
import { ingestObservations, type Observation } from '../ingest/index.js';
import { insertRejections, type Rejection, sellerTermsOf } from './import.js';
import { rowToObservation } from './row.js';

// Rows pushed by a machine (POST /v1/ingest/observations): the same fields and rules as a feed row, one
// partial ingest run per request (what is not sent is left as it is), recorded as an import run of kind
// 'api' with its rejections; the answer says what happened to each row.

export async function ingestPushedRows(
  pool: pg.Pool,
  orgId: number,
  sellerId: number,
  rows: readonly unknown[],
): Promise<IngestResponse> {
  const terms = await sellerTermsOf(pool, sellerId);
  if (!terms) throw new Error(`seller ${sellerId} does not exist`);
  const now = new Date();
  const results: IngestResponse['results'] = [];
  const byId = new Map<string, Observation>();
  const rejections: Rejection[] = [];
  rows.forEach((raw, i) => {
    const line = i + 1;
    const parsed = ingestRow.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const reason = `campo ${issue?.path.join('.') || '?'}: ${issue?.message ?? 'no válido'}`;
      const id =
        typeof (raw as { id?: unknown })?.id === 'string'
          ? String((raw as { id: string }).id).slice(0, 200)
          : null;
      rejections.push({ line, productId: id, reason });
      results.push({ line, id, status: 'rejected', reason });
      return;
    }
    const r = rowToObservation(parsed.data, terms, now);
    if (!r.ok) {
      rejections.push({ line, productId: r.id, reason: r.reason });
      results.push({ line, id: r.id, status: 'rejected', reason: r.reason });
    } else if (byId.has(r.obs.productId)) {
      const reason = 'id repetido en el lote';
      rejections.push({ line, productId: r.obs.productId, reason });
      results.push({ line, id: r.obs.productId, status: 'rejected', reason });
    } else {
      byId.set(r.obs.productId, r.obs);
      results.push({ line, id: r.obs.productId, status: 'accepted', reason: null });
    }
  });
  const accepted = byId.size;
  const { rows: created } = await pool.query<{ id: string }>(
    `insert into import_runs (org_id, source_kind, seller_id, trigger, status, attempts, started_at, rows_read, rows_rejected)
     values ($1, 'api', $2, 'api', 'running', 1, $3, $4, $5) returning id`,
    [orgId, sellerId, now, rows.length, rejections.length],
  );
  const runId = Number(created[0].id);
  let changed = 0;
  let ingestRunId: number | null = null;
  let error: string | null = accepted ? null : 'ninguna fila válida';
  if (accepted) {
    try {
      const res = await ingestObservations(
        pool,
        { sellerId, source: 'feed', mode: 'partial', observedAt: now },
        [...byId.values()],
      );
      changed = res.changes;
      ingestRunId = res.runId;
    } catch (err) {
      error = (err as Error).message.slice(0, 2000);
    }
  }
  await insertRejections(pool, runId, rejections);
  await pool.query(
    `update import_runs set status = $2, finished_at = clock_timestamp(), rows_written = $3, rows_changed = $4,
            ingest_run_id = $5, error = $6 where id = $1`,
    [runId, error ? 'failed' : 'succeeded', error ? 0 : accepted, changed, ingestRunId, error],
  );
  if (error && accepted) throw new Error(error);
  return {
    run_id: runId,
    accepted: error ? 0 : accepted,
    rejected: rejections.length,
    changed,
    results,
  };
}
