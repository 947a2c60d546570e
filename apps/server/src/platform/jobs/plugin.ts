import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { JobWorker } from './queue.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's job worker (platform/jobs/queue.ts); started on ready, stopped on close. */
    jobWorker: JobWorker;
  }
}

/**
 * Runs the job queue in the server process: the worker starts when the app is ready and stops (letting
 * running jobs finish) when it closes. Handlers are registered by the feature modules
 * (registerJobHandler); the worker leases only jobs of queues that have one.
 */
async function jobsPlugin(app: FastifyInstance) {
  const worker = new JobWorker({
    pool: app.deps.db.pool,
    config: app.deps.config,
    log: app.log.child({ component: 'jobs' }),
  });
  app.decorate('jobWorker', worker);
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
}

export default fp(jobsPlugin, { name: 'vigia-jobs' });
