import { atWorkerStart } from '../../platform/jobs/index.js';
import { backfillScores, defineScoreJob } from './score-job.js';

// Image verification's background work (worker role): the 'image-verification-score' job measures
// pictures waiting for a similarity (score-job.ts); queued by the ingest roll-up and, when a worker
// starts, by the backfill of every check without a measure.

defineScoreJob();
atWorkerStart('image-verification:backfill', async ({ pool, log }) => {
  const waiting = await backfillScores(pool);
  if (waiting) log.info({ waiting }, 'image verification: pictures queued for measuring');
});
