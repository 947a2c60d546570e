import { isoDateInZone, type NotificationNamespace } from '@vigia/domain';
import type pg from 'pg';
import type { Config } from '../../config.js';
import { withTransaction } from '../../db/database.js';
import { enqueueEmail } from '../../platform/mail/index.js';
import { composeEmail } from './email.js';

// The daily digest (channel 'email_digest'): at each full hour the job 'notifications:digest' sends, to
// every user whose digest hour (their own timezone) it is, one e-mail with the digest notifications not
// sent yet from the last DIGEST_WINDOW_MS, marks them digested and records the send; then it queues
// itself for the next hour. Re-running an hour sends nothing twice (digested_at).

export const DIGEST_QUEUE = 'notifications:digest';
const DIGEST_WINDOW_MS = 36 * 3_600_000;

function localHour(now: Date, timeZone: string): number {
  const h = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(now);
  return Number(h);
}

/** Sends the digests due at `now`; returns the number of e-mails queued. */
export async function sendDigests(pool: pg.Pool, config: Config, now = new Date()): Promise<number> {
  const { rows: subs } = await pool.query<{
    user_id: number;
    email: string;
    timezone: string;
    namespace: NotificationNamespace;
    digest_hour: number;
  }>(
    `select s.user_id, u.email, u.timezone, s.namespace, s.digest_hour
       from notification_subscriptions s join users u on u.id = s.user_id
      where s.enabled and s.channel = 'email_digest' and u.is_active`,
  );
  const due = new Map<number, { email: string; timezone: string; namespaces: string[] }>();
  for (const s of subs) {
    if (localHour(now, s.timezone) !== s.digest_hour) continue;
    const d = due.get(s.user_id) ?? { email: s.email, timezone: s.timezone, namespaces: [] };
    if (!due.has(s.user_id)) due.set(s.user_id, d);
    d.namespaces.push(s.namespace);
  }
  let sent = 0;
  for (const [userId, d] of due) {
    sent += await withTransaction(pool, async (client) => {
      const { rows } = await client.query<{
        id: string;
        namespace: NotificationNamespace;
        title: string;
        body: string;
        link: string | null;
        occurred_at: Date;
      }>(
        `select id, namespace, title, body, link, occurred_at from notifications
          where user_id = $1 and namespace = any($2::text[]) and channel = 'email_digest' and digested_at is null
            and occurred_at > $3
          order by namespace, occurred_at, id
          for update skip locked`,
        [userId, d.namespaces, new Date(now.getTime() - DIGEST_WINDOW_MS)],
      );
      if (!rows.length) return 0;
      const message = composeEmail(
        config,
        { userId, email: d.email, timezone: d.timezone },
        rows.map((r) => ({ ...r, occurredAt: r.occurred_at })),
        true,
      );
      const jobId = await enqueueEmail(client, message);
      const ids = rows.map((r) => r.id);
      await client.query(
        `insert into notification_sends (user_id, kind, notification_ids, job_id, local_day)
         values ($1, 'digest', $2, $3, $4)`,
        [userId, ids, jobId, isoDateInZone(now, d.timezone)],
      );
      await client.query('update notifications set digested_at = $2 where id = any($1::bigint[])', [
        ids,
        now,
      ]);
      return 1;
    });
  }
  return sent;
}
