import type { NotificationNamespace } from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import { insertNotifications, match, type NewNotification } from './dispatch.js';
import { loadClassPaths, loadRecipients } from './recipients.js';
import { type EventItem, queueDispatch } from './rollup.js';

// Public face of the notifications feature, for the features whose events are not price changes
// (image verification: a picture check turning incorrect; reports: a report ready or failed).

export interface NotifyInput {
  namespace: NotificationNamespace;
  /** e.g. 'image_incorrect', 'report_ready', 'report_failed' */
  kind: string;
  /** Every active user of the organisation… */
  orgId?: number;
  /** …or these users. */
  userIds?: number[];
  /** The seller concerned: the user's license must grant it and their subscription's sellers include it. */
  sellerId?: number | null;
  /** The listing concerned (products.id): brand / classification conditions apply to it. */
  productId?: number | null;
  title: string;
  /** The one-line Spanish explanation. */
  body: string;
  link?: string | null;
  /** Compared with the subscription's minimum size (images: products affected; reports: 0). */
  size?: number;
  occurredAt?: Date;
}

/**
 * Tells users something, through their subscriptions of `namespace` (enabled, channel, conditions,
 * minimum size) and within their license; delivery (push, e-mail, digest) follows through the job queue
 * (queued in `db`'s transaction when it is a transaction's client). Returns the notifications created.
 */
export async function notifyUsers(db: Queryable, n: NotifyInput): Promise<number> {
  if (!n.orgId && !n.userIds?.length) return 0;
  const users = await loadRecipients(db, n.userIds ?? null, n.orgId);
  let brand: number | null = null;
  let cls: number | null = null;
  if (n.productId) {
    const { rows } = await db.query<{ brand_id: number | null; classification_id: number | null }>(
      'select brand_id, classification_id from products where id = $1',
      [n.productId],
    );
    brand = rows[0]?.brand_id ?? null;
    cls = rows[0]?.classification_id ?? null;
  }
  const paths = await loadClassPaths(db);
  const rows: NewNotification[] = [];
  for (const u of users) {
    const sellerId = n.sellerId ?? null;
    // A seller-less notice (a report) concerns the user's own organisation: no seller or pivot condition.
    // A seller-less notice (a report) concerns the user's own organisation: no seller condition; the
    // seller of a notice may be the user's own pivot (an image check), so no pivot condition either.
    const probe = {
      namespace: n.namespace,
      kind: n.kind,
      seller_id: sellerId ?? -1,
      size: n.size ?? 0,
      items: n.productId ? [[n.productId, brand, cls, n.productId, 0, 0] as EventItem] : [],
    };
    const who = { ...u, licensedPivots: new Set<number>() };
    if (sellerId === null) who.sellers = new Set([-1]);
    const m = match(probe, who, paths);
    if (!m) continue;
    rows.push({
      user_id: u.id,
      namespace: n.namespace,
      kind: n.kind,
      event_id: null,
      seller_id: sellerId,
      occurred_at: (n.occurredAt ?? new Date()).toISOString(),
      channel: m.sub.channel,
      title: n.title,
      body: n.body,
      link: n.link ?? null,
      payload: { size: n.size ?? 0 },
    });
  }
  const created = await insertNotifications(db, rows);
  if (created) await queueDispatch(db);
  return created;
}
