// Public face of the mail feature: sending an e-mail through the job queue.
export { type EmailJob, enqueueEmail } from './email-job.js';
