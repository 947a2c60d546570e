import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outboxDir } from '../lib/mailer.js';

// Test helpers: read back the messages the mailer produced (.eml files of the outbox, or raw messages
// received by a test SMTP server). A small RFC 5322/MIME reader, enough for the messages nodemailer
// writes (quoted-printable or base64 parts, encoded-word headers); not for general use.

export interface ReadMail {
  path?: string;
  headers: Record<string, string>;
  to: string;
  subject: string;
  /** The text/plain body, decoded. */
  text: string;
  /** The text/html body, decoded (empty when there is none). */
  html: string;
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const soft = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i];
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `=?UTF-8?Q?…?=` and `=?UTF-8?B?…?=` words of a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function splitHead(raw: string): { headers: Record<string, string>; body: string } {
  const normalized = raw.replace(/\r\n/g, '\n');
  const at = normalized.indexOf('\n\n');
  const head = at === -1 ? normalized : normalized.slice(0, at);
  const body = at === -1 ? '' : normalized.slice(at + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const cte = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (cte === 'quoted-printable') return decodeQuotedPrintable(body);
  if (cte === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** Parses one raw message. */
export function parseMail(raw: string, path?: string): ReadMail {
  const { headers, body } = splitHead(raw);
  let text = '';
  let html = '';
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1)
        .filter((p) => !p.startsWith('--'))
        .map((p) => splitHead(p.replace(/^\n/, '')))
    : [{ headers, body }];
  for (const part of parts) {
    const partType = (part.headers['content-type'] ?? 'text/plain').toLowerCase();
    const decoded = decodeBody(part.headers, part.body).replace(/\n$/, '');
    if (partType.startsWith('text/plain') && !text) text = decoded;
    else if (partType.startsWith('text/html') && !html) html = decoded;
  }
  return {
    path,
    headers,
    to: headers.to ?? '',
    subject: decodeHeader(headers.subject ?? ''),
    text,
    html,
  };
}

/** Every .eml file of DATA_DIR/outbox, oldest first. */
export function readOutbox(dataDir: string): ReadMail[] {
  const dir = outboxDir(dataDir);
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return files.sort().map((f) => parseMail(readFileSync(join(dir, f), 'utf8'), join(dir, f)));
}

/** uid and token of the password-reset link of a message. */
export function resetLinkOf(mail: ReadMail): { url: string; uid: string; token: string } {
  const m = /(https?:\/\/\S+\/password\/reset\/confirm\/\?uid=(\d+)&token=([\w%-]+))/.exec(mail.text);
  if (!m) throw new Error(`no reset link in the message to ${mail.to}`);
  return { url: m[1], uid: m[2], token: decodeURIComponent(m[3]) };
}

export interface TestSmtpServer {
  /** smtp://127.0.0.1:<port> — for SMTP_URL. */
  url: string;
  /** Messages received so far, parsed, with their SMTP envelope. */
  received: (ReadMail & { envelope: { from: string; to: string[] }; raw: string })[];
  /** Refuses the next `count` messages with a temporary failure (451), as a server in trouble would. */
  failNext(count: number): void;
  /** Resolves when `count` messages have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package, a dev dependency, loaded on demand) on 127.0.0.1 and a
 * free port, keeping every message it receives. No TLS, no authentication required.
 */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const { SMTPServer } = await import('smtp-server');
  const received: TestSmtpServer['received'] = [];
  let failing = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      if (failing > 0) {
        failing--;
        stream.resume();
        stream.on('end', () =>
          callback(
            Object.assign(new Error('Servicio no disponible, intente más tarde'), { responseCode: 451 }),
          ),
        );
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ ...parseMail(raw), envelope, raw });
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const addr = server.server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : 0);
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    failNext(count) {
      failing = count;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
