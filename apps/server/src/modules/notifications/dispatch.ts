import {
  type ExporterNotification,
  explainGroupEvent,
  explainPriceEvent,
  NAMESPACE_LABELS,
  type NotificationNamespace,
  type NotificationSubscription,
  rankingPosition,
} from '@vigia/domain';
import type pg from 'pg';
import type { Config } from '../../config.js';
import { type Queryable, withTransaction } from '../../db/database.js';
import { type FxTable, loadFx, today } from '../../market/index.js';
import { enqueueEmail } from '../../platform/mail/index.js';
import { dayZone } from '../ingest/index.js';
import { composeEmail, type MailLine } from './email.js';
import {
  loadClassPaths,
  loadRecipients,
  namespaceLicensed,
  namespaceModulesParam,
  type Recipient,
  stillAllowedSql,
} from './recipients.js';
import type { EventItem } from './rollup.js';

// Delivery (issue 17 part 3), run by the job 'notifications:dispatch' (routes.ts registers it):
//   1. fan-out: every change event not dispatched yet becomes a notification of each user whose license
//      and subscription it matches (title and one-line explanation written for that user's filters);
//   2. delivery: every notification not delivered yet is pushed on the exporter channel (in-app), or
//      e-mailed at once (channel 'email', one message per user and batch), or left for the daily digest.
// Both steps take their rows with FOR UPDATE SKIP LOCKED and are idempotent (a user gets an event once:
// unique (user_id, event_id)), so a retried or concurrent job never duplicates anything. Events older
// than FRESH_MS (e.g. the 180 days the demo seeds) are stored but neither pushed nor mailed, and stored
// READ: history backfilled at a first start is not news, so a first login does not open on ~1,000 unread
// (issue 31 item 5; migration 330 marks those an earlier version stored unread).

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

/**
 * The rates the batch's price events need: their listings' currencies and the recipients', on the
 * events' market days (the rate in force on the day each event describes: market core loadFx).
 */
async function pricesFx(
  client: Queryable,
  events: EventRow[],
  recipients: Recipient[],
  zones: string[],
): Promise<FxTable | null> {
  const priced = events.filter((e) => e.namespace === 'prices');
  if (!priced.length) return null;
  const days = priced.flatMap((e) => zones.map((z) => today(e.occurred_at, z)));
  const currencies = [
    ...new Set([...priced.map((e) => String(e.facts.currency)), ...recipients.map((r) => r.currency)]),
  ];
  return loadFx(
    client,
    currencies,
    days.reduce((a, b) => (a < b ? a : b)),
    days.reduce((a, b) => (a > b ? a : b)),
  );
}

/**
 * A price event's prices in the user's currency, converted with the rate in force on the event's day (its
 * day in `zone`, the user's organisation's day zone); in the listing's own currency (and so named) when a
 * rate is missing.
 */
export function inUserCurrency(
  fx: FxTable | null,
  e: Pick<EventRow, 'facts' | 'occurred_at'>,
  currency: string,
  zone: string,
): { currency: string; before: number; after: number } {
  const own = String(e.facts.currency);
  const before = Number(e.facts.before);
  const after = Number(e.facts.after);
  if (!fx || own === currency) return { currency: own, before, after };
  const day = today(e.occurred_at, zone);
  const b = fx.convert(before, own, currency, day);
  const a = fx.convert(after, own, currency, day);
  return b === null || a === null ? { currency: own, before, after } : { currency, before: b, after: a };
}

/** A stored position (null or absent: none). */
const rankOf = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * The market around each price event at its instant, from the price history (price_intervals) rather than
 * from the trusted states the roll-up compared with: those can be another moment's — the demo's history
 * is loaded seller after seller, so a seller's first days were ranked against the others' last state — and
 * an alert must be true on that day's prices (issue 31 item 5). Per event: the listing's effective price at
 * the instant and whether it was out of stock just before, and each other seller's lowest in-stock effective
 * price of the match group at that instant (lowest of normal, sale and exclusive: the default price mode),
 * all in CLP at the rates of the event's market day in zone `$6` (a recipient's day zone: computed once per
 * zone the recipients' organisations read). Ranking in CLP is ranking in any currency the same day's rates
 * convert to (one factor for every price), so it is the user's ranking too.
 */
const POSITIONS_SQL = `
  with ev as (
    select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::int[], $5::timestamptz[])
             as x(id, product_id, group_id, seller_id, t)
  ), ev_day as (
    select ev.*, vigia_day(ev.t, $6::text) as day from ev
  ), rates as (
    select d.day, r.currency, r.clp_per_unit::float8 as clp
      from (select distinct day from ev_day) d cross join lateral vigia_fx_rates_on(d.day) r
     where r.currency <> 'CLP'
    union all select distinct day, 'CLP', 1::float8 from ev_day
  )
  select e.id::text as id,
         (select r.clp * (select min(x) from unnest(array[pi.normal_price, pi.sale_price, pi.exclusive_price]) x
                           where x > 0)::float8
            from price_intervals pi join rates r on r.day = e.day and r.currency = pi.currency
           where pi.product_id = e.product_id and pi.valid_from <= e.t
             and coalesce(pi.valid_to, 'infinity') > e.t and not pi.stock_out
           limit 1) as mine,
         (select r.clp from listing_current lc join rates r on r.day = e.day and r.currency = lc.currency
           where lc.product_id = e.product_id) as rate,
         coalesce((select pi.stock_out from price_intervals pi
                    where pi.product_id = e.product_id and pi.valid_from < e.t
                    order by pi.valid_from desc limit 1), false) as was_out,
         coalesce((select array_agg(m) from (
            select min(r.clp * (select min(x) from unnest(array[pi.normal_price, pi.sale_price, pi.exclusive_price]) x
                                 where x > 0)::float8) as m
              from listing_current lc
              join price_intervals pi on pi.product_id = lc.product_id and pi.valid_from <= e.t
                                     and coalesce(pi.valid_to, 'infinity') > e.t and not pi.stock_out
              join rates r on r.day = e.day and r.currency = pi.currency
             where lc.group_id = e.group_id and lc.seller_id <> e.seller_id and lc.published
             group by lc.seller_id) o where m is not null), '{}') as others
    from ev_day e`;

interface Position {
  /** the listing's effective price at the instant, in CLP (null: none, out of stock) */
  mine: number | null;
  /** CLP per unit of the listing's currency that day */
  rate: number | null;
  wasOut: boolean;
  /** each other seller's lowest price, in CLP */
  others: number[];
}

async function positionsAt(
  client: Queryable,
  events: EventRow[],
  zone: string,
): Promise<Map<string, Position>> {
  const priced = events.filter((e) => e.namespace === 'prices' && e.items.length);
  if (!priced.length) return new Map();
  const { rows } = await client.query<{
    id: string;
    mine: number | null;
    rate: number | null;
    was_out: boolean;
    others: number[];
  }>(POSITIONS_SQL, [
    priced.map((e) => e.id),
    priced.map((e) => e.items[0][0]),
    priced.map((e) => e.items[0][3]),
    priced.map((e) => e.seller_id),
    priced.map((e) => e.occurred_at),
    zone,
  ]);
  return new Map(
    rows.map((r) => [r.id, { mine: r.mine, rate: r.rate, wasOut: r.was_out, others: r.others.map(Number) }]),
  );
}

/**
 * A price event's positions on the prices in force at its instant (positionsAt), or null when what it
 * would say is not true there: "ahora es el más barato" needs position 1 after and not 1 before (or out of
 * stock before); "dejó de ser el más barato" position 1 before and not after. The before position compares
 * the old price with the same competitor prices, so a rise never makes a listing the cheapest unless it
 * comes back from out of stock (said so: wasOut). Without history at the instant the stored facts stand.
 */
export function checkedPositions(
  kind: string,
  facts: Record<string, number | string>,
  p: Position | undefined,
): { rankBefore: number | null; rankAfter: number | null; wasOut: boolean } | null {
  const stored = {
    rankBefore: rankOf(facts.rankBefore),
    rankAfter: rankOf(facts.rankAfter),
    wasOut: (facts as Record<string, unknown>).wasOut === true,
  };
  if (!p || p.mine === null || p.rate === null) return kind === 'repricing' ? stored : p ? null : stored;
  const rankAfter = rankingPosition(p.mine, p.others);
  if (kind === 'repricing') return { ...stored, rankAfter };
  const rankBefore = p.wasOut ? null : rankingPosition(Number(facts.before) * p.rate, p.others);
  if (rankAfter === null) return null;
  if (kind === 'cheapest_gained')
    return rankAfter === 1 && (p.wasOut || rankBefore !== 1)
      ? { rankBefore, rankAfter, wasOut: p.wasOut }
      : null;
  // cheapest_lost
  return !p.wasOut && rankBefore === 1 && rankAfter > 1 ? { rankBefore, rankAfter, wasOut: false } : null;
}

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

/** Listings a promotion alert's link names at most (the drill-down's `products` bound). */
export const LINK_PRODUCTS_MAX = 500;

/**
 * Where a notice leads. A promotion alert opens Promociones por día on that seller, that market day (in
 * `zone`, the recipient's organisation's day zone, the days its Promociones por día shows) and
 * the classifications (license roots) of its products, with its products' promotions listed at once
 * (`seller` + `products`: the page's drill-down of those listings; issue 31 item 5), so that "TiendaSol
 * inició promociones en 153 productos" can be found.
 */
export function linkOf(e: EventRow, items: UserItem[], zone: string, paths?: Map<number, number[]>): string {
  if (e.namespace === 'prices' || (items.length === 1 && e.namespace !== 'promotions'))
    return `/app/product/${items[0].pivotListing}`;
  if (e.namespace === 'promotions') {
    const day = today(e.occurred_at, zone);
    const roots = [
      ...new Set(items.flatMap((x) => (x.item[2] === null ? [] : [paths?.get(x.item[2])?.[0] ?? x.item[2]]))),
    ];
    const q = new URLSearchParams({ from_date: day, to_date: day, sellersIds: String(e.seller_id) });
    if (roots.length) q.set('classificationsIds', roots.join(','));
    q.set('seller', String(e.seller_id));
    q.set('products', [...new Set(items.map((x) => x.item[0]))].slice(0, LINK_PRODUCTS_MAX).join(','));
    return `/app/promotions-by-day?${q.toString().replace(/%2C/g, ',')}`;
  }
  return e.kind === 'new_listing' ? '/app/assortment-by-ecommerce' : '/app/assortment-by-stock';
}

/** Step 1: events → notifications. Returns the number of events dispatched. */
export async function fanOut(pool: pg.Pool): Promise<number> {
  let total = 0;
  let recipients: Recipient[] | null = null;
  let paths: Map<number, number[]> | null = null;
  let zoneOf: Map<number, string> | null = null;
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
      // each recipient's day zone (its organisation's market zone once its roll-up rows are ready): the
      // day whose rates convert its amounts, rank its prices and date its links
      zoneOf ??= await dayZones(client, recipients);
      const zones = [...new Set(zoneOf.values())];
      const groups = await groupPivots(client, events, recipients);
      const fx = await pricesFx(client, events, recipients, zones);
      const names = await namesOf(client, events, groups);
      const positions = new Map<string, Map<string, Position>>();
      for (const z of zones) positions.set(z, await positionsAt(client, events, z));
      const out: NewNotification[] = [];
      for (const e of events) {
        // a price event whose claim does not hold on the prices of its instant (at the rates of its day in
        // the recipient's zone) tells nobody in that zone
        const ranksIn = new Map(
          zones.map((z) => [
            z,
            e.namespace === 'prices'
              ? checkedPositions(e.kind, e.facts, positions.get(z)?.get(String(e.id)))
              : null,
          ]),
        );
        for (const u of recipients) {
          const zone = zoneOf.get(u.id) as string;
          const ranks = ranksIn.get(zone) ?? null;
          if (e.namespace === 'prices' && !ranks) continue;
          const m = match(e, u, paths, groups);
          if (!m) continue;
          const seller = names.sellers.get(e.seller_id) ?? `eCommerce ${e.seller_id}`;
          const product = names.products.get(m.items[0].pivotListing) ?? 'un producto';
          const text =
            e.namespace === 'prices'
              ? explainPriceEvent(e.kind, {
                  seller,
                  product,
                  ...inUserCurrency(fx, e, u.currency, zone),
                  rankBefore: ranks?.rankBefore ?? null,
                  rankAfter: ranks?.rankAfter ?? null,
                  wasOut: ranks?.wasOut,
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
            link: linkOf(e, m.items, zone, paths),
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

/** Each recipient's day zone: dayZone of its organisation's market zone (one look-up per zone). */
async function dayZones(client: Queryable, recipients: Recipient[]): Promise<Map<number, string>> {
  const byZone = new Map<string, string>();
  for (const z of new Set(recipients.map((u) => u.marketZone))) byZone.set(z, await dayZone(client, z));
  return new Map(recipients.map((u) => [u.id, byZone.get(u.marketZone) as string]));
}

export async function insertNotifications(client: Queryable, rows: NewNotification[]): Promise<number> {
  if (!rows.length) return 0;
  const r = await client.query(
    `insert into notifications (user_id, namespace, kind, event_id, seller_id, occurred_at, channel, title, body,
                                link, payload, read_at)
     select user_id, namespace, kind, event_id, seller_id, occurred_at, channel, title, body, link, payload,
            case when occurred_at < now() - make_interval(secs => $2::float8 / 1000) then now() end
       from jsonb_to_recordset($1::jsonb)
            x(user_id int, namespace text, kind text, event_id bigint, seller_id int, occurred_at timestamptz,
              channel text, title text, body text, link text, payload jsonb)
     on conflict do nothing`,
    [JSON.stringify(rows), FRESH_MS],
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
    const { rows } = await client.query<Undelivered & { allowed: boolean }>(
      `select n.id, n.user_id, u.email, u.timezone, n.namespace, n.title, n.body, n.link, n.channel, n.occurred_at,
              n.created_at, ${stillAllowedSql('$1')} as allowed
         from notifications n join users u on u.id = n.user_id
        where n.delivered_at is null
        order by n.id limit 5000 for update of n skip locked`,
      [namespaceModulesParam()],
    );
    if (!rows.length) return 0;
    // checked now, not when it was made: a deactivated user, a module or seller gone → not sent (issue 26)
    const fresh = (r: Undelivered & { allowed: boolean }) =>
      r.allowed && now.getTime() - r.occurred_at.getTime() < FRESH_MS;
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
