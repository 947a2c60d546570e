import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { emitToUser } from '../exporter/index.js';
import { installJobs, JobRunner } from './queue.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's job runner (platform/jobs/queue.ts); null in the 'api' role. */
    jobRunner: JobRunner | null;
  }
}

/**
 * The job queue in the server process. Every role installs pg-boss's schema and the declared queues
 * (so that any process can enqueue); the roles 'worker' and 'all' also run the jobs and keep the
 * schedules: the runner starts when the app is ready and stops (finishing or handing back running
 * jobs) when it closes. Jobs are declared by the features (modules/<feature>/jobs.ts, imported by
 * modules/jobs.ts) and the platform (platform/mail).
 */
async function jobsPlugin(app: FastifyInstance, opts: { role?: 'api' | 'worker' | 'all' }) {
  const { db, config } = app.deps;
  await installJobs(db.pool);
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
    app.addHook('onReady', async () => runner.start());
    app.addHook('onClose', async () => runner.stop());
  }
}

export default fp(jobsPlugin, { name: 'vigia-jobs' });
