import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { emitToUser } from '../exporter/index.js';
import { readModelsOf } from '../read-model.js';
import { JobRunner } from './queue.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's job runner (platform/jobs/queue.ts); null in the 'api' role. */
    jobRunner: JobRunner | null;
  }
}

/**
 * The job queue in the server process. Every role can enqueue (pg-boss's schema comes with the
 * migrations, 201; a queue is created at its first enqueue); the roles 'worker' and 'all' also run the
 * jobs and keep the schedules (and migrate pg-boss's own schema when a newer pg-boss needs it): the runner starts when the app is ready and stops (finishing or handing back running
 * jobs) when it closes. Jobs are declared by the features (modules/<feature>/jobs.ts, imported by
 * modules/jobs.ts) and the platform (platform/mail).
 */
async function jobsPlugin(app: FastifyInstance, opts: { role?: 'api' | 'worker' | 'all' }) {
  const { db, config } = app.deps;
  const role = opts.role ?? config.VIGIA_ROLE;
  const runner =
    role === 'api'
      ? null
      : new JobRunner({
          pool: db.pool,
          config,
          log: app.log.child({ component: 'jobs' }),
          leaseSeconds: config.JOBS_LEASE_SECONDS,
          // test files call the scheduled work themselves: no cron racing a test database
          schedules: !process.env.VITEST,
          emit: (userId, event, payload) =>
            emitToUser(
              app,
              userId,
              event as 'notification',
              payload as Parameters<typeof emitToUser<'notification'>>[3],
            ),
        });
  app.decorate('jobRunner', runner);
  if (runner) {
    let closed = false;
    // Role 'all' (one process answers and works): the jobs and the start-up work start with the read
    // models' warm-ups, once the first requests after the start are answered (platform/read-model.ts),
    // not before listening. The tests start it at once (they run jobs right after ready).
    const later = role === 'all' && !process.env.VITEST;
    app.addHook('onReady', async () => {
      if (!later) return runner.start();
      void readModelsOf(db.pool).warmUpsBegin.then(() => (closed ? undefined : runner.start()));
    });
    app.addHook('onClose', async () => {
      closed = true;
      await runner.stop();
    });
  }
}

export default fp(jobsPlugin, { name: 'vigia-jobs' });
