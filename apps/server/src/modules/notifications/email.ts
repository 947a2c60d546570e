import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatDateTime, NAMESPACE_LABELS, type NotificationNamespace } from '@vigia/domain';
import type { Config } from '../../config.js';
import type { EmailJob } from '../../platform/mail/index.js';

// Notification e-mails (immediate and daily digest) and their signed one-click unsubscribe links: one per
// namespace in the message, GET /v1/notifications/unsubscribe?u=&ns=&sig= (public; the signature is an
// HMAC of user and namespace with the server's secret, so a link cannot be forged for another user).

export interface MailLine {
  namespace: NotificationNamespace;
  title: string;
  body: string;
  link: string | null;
  occurredAt: Date;
}

export function unsubscribeSignature(secret: string, userId: number, ns: string): string {
  return createHmac('sha256', secret).update(`notifications-unsubscribe:${userId}:${ns}`).digest('hex');
}

export function verifyUnsubscribe(secret: string, userId: number, ns: string, sig: string): boolean {
  const want = Buffer.from(unsubscribeSignature(secret, userId, ns), 'hex');
  const got = Buffer.from(sig, 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}

export function unsubscribeUrl(config: Config, userId: number, ns: string): string {
  const base = config.PUBLIC_URL.replace(/\/$/, '');
  return `${base}/v1/notifications/unsubscribe?u=${userId}&ns=${ns}&sig=${unsubscribeSignature(config.JWT_SECRET, userId, ns)}`;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One e-mail with the lines given (digest: grouped by namespace under a daily subject). */
export function composeEmail(
  config: Config,
  to: { userId: number; email: string; timezone: string },
  lines: MailLine[],
  digest: boolean,
): EmailJob {
  const base = config.PUBLIC_URL.replace(/\/$/, '');
  const subject = digest
    ? `Vigía: tu resumen diario (${lines.length} ${lines.length === 1 ? 'novedad' : 'novedades'})`
    : lines.length === 1
      ? `Vigía: ${lines[0].title}`
      : `Vigía: ${lines.length} novedades`;
  const namespaces = [...new Set(lines.map((l) => l.namespace))];
  const text: string[] = [];
  const html: string[] = [];
  for (const ns of namespaces) {
    text.push(`${NAMESPACE_LABELS[ns]}`);
    html.push(`<h3>${NAMESPACE_LABELS[ns]}</h3><ul>`);
    for (const l of lines.filter((x) => x.namespace === ns)) {
      const when = formatDateTime(l.occurredAt, to.timezone);
      const url = l.link ? `${base}${l.link}` : null;
      text.push(`• ${l.body} (${when})${url ? `\n  ${url}` : ''}`);
      html.push(
        `<li>${escapeHtml(l.body)} <small>(${when})</small>${url ? ` <a href="${escapeHtml(url)}">Ver</a>` : ''}</li>`,
      );
    }
    html.push('</ul>');
    text.push('');
  }
  const unsub = namespaces.map((ns) => ({ ns, url: unsubscribeUrl(config, to.userId, ns) }));
  text.push('No quieres recibir más correos de:');
  for (const u of unsub) text.push(`  ${NAMESPACE_LABELS[u.ns]}: ${u.url}`);
  html.push(
    `<p><small>No quieres recibir más correos de: ${unsub
      .map((u) => `<a href="${escapeHtml(u.url)}">${NAMESPACE_LABELS[u.ns]}</a>`)
      .join(' · ')}</small></p>`,
  );
  return { to: to.email, subject, text: text.join('\n'), html: html.join('\n') };
}
