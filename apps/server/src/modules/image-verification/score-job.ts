import { classifySimilarity } from '@vigia/domain';
import type pg from 'pg';
import { z } from 'zod';
import type { Queryable } from '../../db/database.js';
import { bumpChanges } from '../../platform/change-signal.js';
import { defineJob, enqueue, type JobLogger } from '../../platform/jobs/index.js';
import { type CheckClassifiedEvent, emitCheckClassified } from './events.js';
import { loadPicture } from './pictures.js';
import { measureSimilarity, type SimilarityResult } from './similarity.js';

// The job that measures pictures (queue `image-verification.score`, payload {}): it takes the pairs
// waiting in image_scores (similarity null), BATCH at a time with FOR UPDATE SKIP LOCKED (several workers
// share the work), measures each from the pixels (similarity.ts), stores the measure and copies it onto
// the pair's checks, then tells the check-classified listeners (events.ts). After BUDGET_MS it enqueues
// its successor and ends, so one job never holds the worker for long. A picture that cannot be read is
// retried by later jobs; after MAX_ATTEMPTS its error is kept and shown in the dialog.
//
// Who enqueues: the server at start (backfill: every unmeasured pair), the ingest roll-up (rollup.ts) when
// a listing's picture is new or changed, and the demo seed's pairs through the same backfill.

export const SCORE_QUEUE = 'image-verification.score';
const BATCH = 16;
const BUDGET_MS = 20_000;
const MAX_ATTEMPTS = 3;

/**
 * Enqueues the scoring job; one waiting is enough (a 'short' queue: a second enqueue adds nothing, and a
 * running one re-enqueues itself if needed).
 */
export async function enqueueScoring(db: Queryable): Promise<void> {
  await enqueue(db, SCORE_QUEUE, {});
}

/**
 * Backfill: queues every check's pair that has no measure yet, copies measures already taken onto checks
 * that lack them, and enqueues the job when anything waits. Returns the pairs waiting.
 */
export async function backfillScores(pool: pg.Pool): Promise<number> {
  await pool.query(
    `insert into image_scores (reference_url, image_url)
     select distinct reference_url, image_url from image_checks where similarity is null
     on conflict do nothing`,
  );
  await pool.query(
    `update image_checks c set similarity = s.similarity from image_scores s
      where c.similarity is null and s.similarity is not null
        and s.reference_url = c.reference_url and s.image_url = c.image_url`,
  );
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from image_scores where similarity is null and error is null and attempts < $1`,
    [MAX_ATTEMPTS],
  );
  if (rows[0].n > 0) await enqueueScoring(pool);
  return rows[0].n;
}

interface Pair {
  reference_url: string;
  image_url: string;
  attempts: number;
}

/** Loads and measures one pair; the reference's bytes are reused within a batch. */
async function measurePair(
  pair: Pair,
  dataDir: string,
  refs: Map<string, Promise<Buffer>>,
): Promise<SimilarityResult> {
  let ref = refs.get(pair.reference_url);
  if (!ref) {
    ref = loadPicture(pair.reference_url, dataDir).then((p) => p.bytes);
    refs.set(pair.reference_url, ref);
  }
  const [reference, image] = await Promise.all([
    ref,
    loadPicture(pair.image_url, dataDir).then((p) => p.bytes),
  ]);
  return measureSimilarity(reference, image);
}

const STORE = `
update image_scores set similarity = $3, ssim = $4, coverage = $5, colour = $6, reference_hash = $7, image_hash = $8,
       hash_distance = $9, region = $10, diff_map = $11, algorithm = $12, error = null,
       attempts = attempts + 1, scored_at = now()
 where reference_url = $1 and image_url = $2`;
const FAIL = `
update image_scores set attempts = attempts + 1, error = case when attempts + 1 >= $4 then $3 end
 where reference_url = $1 and image_url = $2`;
const COPY = `
update image_checks c set similarity = s.similarity
  from image_scores s, products p
 where s.reference_url = any($1::text[]) and s.image_url = any($2::text[]) and s.similarity is not null
   and c.reference_url = s.reference_url and c.image_url = s.image_url and p.id = c.product_id
returning c.id, c.product_id, p.seller_id, c.checked_at, c.image_url, c.reference_url, c.similarity`;

export interface ScoreRun {
  measured: number;
  failed: number;
  /** pairs still waiting when the run ended */
  more: boolean;
  /** pictures per second over the run (pairs measured ÷ seconds) */
  rate: number;
}

/** Measures waiting pairs until none is left or `budgetMs` has passed. */
export async function scorePending(
  pool: pg.Pool,
  dataDir: string,
  log: JobLogger,
  budgetMs = BUDGET_MS,
  signal?: AbortSignal,
): Promise<ScoreRun> {
  const started = Date.now();
  let measured = 0;
  let failed = 0;
  let more = true;
  // a stopping worker ends the run after the batch in hand (its pairs committed); the rest waits
  while (Date.now() - started < budgetMs && !signal?.aborted) {
    const client = await pool.connect();
    let events: CheckClassifiedEvent[] = [];
    try {
      await client.query('begin');
      const { rows: pairs } = await client.query<Pair>(
        `select reference_url, image_url, attempts from image_scores
          where similarity is null and error is null and attempts < $2
          order by attempts, reference_url, image_url
          limit $1 for update skip locked`,
        [BATCH, MAX_ATTEMPTS],
      );
      if (!pairs.length) {
        await client.query('commit');
        more = false;
        break;
      }
      const refs = new Map<string, Promise<Buffer>>();
      for (const pair of pairs) {
        try {
          const r = await measurePair(pair, dataDir, refs);
          await client.query(STORE, [
            pair.reference_url,
            pair.image_url,
            r.similarity,
            r.ssim,
            r.coverage,
            r.colour,
            r.referenceHash,
            r.imageHash,
            r.hashDistance,
            JSON.stringify(r.region),
            r.diffMap,
            r.algorithm,
          ]);
          measured++;
        } catch (err) {
          failed++;
          const message = (err as Error).message?.slice(0, 300) ?? 'error';
          log.warn(
            { image: pair.image_url.slice(0, 200), err: message },
            'image verification: picture not measured',
          );
          await client.query(FAIL, [pair.reference_url, pair.image_url, message, MAX_ATTEMPTS]);
        }
      }
      const { rows } = await client.query(COPY, [
        pairs.map((p) => p.reference_url),
        pairs.map((p) => p.image_url),
      ]);
      // the checks' sellers changed (the change signal: every process learns of it at commit)
      await bumpChanges(client, [...new Set(rows.map((r) => r.seller_id as number))], 'images');
      await client.query('commit');
      events = rows.map((r) => ({
        checkId: Number(r.id),
        productId: Number(r.product_id),
        sellerId: r.seller_id,
        checkedAt: r.checked_at,
        imageUrl: r.image_url,
        referenceUrl: r.reference_url,
        similarity: r.similarity,
        classification: classifySimilarity(r.similarity) as CheckClassifiedEvent['classification'],
      }));
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
    await emitCheckClassified(events, log, pool);
  }
  const seconds = (Date.now() - started) / 1000;
  return { measured, failed, more, rate: seconds > 0 ? measured / seconds : 0 };
}

/** The scoring job's declaration (jobs.ts). */
export function defineScoreJob(): void {
  defineJob({
    queue: SCORE_QUEUE,
    payload: z.object({}),
    policy: 'short',
    handler: async (_payload, ctx) => {
      const run = await scorePending(ctx.pool, ctx.config.DATA_DIR, ctx.log, BUDGET_MS, ctx.signal);
      ctx.log.info(
        { measured: run.measured, failed: run.failed, perSecond: Math.round(run.rate * 10) / 10 },
        'image verification: pictures measured',
      );
      // (also when the worker stops: the pool is open until its running jobs end)
      if (run.more) await enqueueScoring(ctx.pool);
    },
  });
}
