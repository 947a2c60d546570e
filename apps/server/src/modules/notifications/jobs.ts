import { z } from 'zod';
import { atWorkerStart, defineJob, defineSchedule } from '../../platform/jobs/index.js';
import { DIGEST_QUEUE, sendDigests } from './digest.js';
import { deliver, fanOut } from './dispatch.js';
import { DISPATCH_QUEUE, queueDispatch } from './rollup.js';

// The notifications' background work (run by the worker role):
//   'notifications:dispatch'  fan-out of new change events to recipients, then delivery (in-app event
//                             on the exporter channel, e-mail job); queued by the ingest roll-up in the
//                             ingest transaction (rollup.ts queueDispatch) and at worker start when
//                             events wait undispatched (written while no worker ran: the seed CLI);
//   'notifications:digest'    every hour (cron, market zone): the digest e-mails of users whose digest
//                             hour (their own zone) it is.

defineJob({
  queue: DISPATCH_QUEUE,
  payload: z.object({}),
  maxAttempts: 10,
  handler: async (_p, ctx) => {
    await fanOut(ctx.pool);
    await deliver(ctx.pool, ctx.config, (userId, n) => ctx.emit(userId, 'notification', n));
  },
});
defineJob({
  queue: DIGEST_QUEUE,
  payload: z.object({}),
  maxAttempts: 3,
  policy: 'short',
  handler: async (_p, ctx) => {
    await sendDigests(ctx.pool, ctx.config);
  },
});
defineSchedule({ queue: DIGEST_QUEUE, cron: '0 * * * *' });
atWorkerStart('notifications:undispatched', async ({ pool }) => {
  const { rows } = await pool.query('select 1 from change_events where dispatched_at is null limit 1');
  if (rows.length) await queueDispatch(pool);
});
