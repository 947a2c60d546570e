import type { Config } from '../../config.js';
import type { Queryable } from '../../db/database.js';
import { createMailer, type Mailer, type MailMessage, outboxDir } from '../../lib/mailer.js';
import { type EnqueueOptions, enqueue, type JobLogger, registerJobHandler } from '../jobs/index.js';

// E-mail goes out through the job queue, never inline from a request: a slow or failing SMTP server
// neither delays nor fails the request, and failures are retried and recorded (the job's last error).
// Never twice: the job claims its row in email_sent (migration 200) before handing the message to the
// server, and gives it back when sending failed; a job retried because its worker died after the claim
// finds the row and sends nothing (a worker killed in the instant between claim and hand-over loses
// that one e-mail rather than sending it twice).

export const EMAIL_QUEUE = 'email';

export interface EmailJob extends MailMessage {
  /**
   * The body carries a secret (a password-reset link): once the job is finished the stored payload
   * keeps only `to` and `subject`.
   */
  sensitive?: boolean;
}

/** Adds an e-mail to the queue; `db` may be a transaction's client. Returns the job id. */
export function enqueueEmail(db: Queryable, message: EmailJob, opts: EnqueueOptions = {}): Promise<string> {
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
      const claimed = await ctx.pool.query(
        'insert into email_sent (job_id) values ($1) on conflict do nothing',
        [ctx.job.id],
      );
      if (!claimed.rowCount) {
        ctx.log.warn({ jobId: ctx.job.id }, 'e-mail already handed to the mail server: not sent again');
        return;
      }
      try {
        await mailerFor(ctx.config, ctx.log).send(message);
      } catch (err) {
        await ctx.pool.query('delete from email_sent where job_id = $1', [ctx.job.id]);
        throw err;
      }
    },
    {
      concurrency: 4,
      maxAttempts: 6,
      redact: (job) => (job.sensitive ? { to: job.to, subject: job.subject, redacted: true } : job),
    },
  );
}
