import type { FastifyInstance } from 'fastify';
import { closeMailerFor, registerEmailHandler } from './email-job.js';

/** E-mail delivery: the 'email' job handler (SMTP_URL, else .eml files in DATA_DIR/outbox). */
export default async function mailPlugin(app: FastifyInstance) {
  registerEmailHandler();
  app.addHook('onClose', async () => closeMailerFor(app.deps.config));
}
