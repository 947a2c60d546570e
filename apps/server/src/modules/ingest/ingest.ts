import type pg from 'pg';
import { DB_TIMEOUTS } from '../../db/database.js';
import { bumpChanges } from '../../platform/change-signal.js';
import { type Candidate, RunDiff, slimCandidate } from './diff.js';
import { categoryCacheOf, clearCategoryCaches } from './dimensions.js';
import { matchByEan } from './ean-match.js';
import { lockSeller } from './lock.js';
import {
  type IngestOptions,
  type IngestResult,
  type IngestRun,
  type Observation,
  validate,
} from './observation.js';
import { recordFailedRun, recordRun } from './record.js';
import { type RollupContext, type RollupUpdater, registerRollup, rollupUpdaters } from './registry.js';
import { rollupsAfter, rollupsBefore } from './rollup-steps.js';
import './rollups.js'; // the built-in roll-ups register themselves: they run on every ingest
import { type CategoryIds, ensureObsTable, stageCandidates } from './stage.js';
import { clearSellerStates, type SellerState, sellerStatesOf } from './state.js';
import { unpublishMissing } from './unpublish.js';
import { touchLastSeen, writeListings, writePriceStates } from './write.js';

export {
  derivePriceType,
  effectivePrice,
  type IngestOptions,
  type IngestResult,
  type IngestRun,
  type Observation,
} from './observation.js';
export { type RollupContext, type RollupUpdater, registerRollup };

/**
 * The one way data enters Vigía. Feed imports, the crawler and the demo generator all hand a batch of
 * observations of one seller at one instant to `ingestObservations` — an array, or an async iterable of
 * parts when the batch is too large to hold (a feed of 100,000 items is handed over 5,000 at a time as it
 * is parsed) — which in ONE transaction runs the steps of `applyRun`, each in a file of its own:
 *   lock       (lock.ts)        takes the seller's row lock, bumps its ingest_seq, refuses a run older than its last;
 *   signal     (platform/change-signal.ts) bumps the seller's 'listings' version of the change signal: every
 *                               process's read models learn of the run when it commits (NOTIFY);
 *   per part:
 *   diff       (diff.ts)        finds the observations that differ from what is stored (hashing.ts) and checks the
 *                               candidates' currencies;
 *   stage      (stage.ts)       resolves brands and seller categories (dimensions.ts) and stages the candidates in
 *                               the temporary table obs (it accumulates the parts until the commit); only a slim
 *                               record of each candidate stays in memory;
 *   once every part is in:
 *   diff       (diff.ts)        the listings a full run no longer shows (those no part listed);
 *   roll-ups   (rollup-steps.ts) `before`: a roll-up may look at the touched listings before anything is written;
 *   write      (write.ts)       upserts the listings (products) with their brand, seller category and classification;
 *   match      (ean-match.ts)   puts new listings with an EAN into their match group (EAN equality → confirmed);
 *   write      (write.ts)       closes the open price interval of every listing whose observed state changed, opens
 *                               a new one and updates listing_current (the snapshot the screens read; after match,
 *                               since it carries the match group);
 *   unpublish  (unpublish.ts)   in a full run, unpublishes the listings the seller no longer shows;
 *   record     (record.ts)      records the run in ingest_runs;
 *   roll-ups   (rollup-steps.ts) runs every registered roll-up updater (registry.ts) for the seller and day.
 * A failed run is recorded as failed with its error after the rollback (record.ts), and nothing else of
 * it is kept; when the source of parts itself fails (a feed found broken half-way), the run is rolled back
 * and not recorded: the caller reports it. Parts must not repeat a product id (a run that does fails).
 * Observations, runs and their rules (price type, effective price, validation) are in observation.ts; the
 * seller's remembered listings in state.ts.
 *
 * Fast path (migrations/011_ingest_fastpath.sql): a daily full run mostly repeats what is stored. Every
 * observation's price state and description are hashed; the hashes are compared with those stored with
 * the listing (products.descr_hash, listing_current.obs_hash) — taken from this process's memory of the
 * seller's previous run when sellers.ingest_seq shows no other run came in between, else read in one
 * query. Only the listings that differ (new, changed, re-published) go through stage, write and match, where their
 * values are compared exactly. Runs of one seller are serialised by the seller's row lock (taken first);
 * runs of different sellers proceed concurrently (brands and EAN groups are created in sorted order so
 * that two of them cannot deadlock). Invariant kept here: listing_current.since = valid_from of the
 * listing's open interval.
 *
 * Statements whose plan cannot go wrong (single-row writes, the staging insert) are prepared once per
 * connection (named); those that join the staged rows with the listings are planned on every run: a plan
 * cached while a fresh database's statistics still said its tables were empty scanned whole tables on
 * every later run (seen: the small seed's PostgreSQL time doubled).
 */
export async function ingestObservations(
  pool: pg.Pool,
  run: IngestRun,
  observations: Observation[] | AsyncIterable<Observation[]>,
  options: IngestOptions = {},
): Promise<IngestResult> {
  const cache = categoryCacheOf(pool);
  const pending = new Map<string, number>();
  const states = sellerStatesOf(pool);
  const parts = new PartSource(observations);
  const client = await pool.connect();
  try {
    await ensureObsTable(client);
    for (const r of rollupUpdaters) await r.prepare?.(client);
    // The working set is in memory: index probes cost about a sequential read (default 4× would make the
    // planner scan whole tables to join a few changed listings). A run and its roll-ups are long work: their
    // statements may take longer than the pool's statement_timeout (db/database.ts DB_TIMEOUTS), and a run
    // handed over in parts waits for each part inside its transaction (a feed being downloaded and read).
    await client.query(
      `begin; set local random_page_cost = 1.1; set local statement_timeout = ${DB_TIMEOUTS.longStatementMs}${parts.streamed ? "; set local idle_in_transaction_session_timeout = '10min'" : ''}${options.durable === false ? '; set local synchronous_commit = off' : ''}`,
    );
    const { result, next } = await applyRun(
      client,
      { cache, pending },
      states.get(run.sellerId),
      run,
      parts,
      options.onStep,
      options.deferRollups ?? [],
    );
    await client.query('commit');
    for (const [k, v] of pending) cache.set(k, v);
    if (next) states.set(run.sellerId, next());
    else states.delete(run.sellerId);
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    states.delete(run.sellerId);
    // A failed run is recorded (and nothing else of it is kept); a source of parts that failed is its
    // caller's to report (e.g. a feed that turned out not to be XML half-way).
    if (!parts.failed) await recordFailedRun(pool, run, parts.count, err);
    throw err;
  } finally {
    client.release();
  }
}

/** The parts of a run: one array, or an async iterable of parts (its errors are told apart). */
class PartSource {
  readonly streamed: boolean;
  /** Observations handed over so far. */
  count = 0;
  /** Whether the source of parts threw (rather than ingest). */
  failed = false;
  /** Time spent waiting for the source's parts (ms): e.g. a feed being downloaded and parsed. */
  waitMs = 0;
  constructor(private readonly source: Observation[] | AsyncIterable<Observation[]>) {
    this.streamed = !Array.isArray(source);
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<Observation[]> {
    if (Array.isArray(this.source)) {
      this.count = this.source.length;
      yield this.source;
      return;
    }
    const it = this.source[Symbol.asyncIterator]();
    for (;;) {
      let n: IteratorResult<Observation[]>;
      const t = performance.now();
      try {
        n = await it.next();
      } catch (err) {
        this.failed = true;
        throw err;
      } finally {
        this.waitMs += performance.now() - t;
      }
      if (n.done) return;
      this.count += n.value.length;
      yield n.value;
    }
  }
}

/** Forgets cached category ids and listing states (tests that recreate databases, the seed CLI after --reset). */
export function clearIngestCaches(): void {
  clearCategoryCaches();
  clearSellerStates();
}

/** Reports the time since its previous call (or its creation) under a step's name; a no-op without `onStep`. */
function stepTimer(onStep: IngestOptions['onStep']): (step: string, minus?: number) => void {
  if (!onStep) return () => {};
  let t = performance.now();
  return (step, minus = 0) => {
    const now = performance.now();
    onStep(step, now - t - minus);
    t = now;
  };
}

/** One run, in the transaction ingestObservations opened: the steps in order (see above). */
async function applyRun(
  client: pg.PoolClient,
  categories: CategoryIds,
  known: SellerState | undefined,
  run: IngestRun,
  parts: PartSource,
  onStep: IngestOptions['onStep'],
  deferred: readonly string[],
): Promise<{ result: IngestResult; next: (() => SellerState) | null }> {
  const T = stepTimer(onStep);
  const seller = await lockSeller(client, run);
  await bumpChanges(client, [run.sellerId], 'listings');
  const { seq, epoch, prevCrawl, lastT } = seller;
  const diff = await RunDiff.open(client, known, run, seller);
  T('lock, state');

  // Part by part: validated, compared with what is stored, and the candidates staged (obs accumulates
  // until the commit); only a slim record of each candidate is kept in memory.
  const cand: Candidate[] = [];
  const described: boolean[] = [];
  let n = 0;
  let validated = 0;
  for await (const part of parts) {
    for (let i = 0; i < part.length; i++) validate(part[i], validated + i);
    validated += part.length;
    const { batch, cand: found } = await diff.part(client, part);
    n += batch.length;
    await touchLastSeen(client, run, batch);
    if (found.length) {
      const d = await stageCandidates(client, categories, run.sellerId, found);
      for (let k = 0; k < found.length; k++) {
        described.push(d[k]);
        cand.push(slimCandidate(found[k]));
      }
    }
  }
  onStep?.('parts: reading the source', parts.waitMs);
  T('parts: diff and stage', parts.waitMs);
  const { state } = diff;
  const missing = diff.missing();
  const zones = await rollupsBefore(client, run, lastT, cand, missing, deferred);
  T('roll-ups before');

  let changes = 0;
  let newListings = 0;
  if (cand.length) {
    newListings = await writeListings(client, run, cand, described);
    T('write listings');
    await matchByEan(client, cand);
    T('match by EAN');
    changes = await writePriceStates(client, run, cand);
    T('write prices');
  }

  const goneIds = await unpublishMissing(client, run, missing, prevCrawl);
  const unpublished = missing.length;
  const runId = await recordRun(client, run, parts.count, changes);
  T('unpublish, record');
  await rollupsAfter(client, run, lastT, runId, cand, missing, zones, deferred, onStep);
  T('roll-ups after (all)');

  // The seller's state after this run (kept by ingestObservations once the transaction committed).
  // (Observed listings that were not candidates are stored as the state says.)
  const kept = state;
  const next = !kept
    ? null
    : () => {
        const listings = kept.listings;
        for (const id of goneIds) {
          const e = listings.get(id);
          if (e) e.pub = false;
        }
        for (const c of cand) listings.set(c.o.productId, { pid: c.id!, ph: c.ph, dh: c.dh, pub: true });
        return { seq: seq + 1, epoch, listings };
      };
  return { result: { runId, observations: n, changes, newListings, unpublished }, next };
}
