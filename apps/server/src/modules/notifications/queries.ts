import {
  DEFAULT_TIMEZONE,
  NOTIFICATION_NAMESPACES,
  type NotificationItem,
  type NotificationNamespace,
  type NotificationSubscription,
} from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import type { License } from '../../plugins/auth.js';
import { namespaceLicensed, SUBSCRIPTION_COLUMNS, subscriptionOf } from './recipients.js';

// The user's notifications, always within the license: namespaces its modules open, sellers it grants
// (a notification about a seller the license no longer grants is not shown).

export function licensedNamespaces(license: License): NotificationNamespace[] {
  const modules = new Set(license.modules);
  return NOTIFICATION_NAMESPACES.filter((ns) => namespaceLicensed(modules, ns));
}

const SCOPE = `n.user_id = $1 and n.namespace = any($2::text[]) and (n.seller_id is null or n.seller_id = any($3::int[]))`;

function scopeParams(userId: number, license: License) {
  return [userId, licensedNamespaces(license), license.sellers];
}

export async function listNotifications(
  db: Queryable,
  userId: number,
  license: License,
  q: { page: number; page_size: number; namespace?: NotificationNamespace; state: 'all' | 'unread' | 'read' },
): Promise<{ count: number; unread: number; results: NotificationItem[] }> {
  const params: unknown[] = scopeParams(userId, license);
  let where = SCOPE;
  if (q.namespace) {
    params.push(q.namespace);
    where += ` and n.namespace = $${params.length}`;
  }
  if (q.state === 'unread') where += ' and n.read_at is null';
  if (q.state === 'read') where += ' and n.read_at is not null';
  const [list, counts] = await Promise.all([
    db.query<{
      id: string;
      namespace: NotificationNamespace;
      kind: string;
      title: string;
      body: string;
      link: string | null;
      occurred_at: Date;
      created_at: Date;
      read: boolean;
    }>(
      `select n.id, n.namespace, n.kind, n.title, n.body, n.link, n.occurred_at, n.created_at,
              n.read_at is not null as read
         from notifications n where ${where}
        order by n.occurred_at desc, n.id desc
        limit ${q.page_size} offset ${(q.page - 1) * q.page_size}`,
      params,
    ),
    db.query<{ count: number; unread: number }>(
      `select (select count(*)::int from notifications n where ${where}) as count,
              (select count(*)::int from notifications n where ${SCOPE} and n.read_at is null) as unread`,
      params,
    ),
  ]);
  return {
    count: counts.rows[0].count,
    unread: counts.rows[0].unread,
    results: list.rows.map((r) => ({
      ...r,
      id: Number(r.id),
      occurred_at: r.occurred_at.toISOString(),
      created_at: r.created_at.toISOString(),
    })),
  };
}

export async function unreadCount(db: Queryable, userId: number, license: License): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from notifications n where ${SCOPE} and n.read_at is null`,
    scopeParams(userId, license),
  );
  return rows[0].n;
}

/** Marks one notification read; false when it is not the user's (or outside the license). */
export async function markRead(
  db: Queryable,
  userId: number,
  license: License,
  id: number,
): Promise<boolean> {
  const { rows } = await db.query(
    `update notifications n set read_at = coalesce(read_at, now()) where n.id = $4 and ${SCOPE} returning n.id`,
    [...scopeParams(userId, license), id],
  );
  return rows.length > 0;
}

export async function markAllRead(
  db: Queryable,
  userId: number,
  license: License,
  namespace?: NotificationNamespace,
): Promise<void> {
  await db.query(
    `update notifications n set read_at = now()
      where ${SCOPE} and n.read_at is null and ($4::text is null or n.namespace = $4)`,
    [...scopeParams(userId, license), namespace ?? null],
  );
}

export async function userSubscriptions(db: Queryable, userId: number): Promise<NotificationSubscription[]> {
  const { rows } = await db.query(
    `select ${SUBSCRIPTION_COLUMNS} from notification_subscriptions where user_id = $1`,
    [userId],
  );
  return rows.map(subscriptionOf);
}

export async function saveSubscription(
  db: Queryable,
  userId: number,
  s: NotificationSubscription,
): Promise<void> {
  await db.query(
    `insert into notification_subscriptions (user_id, namespace, enabled, channel, digest_hour, min_size, seller_ids,
                                             brand_ids, classification_ids, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
     on conflict (user_id, namespace) do update set
       enabled = excluded.enabled, channel = excluded.channel, digest_hour = excluded.digest_hour,
       min_size = excluded.min_size, seller_ids = excluded.seller_ids, brand_ids = excluded.brand_ids,
       classification_ids = excluded.classification_ids, updated_at = now()`,
    [
      userId,
      s.namespace,
      s.enabled,
      s.channel,
      s.digest_hour,
      s.min_size,
      s.sellers,
      s.brands,
      s.classifications,
    ],
  );
}

/** One-click unsubscribe: the namespace's e-mails stop (it stays in the app). */
export async function stopEmails(db: Queryable, userId: number, ns: NotificationNamespace): Promise<boolean> {
  const { rows } = await db.query('select timezone from users where id = $1', [userId]);
  if (!rows.length) return false;
  await db.query(
    `insert into notification_subscriptions (user_id, namespace, enabled, channel, min_size)
     values ($1, $2, true, 'app', $3)
     on conflict (user_id, namespace) do update set channel = 'app', updated_at = now()`,
    [userId, ns, 0],
  );
  return true;
}

export async function userTimezone(db: Queryable, userId: number): Promise<string> {
  const { rows } = await db.query<{ timezone: string }>('select timezone from users where id = $1', [userId]);
  return rows[0]?.timezone ?? DEFAULT_TIMEZONE;
}
