import { z } from 'zod';
import { atWorkerStart, defineJob, defineSchedule } from '../../platform/jobs/index.js';
import { WARM_QUEUE, warmDashboard } from './warm.js';

// The dashboard's background work (worker role): 'dashboard-warm' computes the closed days' figures
// (warm.ts) when a worker starts and every 30 minutes (cron in the market's zone); one waiting job is
// enough ('short' queue: a second enqueue while one waits adds nothing).

export const warmJob = defineJob({
  queue: WARM_QUEUE,
  payload: z.object({}),
  maxAttempts: 2,
  policy: 'short',
  handler: async (_p, ctx) => {
    const t = Date.now();
    const r = await warmDashboard(ctx.pool, ctx.log);
    ctx.log.info({ ...r, ms: Date.now() - t }, 'dashboard warm-up done');
  },
});
defineSchedule({ queue: WARM_QUEUE, cron: '*/30 * * * *' });
// Test runs call warmDashboard themselves: no background job racing a test database.
if (!process.env.VITEST) atWorkerStart(WARM_QUEUE, ({ pool }) => warmJob.enqueue(pool, {}));
