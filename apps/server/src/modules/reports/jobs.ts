import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { atWorkerStart, defineJob, defineSchedule } from '../../platform/jobs/index.js';
import { dispatchDueSubscriptions, registerSubscriptionDelivery } from './subscriptions.js';
import {
  attachReportsApp,
  defineReportJob,
  deleteExpiredReportFiles,
  settleAbandonedTasks,
} from './tasks.js';

// The reports' background work (worker role):
//   'report'         builds one export task (tasks.ts runReportTask), queued with the task;
//   'reports-tick'   every minute (cron): creates the tasks of due subscriptions (their next run is
//                    computed by schedule.ts nextRunAt in each recipient's zone, DST included) and
//                    deletes expired report files. One waiting tick is enough ('short' queue), and
//                    pg-boss sends a cron job once per minute whichever worker sees it.
// A finished build of a subscription's task enqueues its e-mail (subscriptions.ts).

export const REPORTS_TICK_QUEUE = 'reports-tick';

defineReportJob();
registerSubscriptionDelivery();
defineJob({
  queue: REPORTS_TICK_QUEUE,
  payload: z.object({}),
  maxAttempts: 1,
  policy: 'short',
  handler: async (_p, ctx) => {
    // tasks whose job is gone (failed, expired, never queued) fail with their reason (issue 26)
    await settleAbandonedTasks({ pool: ctx.pool, config: ctx.config, log: ctx.log });
    await dispatchDueSubscriptions(ctx.pool, ctx.config);
    await deleteExpiredReportFiles(ctx.pool);
  },
});
defineSchedule({ queue: REPORTS_TICK_QUEUE, cron: '* * * * *' });
// what a crash left, at a worker's start
atWorkerStart('reports: abandoned tasks', (ctx) =>
  settleAbandonedTasks({ pool: ctx.pool, config: ctx.config, log: ctx.log }),
);

/** In every role: the report events (task:created, progress, done) reach the exporter channel of this app. */
export default async function reportsJobs(app: FastifyInstance) {
  attachReportsApp(app);
}
