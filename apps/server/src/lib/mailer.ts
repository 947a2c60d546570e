import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

// E-mail (ARCHITECTURE.md "Server"): nodemailer over SMTP_URL when it is set; otherwise every message
// is written as an .eml file to DATA_DIR/outbox/ and its path logged, so a person on a laptop can open it.
// Code never sends inline from a request: it enqueues an 'email' job (platform/mail), whose handler
// calls this.

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files on this server (e.g. a built report); JSON-serialisable so a job payload can carry them. */
  attachments?: { filename: string; path: string; contentType?: string }[];
}

export interface SentMail {
  messageId: string;
  /** Outbox mode: the .eml file written. */
  path?: string;
}

export interface Mailer {
  readonly mode: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL (user, password, host, port; `?secure=true`, `?tls.rejectUnauthorized=false`, …). */
  smtpUrl?: string;
  from: string;
  /** Where .eml files go when there is no SMTP_URL. */
  outboxDir: string;
  log?: { info(obj: object, msg: string): void };
}

/** `20250101T120000123Z-<random>.eml`: sorts by time, never collides. */
function emlName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${randomBytes(6).toString('hex')}.eml`;
}

export function createMailer(opts: MailerOptions): Mailer {
  if (opts.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(opts.smtpUrl);
    return {
      mode: 'smtp',
      async send(message) {
        const info = await transport.sendMail({ from: opts.from, ...message });
        opts.log?.info({ to: message.to, messageId: info.messageId }, 'e-mail sent over SMTP');
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    mode: 'outbox',
    async send(message) {
      const info = await transport.sendMail({ from: opts.from, ...message });
      await mkdir(opts.outboxDir, { recursive: true });
      const path = join(opts.outboxDir, emlName());
      await writeFile(path, info.message as Buffer, { mode: 0o600 });
      opts.log?.info({ to: message.to, path }, `e-mail written to ${path}`);
      return { messageId: info.messageId, path };
    },
    close: () => transport.close(),
  };
}

/** The outbox directory of a data directory. */
export const outboxDir = (dataDir: string) => join(dataDir, 'outbox');
