import type { Config } from '../../config.js';
import type { Queryable } from '../../db/database.js';
import { createMailer, type Mailer, type MailMessage, outboxDir } from '../../lib/mailer.js';
import { type EnqueueOptions, enqueue, type JobLogger, registerJobHandler } from '../jobs/index.js';

// E-mail goes out through the job queue, never inline from a request: a slow or failing SMTP server
// neither delays nor fails the request, and failures are retried and recorded (jobs.last_error).

export const EMAIL_QUEUE = 'email';

export interface EmailJob extends MailMessage {
  /**
   * The body carries a secret (a password-reset link): once the job is finished the stored payload
   * keeps only `to` and `subject`.
   */
  sensitive?: boolean;
}

/** Adds an e-mail to the queue; `db` may be a transaction's client. Returns the job id. */
export function enqueueEmail(db: Queryable, message: EmailJob, opts: EnqueueOptions = {}): Promise<number> {
  return enqueue(db, EMAIL_QUEUE, message, { maxAttempts: 6, ...opts });
}

// One mailer per configuration (per app instance): SMTP connections and settings are not shared
// between test apps in one process.
const mailers = new WeakMap<Config, Mailer>();

export function mailerFor(config: Config, log?: JobLogger): Mailer {
  let mailer = mailers.get(config);
  if (!mailer) {
    mailer = createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: outboxDir(config.DATA_DIR),
      log,
    });
    mailers.set(config, mailer);
  }
  return mailer;
}

export function closeMailerFor(config: Config): void {
  mailers.get(config)?.close();
  mailers.delete(config);
}

/** Registers the 'email' queue's handler (idempotent). */
export function registerEmailHandler(): void {
  registerJobHandler<EmailJob>(
    EMAIL_QUEUE,
    async (job, ctx) => {
      const { sensitive: _sensitive, ...message } = job;
      await mailerFor(ctx.config, ctx.log).send(message);
    },
    { redact: (job) => (job.sensitive ? { to: job.to, subject: job.subject, redacted: true } : job) },
  );
}
