// Public face of the jobs feature: enqueueing work and handling a job kind.
export {
  type EnqueueOptions,
  enqueue,
  type JobContext,
  type JobLogger,
  registerJobHandler,
  wakeJobWorkers,
} from './queue.js';
