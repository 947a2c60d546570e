import {
  type ExporterNotification,
  explainGroupEvent,
  explainPriceEvent,
  NAMESPACE_LABELS,
  type NotificationNamespace,
  type NotificationSubscription,
} from '@vigia/domain';
import type pg from 'pg';
import type { Config } from '../../config.js';
import { type Queryable, withTransaction } from '../../db/database.js';
import { enqueueEmail } from '../../platform/mail/index.js';
import { composeEmail, type MailLine } from './email.js';
import { loadClassPaths, loadRecipients, namespaceLicensed, type Recipient } from './recipients.js';
import type { EventItem } from './rollup.js';

// Delivery (issue 17 part 3), run by the job 'notifications:dispatch' (routes.ts registers it):
//   1. fan-out: every change event not dispatched yet becomes a notification of each user whose license
//      and subscription it matches (title and one-line explanation written for that user's filters);
//   2. delivery: every notification not delivered yet is pushed on the exporter channel (in-app), or
//      e-mailed at once (channel 'email', one message per user and batch), or left for the daily digest.
// Both steps take their rows with FOR UPDATE SKIP LOCKED and are idempotent (a user gets an event once:
// unique (user_id, event_id)), so a retried or concurrent job never duplicates anything. Events older
// than FRESH_MS (e.g. the 180 days the demo seeds) are stored and counted but neither pushed nor mailed.

export const FRESH_MS = 86_400_000;
const BATCH = 2000;

interface EventRow {
  id: string;
  namespace: NotificationNamespace;
  kind: string;
  seller_id: number;
  occurred_at: Date;
  size: number;
  facts: Record<string, number | string>;
  items: EventItem[];
}

export interface NewNotification {
  user_id: number;
  namespace: NotificationNamespace;
  kind: string;
  event_id: string | null;
  seller_id: number | null;
  occurred_at: string;
  channel: string;
  title: string;
  body: string;
  link: string | null;
  payload: Record<string, unknown>;
}

type PushFn = (userId: number, n: ExporterNotification) => void;

function inSubtree(paths: Map<number, number[]>, leaf: number | null, roots: number[]): boolean {
  if (!roots.length) return true;
  if (leaf === null) return false;
  const path = paths.get(leaf) ?? [];
  return roots.some((r) => path.includes(r));
}

/** Match group → the pivot sellers' listings in it ([seller, listing]). */
export type GroupPivots = Map<number, [number, number][]>;

/** An item the user is told about, with the user's own (pivot) listing of its match group. */
export interface UserItem {
  item: EventItem;
  pivotListing: number;
}

/**
 * Whether a user is told about an event, and with which of its items: namespace licensed and subscribed,
 * seller granted (and not one of the user's own), item in the license's classifications and in the
 * subscription's brands / classifications, and — given `groups` — matched to the user's pivot;
 * then the size (recomputed over those items) at least the subscription's minimum.
 */
export function match(
  e: Pick<EventRow, 'namespace' | 'seller_id' | 'size' | 'items'>,
  u: Recipient,
  paths: Map<number, number[]>,
  groups?: GroupPivots,
): { items: UserItem[]; size: number; sub: NotificationSubscription } | null {
  const sub = u.subs.get(e.namespace);
  if (!sub?.enabled || !namespaceLicensed(u.modules, e.namespace)) return null;
  if (!u.sellers.has(e.seller_id) || u.licensedPivots.has(e.seller_id)) return null;
  if (sub.sellers.length && !sub.sellers.includes(e.seller_id)) return null;
  const items: UserItem[] = [];
  for (const i of e.items) {
    if (!inSubtree(paths, i[2], u.classRoots) || !inSubtree(paths, i[2], sub.classifications)) continue;
    if (sub.brands.length && (i[1] === null || !sub.brands.includes(i[1]))) continue;
    if (!groups) {
      items.push({ item: i, pivotListing: i[0] });
      continue;
    }
    const own = groups.get(i[3])?.find(([seller]) => u.pivots.has(seller) && seller !== e.seller_id);
    if (own) items.push({ item: i, pivotListing: own[1] });
  }
  // An event without items (a notice from another feature about no listing) has no item conditions.
  if (e.items.length && !items.length) return null;
  let size = e.size;
  // promotions and assortment: the size is the number of listings, the user's
  if (items.length && e.namespace !== 'prices') size = items.length;
  if (size < sub.min_size) return null;
  return { items, size, sub };
}

/** A stored position (null or absent: none). */
const rankOf = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Average discount % over the items that have one (null when none has: promotions priced at 0 …). */
function averageDiscount(items: UserItem[]): number | null {
  let sum = 0;
  let n = 0;
  for (const x of items) {
    const d = x.item[4];
    if (d === null || d === undefined) continue;
    sum += d;
    n++;
  }
  return n ? sum / n : null;
}

function linkOf(e: EventRow, items: UserItem[]): string {
  if (e.namespace === 'prices' || items.length === 1) return `/app/product/${items[0].pivotListing}`;
  if (e.namespace === 'promotions') return '/app/promotions-by-day';
  return e.kind === 'new_listing' ? '/app/assortment-by-ecommerce' : '/app/assortment-by-stock';
}

/** Step 1: events → notifications. Returns the number of events dispatched. */
export async function fanOut(pool: pg.Pool): Promise<number> {
  let total = 0;
  let recipients: Recipient[] | null = null;
  let paths: Map<number, number[]> | null = null;
  for (;;) {
    const done = await withTransaction(pool, async (client) => {
      const { rows: events } = await client.query<EventRow>(
        `select id, namespace, kind, seller_id, occurred_at, size, facts, items
           from change_events where dispatched_at is null
          order by id limit ${BATCH} for update skip locked`,
      );
      if (!events.length) return 0;
      recipients ??= await loadRecipients(client, null);
      paths ??= await loadClassPaths(client);
      const groups = await groupPivots(client, events, recipients);
      const names = await namesOf(client, events, groups);
      const out: NewNotification[] = [];
      for (const e of events) {
        for (const u of recipients) {
          const m = match(e, u, paths, groups);
          if (!m) continue;
          const seller = names.sellers.get(e.seller_id) ?? `eCommerce ${e.seller_id}`;
          const product = names.products.get(m.items[0].pivotListing) ?? 'un producto';
          const text =
            e.namespace === 'prices'
              ? explainPriceEvent(e.kind, {
                  seller,
                  product,
                  currency: String(e.facts.currency),
                  before: Number(e.facts.before),
                  after: Number(e.facts.after),
                  rankBefore: rankOf(e.facts.rankBefore),
                  rankAfter: rankOf(e.facts.rankAfter),
                  days: Number(e.facts.days ?? 0),
                })
              : explainGroupEvent(e.kind, {
                  seller,
                  count: m.items.length,
                  avgDiscount: averageDiscount(m.items),
                  cheapest: m.items.reduce((s, x) => s + x.item[5], 0),
                  product,
                });
          out.push({
            user_id: u.id,
            namespace: e.namespace,
            kind: e.kind,
            event_id: e.id,
            seller_id: e.seller_id,
            occurred_at: e.occurred_at.toISOString(),
            channel: m.sub.channel,
            title: text.title,
            body: text.body,
            link: linkOf(e, m.items),
            payload: { size: Math.round(m.size * 10) / 10, count: m.items.length },
          });
        }
      }
      await insertNotifications(client, out);
      await client.query('update change_events set dispatched_at = now() where id = any($1::bigint[])', [
        events.map((e) => e.id),
      ]);
      return events.length;
    });
    total += done;
    if (done < BATCH) return total;
  }
}

export async function insertNotifications(client: Queryable, rows: NewNotification[]): Promise<number> {
  if (!rows.length) return 0;
  const r = await client.query(
    `insert into notifications (user_id, namespace, kind, event_id, seller_id, occurred_at, channel, title, body,
                                link, payload)
     select user_id, namespace, kind, event_id, seller_id, occurred_at, channel, title, body, link, payload
       from jsonb_to_recordset($1::jsonb)
            x(user_id int, namespace text, kind text, event_id bigint, seller_id int, occurred_at timestamptz,
              channel text, title text, body text, link text, payload jsonb)
     on conflict do nothing`,
    [JSON.stringify(rows)],
  );
  return r.rowCount ?? 0;
}

/** The pivot sellers' listings of the events' match groups (every recipient's licensed pivots). */
async function groupPivots(
  client: pg.ClientBase,
  events: EventRow[],
  recipients: Recipient[],
): Promise<GroupPivots> {
  const groupIds = [...new Set(events.flatMap((e) => e.items.map((i) => i[3])))];
  const pivots = [...new Set(recipients.flatMap((u) => [...u.licensedPivots]))];
  const { rows } = await client.query<{ group_id: string; seller_id: number; product_id: string }>(
    `select group_id, seller_id, product_id from listing_current
      where group_id = any($1::bigint[]) and seller_id = any($2::int[]) and published
      order by product_id`,
    [groupIds, pivots],
  );
  const out: GroupPivots = new Map();
  for (const r of rows) {
    const g = Number(r.group_id);
    const list = out.get(g) ?? [];
    if (!out.has(g)) out.set(g, list);
    list.push([r.seller_id, Number(r.product_id)]);
  }
  return out;
}

async function namesOf(client: pg.ClientBase, events: EventRow[], groups: GroupPivots) {
  const sellerIds = [...new Set(events.map((e) => e.seller_id))];
  const productIds = [...new Set([...groups.values()].flatMap((l) => l.map((x) => x[1])))];
  const [s, p] = await Promise.all([
    client.query<{ id: number; name: string }>('select id, name from sellers where id = any($1::int[])', [
      sellerIds,
    ]),
    client.query<{ id: string; name: string | null }>(
      'select id, name from products where id = any($1::bigint[])',
      [productIds],
    ),
  ]);
  return {
    sellers: new Map(s.rows.map((r) => [r.id, r.name])),
    products: new Map(p.rows.map((r) => [Number(r.id), r.name ?? `producto ${r.id}`])),
  };
}

interface Undelivered {
  id: string;
  user_id: number;
  email: string;
  timezone: string;
  namespace: NotificationNamespace;
  title: string;
  body: string;
  link: string | null;
  channel: string;
  occurred_at: Date;
  created_at: Date;
}

/** Step 2: push / e-mail the notifications not delivered yet. Returns how many were delivered. */
export async function deliver(
  pool: pg.Pool,
  config: Config,
  push: PushFn,
  now = new Date(),
): Promise<number> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<Undelivered>(
      `select n.id, n.user_id, u.email, u.timezone, n.namespace, n.title, n.body, n.link, n.channel, n.occurred_at,
              n.created_at
         from notifications n join users u on u.id = n.user_id
        where n.delivered_at is null
        order by n.id limit 5000 for update of n skip locked`,
    );
    if (!rows.length) return 0;
    const fresh = (r: Undelivered) => now.getTime() - r.occurred_at.getTime() < FRESH_MS;
    const mails = new Map<number, Undelivered[]>();
    for (const r of rows) {
      if (!fresh(r)) continue;
      push(r.user_id, {
        id: Number(r.id),
        namespace: r.namespace,
        title: r.title,
        body: r.body,
        link: r.link,
        created_at: r.occurred_at.toISOString(),
      });
      if (r.channel === 'email') {
        const list = mails.get(r.user_id) ?? [];
        if (!mails.has(r.user_id)) mails.set(r.user_id, list);
        list.push(r);
      }
    }
    for (const [userId, list] of mails) {
      const lines: MailLine[] = list.map((r) => ({ ...r, occurredAt: r.occurred_at }));
      const message = composeEmail(
        config,
        { userId, email: list[0].email, timezone: list[0].timezone },
        lines,
        false,
      );
      const jobId = await enqueueEmail(client, message);
      await client.query(
        `insert into notification_sends (user_id, kind, notification_ids, job_id) values ($1, 'email', $2, $3)`,
        [userId, list.map((r) => r.id), jobId],
      );
    }
    await client.query('update notifications set delivered_at = now() where id = any($1::bigint[])', [
      rows.map((r) => r.id),
    ]);
    return rows.length;
  });
}

export { NAMESPACE_LABELS };
