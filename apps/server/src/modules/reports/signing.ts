import { createHmac, timingSafeEqual } from 'node:crypto';
import { strictBase64url } from '../../lib/jwt.js';

// Signed links (HMAC-SHA256, key derived from JWT_SECRET and the link's purpose, so nothing new to
// configure and a link of one kind never verifies as the other). Short enough for a path segment
// (Fastify's 100-character parameter limit):
//   file link     <task uuid>.<owner id>.<expiry unix s>.<mac>           → tampered 403, expired 410
//   unsubscribe   <subscription id>.<mac over id, address and type>     (no expiry: the e-mail's one-click
//                                                                         link keeps working)
// The MAC is truncated to 144 bits (24 base64url characters).

type LinkPurpose = 'report-file' | 'unsubscribe';
const MAC_BYTES = 18;

function macOf(secret: string, purpose: LinkPurpose, parts: readonly (string | number)[]): Buffer {
  const key = createHmac('sha256', secret).update(`vigia:${purpose}`).digest();
  return createHmac('sha256', key).update(parts.join('|')).digest().subarray(0, MAC_BYTES);
}

/** The MAC as written (canonical base64url only: one spelling per link) matches the one computed. */
function macMatches(given: string, want: Buffer): boolean {
  const buf = strictBase64url(given);
  return buf !== null && buf.length === want.length && timingSafeEqual(buf, want);
}

/** A decimal without leading zeros (one spelling per number), at most `digits` long. */
const canonicalInt = (digits: number) => new RegExp(`^(?:0|[1-9]\\d{0,${digits - 1}})$`);
const USER_ID = canonicalInt(10);
const EXPIRY = canonicalInt(12);

export interface FileLinkPayload {
  /** task id */
  t: string;
  /** owner's user id */
  u: number;
  /** expiry, unix seconds */
  e: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function signFileLink(secret: string, p: FileLinkPayload): string {
  return `${p.t}.${p.u}.${p.e}.${macOf(secret, 'report-file', [p.t, p.u, p.e]).toString('base64url')}`;
}

/** The payload of a file link whose MAC is right (expired or not); null when tampered or malformed. */
export function readFileLink(secret: string, token: string): FileLinkPayload | null {
  const parts = token.split('.');
  if (parts.length !== 4 || !UUID.test(parts[0]) || !USER_ID.test(parts[1]) || !EXPIRY.test(parts[2]))
    return null;
  const p = { t: parts[0], u: Number(parts[1]), e: Number(parts[2]) };
  return macMatches(parts[3], macOf(secret, 'report-file', [p.t, p.u, p.e])) ? p : null;
}

export interface UnsubscribeTarget {
  id: number;
  email: string;
  report_type: string;
}

export function signUnsubscribe(secret: string, s: UnsubscribeTarget): string {
  return `${s.id}.${macOf(secret, 'unsubscribe', [s.id, s.email.toLowerCase(), s.report_type]).toString('base64url')}`;
}

/** The subscription id an unsubscribe token names (its MAC is checked against the row: unsubscribeValid). */
export function unsubscribeIdOf(token: string): number | null {
  const m = /^(0|[1-9]\d{0,9})\.[A-Za-z0-9_-]+$/.exec(token);
  return m ? Number(m[1]) : null;
}

export function unsubscribeValid(secret: string, token: string, s: UnsubscribeTarget): boolean {
  const mac = token.split('.')[1] ?? '';
  return macMatches(mac, macOf(secret, 'unsubscribe', [s.id, s.email.toLowerCase(), s.report_type]));
}
