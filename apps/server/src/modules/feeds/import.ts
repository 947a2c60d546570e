import { createReadStream, existsSync } from 'node:fs';
import type { FeedEncoding, FeedFormat, FeedMapping } from '@vigia/domain';
import type pg from 'pg';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/database.js';
import { FetchError, safeFetch } from '../../platform/http/index.js';
import { ingestObservations, type Observation } from '../ingest/index.js';
import { enqueueSellerMatching } from '../matching/index.js';
import { FeedError, type FeedItem, parseFeed } from './parse.js';
import { rowToObservation, type SellerTerms } from './row.js';
import { requeueRun, type StartedRun, startRun } from './runs.js';

// One import run, start to end: open the source (an uploaded file, or a URL through the safe fetcher with
// the validators of the last good download), stream-parse it, turn each row into an observation or a
// rejection, and hand the observations to ingestObservations in parts of PART_ROWS as they are read —
// ONE transaction for the whole feed, so a run either lands whole or not at all (a feed that turns out
// broken half-way, or a worker killed mid-import, leaves nothing; the retried job does the run again).
// Memory stays flat: the feed's bytes are never held, a part's observations are let go once ingest has
// staged them, and only the ids seen (repeated ids are rejected) and the kept rejections accumulate.

/** Rejections stored per run (all are counted; the first ones are kept with their line and reason). */
export const MAX_STORED_REJECTIONS = 10_000;
/** How often progress is written and sent (ms). */
const PROGRESS_EVERY_MS = 500;

export interface Rejection {
  line: number;
  productId: string | null;
  reason: string;
}

/** Observations per part handed to ingest (bounded memory; large enough that per-part costs do not add up). */
export const PART_ROWS = 5_000;

/** What reading a feed found so far (updated as the parts are read). */
export interface ReadCounts {
  rowsRead: number;
  rejected: number;
  /** Valid rows handed over (observations). */
  valid: number;
  /** The first MAX_STORED_REJECTIONS rejections. */
  rejections: Rejection[];
}

export const newReadCounts = (): ReadCounts => ({ rowsRead: 0, rejected: 0, valid: 0, rejections: [] });

export interface Progress {
  rowsRead: number;
  rowsWritten: number;
  rowsRejected: number;
}

/** The seller's currency and the decimals of every currency (for exact price parsing). */
export async function sellerTermsOf(db: Queryable, sellerId: number): Promise<SellerTerms | null> {
  const { rows } = await db.query<{ currency: string; decimals: Record<string, number> }>(
    `select s.currency, (select jsonb_object_agg(acronym, decimals) from currencies) as decimals
       from sellers s where s.id = $1`,
    [sellerId],
  );
  if (!rows[0]) return null;
  return { currency: rows[0].currency, decimals: new Map(Object.entries(rows[0].decimals ?? {})) };
}

/**
 * Parsed feed items → parts of at most PART_ROWS observations (one per id: a repeated id is rejected),
 * counting rows and keeping rejections in `counts`; `onRow` is called after each item (progress). A feed
 * without a valid row throws a FeedError once it is read to its end (the run changes nothing).
 */
export async function* readParts(
  items: AsyncIterable<FeedItem>,
  terms: SellerTerms,
  now: Date,
  counts: ReadCounts,
  onRow?: (c: ReadCounts) => void,
): AsyncGenerator<Observation[]> {
  const seen = new Set<string>();
  let part: Observation[] = [];
  const reject = (line: number, productId: string | null, reason: string) => {
    counts.rejected++;
    if (counts.rejections.length < MAX_STORED_REJECTIONS) counts.rejections.push({ line, productId, reason });
  };
  for await (const it of items) {
    if (it.kind === 'columns') continue;
    counts.rowsRead++;
    if (it.kind === 'error') reject(it.line, null, it.error);
    else {
      const r = rowToObservation(it.row, terms, now);
      if (!r.ok) reject(it.line, r.id, r.reason);
      else if (seen.has(r.obs.productId)) reject(it.line, r.obs.productId, 'id repetido en el feed');
      else {
        seen.add(r.obs.productId);
        part.push(r.obs);
        counts.valid++;
      }
    }
    onRow?.(counts);
    if (part.length >= PART_ROWS) {
      yield part;
      part = [];
    }
  }
  if (part.length) yield part;
  if (!counts.valid)
    throw new FeedError(
      counts.rowsRead ? `ninguna fila válida (${counts.rejected} rechazadas)` : 'el feed no tiene filas',
    );
}

export type RunRow = StartedRun;

/** What an import run reads of the server's configuration (structured-cloned into its thread). */
export type ImportConfig = Pick<Config, 'FETCH_ALLOW_PRIVATE' | 'FEED_MAX_BYTES'>;

interface SourceRow {
  id: number;
  seller_id: number;
  origin: 'upload' | 'url';
  url: string | null;
  format: FeedFormat;
  encoding: FeedEncoding;
  mapping: FeedMapping;
  mode: 'full' | 'delta';
  file_path: string | null;
  etag: string | null;
  last_modified: string | null;
}

export interface RunHooks {
  onProgress?: (run: RunRow, p: Progress & { status: RunRow['status']; error: string | null }) => void;
  /**
   * Told how long each step of the ingest took (IngestOptions.onStep: the bench's profile); run in the
   * imports pool's thread (import-pool.ts), also that thread's heap in use at the step's end (bytes).
   */
  onStep?: (step: string, ms: number, threadHeapUsed?: number) => void;
}

/** Creates a queued run of a source (the caller enqueues its job in the same transaction). */
export async function createRun(
  db: Queryable,
  source: { id: number; org_id: number; seller_id: number; kind: 'feed' | 'crawl' },
  trigger: 'manual' | 'schedule' | 'cli',
  requestedBy: number | null,
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into import_runs (org_id, source_id, source_kind, seller_id, trigger, requested_by)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [source.org_id, source.id, source.kind, source.seller_id, trigger, requestedBy],
  );
  return Number(rows[0].id);
}

/** Whether an error fails the feed as a whole (recorded, not retried) rather than the attempt. */
const isFeedFailure = (err: unknown) => err instanceof FeedError || err instanceof FetchError;

/**
 * Runs (or runs again, after a killed worker) one import run. A feed that fails as a whole (unreachable,
 * not XML, wrong encoding, too large, no valid rows) is recorded as failed with its reason and changes
 * nothing; any other error puts the run back in the queue and is rethrown (the job is retried).
 */
export async function executeRun(
  deps: { pool: pg.Pool; config: ImportConfig },
  runId: number,
  hooks: RunHooks = {},
): Promise<RunRow> {
  const { pool, config } = deps;
  const run = await startRun(pool, runId, 'feed', false);
  if (!run) {
    // Done already (a job delivered twice): nothing to do.
    const { rows } = await pool.query<RunRow>('select * from import_runs where id = $1', [runId]);
    if (!rows[0]) throw new Error(`import run ${runId} does not exist`);
    return rows[0];
  }
  await pool.query('delete from import_rejections where run_id = $1', [runId]);

  const progress: Progress = { rowsRead: 0, rowsWritten: 0, rowsRejected: 0 };
  let lastSent = 0;
  const send = (status: RunRow['status'], error: string | null, force = false) => {
    const now = Date.now();
    if (!force && now - lastSent < PROGRESS_EVERY_MS) return;
    lastSent = now;
    if (status === 'running')
      void pool
        .query('update import_runs set rows_read = $2, rows_rejected = $3 where id = $1 and status = $4', [
          runId,
          progress.rowsRead,
          progress.rowsRejected,
          'running',
        ])
        .catch(() => {});
    hooks.onProgress?.(run, { ...progress, status, error });
  };
  send('running', null, true);

  const read = newReadCounts();
  try {
    const { rows: src } = await pool.query<SourceRow>(
      `select id, seller_id, origin, url, format, encoding, mapping, mode, file_path, etag, last_modified
         from import_sources where id = $1 and deleted_at is null`,
      [run.source_id],
    );
    const source = src[0];
    if (!source) throw new FeedError('la fuente ya no existe');
    const terms = await sellerTermsOf(pool, source.seller_id);
    if (!terms) throw new FeedError('el eCommerce ya no existe');

    let input: AsyncIterable<Buffer>;
    let validators: { etag: string | null; lastModified: string | null } | null = null;
    if (source.origin === 'upload') {
      if (!source.file_path || !existsSync(source.file_path)) throw new FeedError('no hay un archivo subido');
      input = createReadStream(source.file_path, { highWaterMark: 256 * 1024 });
    } else {
      const res = await safeFetch(source.url ?? '', {
        allowPrivate: config.FETCH_ALLOW_PRIVATE,
        maxBytes: config.FEED_MAX_BYTES,
        etag: source.etag,
        lastModified: source.last_modified,
        accept: 'application/xml, text/xml, text/csv, text/tab-separated-values, */*;q=0.5',
      });
      if (res.notModified) {
        // The server says the feed did not change since the last good import: the data is current.
        return await finish(pool, run, 'succeeded', progress, null, [], null, 0, 0, hooks);
      }
      input = res.body;
      validators = { etag: res.etag, lastModified: res.lastModified };
    }

    const now = new Date();
    const result = await ingestObservations(
      pool,
      {
        sellerId: source.seller_id,
        source: 'feed',
        mode: source.mode === 'full' ? 'full' : 'partial',
        observedAt: now,
      },
      readParts(
        parseFeed(input, { format: source.format, encoding: source.encoding, mapping: source.mapping }),
        terms,
        now,
        read,
        (c) => {
          progress.rowsRead = c.rowsRead;
          progress.rowsRejected = c.rejected;
          send('running', null);
        },
      ),
      { onStep: hooks.onStep },
    );
    progress.rowsRead = read.rowsRead;
    progress.rowsRejected = read.rejected;
    progress.rowsWritten = read.valid;
    if (validators)
      await pool.query('update import_sources set etag = $2, last_modified = $3 where id = $1', [
        source.id,
        validators.etag,
        validators.lastModified,
      ]);
    return await finish(
      pool,
      run,
      'succeeded',
      progress,
      null,
      read.rejections,
      result.runId,
      result.changes,
      result.unpublished,
      hooks,
    );
  } catch (err) {
    if (isFeedFailure(err)) {
      const message = (err as Error).message;
      progress.rowsRead = read.rowsRead;
      progress.rowsRejected = read.rejected;
      return await finish(pool, run, 'failed', progress, message, read.rejections, null, 0, 0, hooks);
    }
    await requeueRun(pool, runId, err);
    throw err;
  }
}

async function finish(
  pool: pg.Pool,
  run: RunRow,
  status: 'succeeded' | 'failed',
  progress: Progress,
  error: string | null,
  rejections: Rejection[],
  ingestRunId: number | null,
  changed: number,
  unpublished: number,
  hooks: RunHooks,
): Promise<RunRow> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await insertRejections(client, run.id, rejections);
    await client.query(
      `update import_runs set status = $2, finished_at = clock_timestamp(), rows_read = $3, rows_written = $4,
              rows_rejected = $5, rows_changed = $6, unpublished = $7, ingest_run_id = $8, error = $9
        where id = $1`,
      [
        run.id,
        status,
        progress.rowsRead,
        progress.rowsWritten,
        progress.rowsRejected,
        changed,
        unpublished,
        ingestRunId,
        error,
      ],
    );
    // The listings that arrived or changed are matched to the pivots' catalogues by a worker job.
    if (status === 'succeeded' && changed > 0) await enqueueSellerMatching(client, run.seller_id);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  hooks.onProgress?.(run, { ...progress, status, error });
  return { ...run, status };
}

/** Stores rejections (in batches of 1,000 rows). */
export async function insertRejections(
  db: Queryable,
  runId: number,
  rejections: readonly Rejection[],
): Promise<void> {
  for (let i = 0; i < rejections.length; i += 1000) {
    const part = rejections.slice(i, i + 1000);
    await db.query(
      `insert into import_rejections (run_id, seq, line, product_id, reason)
       select $1, s, l, p, r from unnest($2::int[], $3::int[], $4::text[], $5::text[]) as t(s, l, p, r)`,
      [
        runId,
        part.map((_, k) => i + k + 1),
        part.map((r) => r.line),
        part.map((r) => r.productId),
        part.map((r) => r.reason.slice(0, 500)),
      ],
    );
  }
}
