import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createMailer, outboxDir } from '../../lib/mailer.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { readOutbox, startTestSmtpServer, type TestSmtpServer } from '../../test/mail.js';
import { getJob, waitForJob } from '../jobs/queue.js';
import { enqueueEmail } from './email-job.js';

const message = {
  to: 'cliente@example.cl',
  subject: 'Reporte semanal — precios',
  text: 'Hola:\nAdjuntamos el reporte de la semana. Año 2025, señal «ñ».',
  html: '<p>Hola:</p><p>Adjuntamos el reporte de la semana.</p>',
};

describe('mailer, outbox mode (no SMTP_URL)', () => {
  it('writes each message as an .eml file in DATA_DIR/outbox and logs its path', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigia-mail-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const logged: string[] = [];
    const mailer = createMailer({
      from: 'Vigía <no-reply@vigia.local>',
      outboxDir: outboxDir(dataDir),
      log: { info: (_o, msg) => logged.push(msg) },
    });
    expect(mailer.mode).toBe('outbox');
    const a = await mailer.send(message);
    const b = await mailer.send({ ...message, to: 'otra@example.cl' });
    expect(a.path).toMatch(/outbox\/\d{8}T\d{9}Z-[0-9a-f]{12}\.eml$/);
    expect(b.path).not.toBe(a.path);
    expect(logged).toEqual([`e-mail written to ${a.path}`, `e-mail written to ${b.path}`]);

    const mails = readOutbox(dataDir);
    expect(mails.map((m) => m.to).sort()).toEqual(['cliente@example.cl', 'otra@example.cl']);
    const mail = mails.find((m) => m.path === a.path)!;
    expect(mail.subject).toBe(message.subject);
    expect(mail.text).toBe(message.text);
    expect(mail.html).toBe(message.html);
    expect(readFileSync(a.path!, 'utf8')).toMatch(/^From: .*no-reply@vigia\.local>$/m);
  });
});

describe('mailer, SMTP mode (SMTP_URL), against a real SMTP server', () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterAll(() => smtp?.close());

  it('delivers the message over SMTP and writes no file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigia-mail-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'Vigía <no-reply@vigia.local>',
      outboxDir: outboxDir(dataDir),
    });
    expect(mailer.mode).toBe('smtp');
    const attachment = join(dataDir, 'reporte.csv');
    writeFileSync(attachment, 'sku;precio\nA-1;1990\n');
    const sent = await mailer.send({
      ...message,
      attachments: [{ filename: 'reporte.csv', path: attachment }],
    });
    expect(sent.path).toBeUndefined();
    await smtp.waitFor(1);
    const [got] = smtp.received;
    expect(got.envelope).toEqual({ from: 'no-reply@vigia.local', to: ['cliente@example.cl'] });
    expect(got.subject).toBe(message.subject);
    expect(got.headers['content-type']).toMatch(/multipart\/mixed/);
    expect(readOutbox(dataDir)).toEqual([]);
    mailer.close();
  });

  it('fails the send when the server is unreachable (the e-mail job retries it)', async () => {
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'x@y.cl', outboxDir: '/nonexistent' });
    await expect(mailer.send(message)).rejects.toThrow();
  });
});

describe('e-mail job', () => {
  let ctx: TestContext;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    ctx = await createTestContext({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Vigía <alertas@vigia.test>' } });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('sends queued e-mail through the app worker', async () => {
    const id = await enqueueEmail(ctx.db.pool, message);
    expect((await waitForJob(ctx.db.pool, id)).status).toBe('succeeded');
    await smtp.waitFor(1);
    expect(smtp.received[0]).toMatchObject({
      subject: message.subject,
      envelope: { from: 'alertas@vigia.test' },
    });
    // not sensitive: the payload is kept as it was
    expect((await getJob(ctx.db.pool, id))!.payload).toEqual(message);
  });

  it('records the failure when delivery fails for good', async () => {
    const id = await enqueueEmail(ctx.db.pool, { ...message, to: 'no es una dirección' }, { maxAttempts: 1 });
    const job = await waitForJob(ctx.db.pool, id);
    expect(job.status).toBe('failed');
    expect(job.last_error).toBeTruthy();
  });
});
