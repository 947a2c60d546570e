// Public face of the job queue (platform/jobs/queue.ts): declaring a job, its schedule and start-up
// work, and enqueueing.
export {
  atWorkerStart,
  defineJob,
  defineSchedule,
  type EnqueueOptions,
  enqueue,
  getJob,
  JOB_SCHEMA,
  type JobContext,
  type JobEmit,
  type JobLogger,
  type JobRow,
  jobRowSql,
  jobsOf,
  registerJobHandler,
  type WorkerStartContext,
  wakeJobWorkers,
} from './queue.js';
