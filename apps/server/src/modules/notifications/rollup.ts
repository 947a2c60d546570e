import type pg from 'pg';
import type { Queryable } from '../../db/database.js';
import { TZ_SQL } from '../../market/index.js';
import { type RollupContext, registerRollup } from '../ingest/index.js';
import {
  evaluate,
  isMassStockOut,
  type ListingState,
  type Observed,
  RULES,
  type SuppressReason,
} from './rules.js';

// Change events at ingest (issue 17, docs/metrics.md "Notifications"): a roll-up in the ingest
// transaction. For the run's touched listings that belong to a match group (and the seller's listings with
// a pending repricing or a suspect value), it compares what the run stored with the listing's trusted
// state (notif_listing_state), applies the rules (rules.ts), writes the events (change_events: market
// facts; whose pivot products they concern is resolved at dispatch, from the match groups), the suppressed counts and the new trusted states, and
// queues the dispatch job when there is something to tell. A listing outside any match group costs nothing.

export const DISPATCH_QUEUE = 'notifications:dispatch';

interface Row {
  id: string;
  group_id: string;
  currency: string;
  price: number | null;
  normal: number | null;
  promo: boolean;
  stock_out: boolean;
  published: boolean;
  brand_id: number | null;
  classification_id: number | null;
  known: boolean;
  s_price: number | null;
  s_normal: number | null;
  s_promo: boolean | null;
  s_stock: boolean | null;
  s_pub: boolean | null;
  pending_from: number | null;
  pending_since: Date | null;
  stock_event_at: Date | null;
  suspect_since: Date | null;
}

interface Member {
  group_id: string;
  product_id: string;
  seller_id: number;
  currency: string;
  price: number | null;
  stock_out: boolean;
  published: boolean;
}

/** [listing id, brand id, classification id, match group id, discount %, cheapest 0/1] */
export type EventItem = [number, number | null, number | null, number, number, number];

export interface ChangeEventRow {
  namespace: 'prices' | 'promotions' | 'assortment';
  kind: string;
  seller_id: number;
  occurred_at: string;
  size: number;
  facts: Record<string, unknown>;
  items: EventItem[];
}

// The run's matched listings with their trusted state: listing_current and notif_listing_state only (a
// listing's brand and classification are in listing_current; whether it is new is asked separately, for
// the few without a state).
const ROWS_SQL = `
  with ids as (
    select unnest($1::bigint[]) as id
    union
    select product_id from notif_listing_state
     where seller_id = $2 and (pending_since <= $3 or suspect_since <= $4)
  )
  select lc.product_id as id, lc.group_id, lc.currency, lc.brand_id, lc.classification_id,
         lc.effective_price::float8 as price, lc.normal_price::float8 as normal,
         lc.price_type <> 'NORMAL' as promo, lc.stock_out, lc.published,
         s.product_id is not null as known, s.price::float8 as s_price, s.normal::float8 as s_normal,
         s.promo as s_promo, s.stock_out as s_stock, s.published as s_pub,
         s.pending_from::float8 as pending_from, s.pending_since, s.stock_event_at, s.suspect_since
    from ids
    join listing_current lc on lc.product_id = ids.id
    left join notif_listing_state s on s.product_id = lc.product_id
   where lc.group_id is not null`;

// The other listings of their match groups, as trusted (one index scan of one table).
const MEMBERS_SQL = `
  select group_id, product_id, seller_id, currency, price::float8 as price, stock_out, published
    from notif_listing_state
   where group_id = any($1::bigint[])`;

function stateOfRow(r: Row): ListingState | null {
  if (!r.known) return null;
  return {
    price: r.s_price,
    normal: r.s_normal,
    promo: r.s_promo ?? false,
    stockOut: r.s_stock ?? false,
    published: r.s_pub ?? true,
    pendingFrom: r.pending_from,
    pendingSince: r.pending_since,
    stockEventAt: r.stock_event_at,
    suspectSince: r.suspect_since,
  };
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Time spent in the roll-up by this process (the seed-time measurement of docs/metrics.md). */
export const rollupTiming = { runs: 0, ms: 0, phases: {} as Record<string, number> };
const phase = (name: string, t0: number) => {
  rollupTiming.phases[name] = (rollupTiming.phases[name] ?? 0) + performance.now() - t0;
  return performance.now();
};

/** The roll-up: see the file's comment. */
export async function notificationsRollup(client: pg.PoolClient, ctx: RollupContext): Promise<void> {
  const t0 = performance.now();
  try {
    await applyRules(client, ctx);
  } finally {
    rollupTiming.runs++;
    rollupTiming.ms += performance.now() - t0;
  }
}

async function applyRules(client: pg.PoolClient, ctx: RollupContext): Promise<void> {
  const t = ctx.observedAt;
  let p0 = performance.now();
  const { rows } = await client.query<Row>(ROWS_SQL, [
    ctx.touched,
    ctx.sellerId,
    new Date(t.getTime() - RULES.repricingDays * 86_400_000),
    new Date(t.getTime() - RULES.adoptSuspectAfterMs),
  ]);
  p0 = phase('rows', p0);
  if (!rows.length) return;
  // New listings (first seen in this run) among those without a state; a seller's first run has none.
  const unknown = ctx.previousAt ? rows.filter((r) => !r.known).map((r) => r.id) : [];
  const fresh = new Set<string>();
  if (unknown.length) {
    const { rows: news } = await client.query<{ id: string }>(
      'select id from products where id = any($1::bigint[]) and first_seen = $2',
      [unknown, t],
    );
    for (const n of news) fresh.add(n.id);
  }
  const groups = [...new Set(rows.map((r) => r.group_id))];
  p0 = phase('new', p0);
  const { rows: members } = await client.query<Member>(MEMBERS_SQL, [groups]);
  p0 = phase('members', p0);
  const byGroup = new Map<string, Member[]>();
  for (const m of members) {
    const list = byGroup.get(m.group_id) ?? [];
    if (!byGroup.has(m.group_id)) byGroup.set(m.group_id, list);
    list.push(m);
  }

  const suppressed = new Map<SuppressReason, number>();
  const aggregated = new Map<string, { kind: string; items: EventItem[] }>();
  const events: ChangeEventRow[] = [];
  const states: { r: Row; s: ListingState }[] = [];
  for (const r of rows) {
    const group = byGroup.get(r.group_id) ?? [];
    // The other sellers' trusted prices in the listing's currency: its place in the market.
    const others: number[] = [];
    for (const m of group) {
      if (m.product_id === r.id) continue;
      if (
        m.seller_id !== ctx.sellerId &&
        m.currency === r.currency &&
        m.published &&
        !m.stock_out &&
        m.price !== null
      )
        others.push(m.price);
    }
    const observed: Observed = {
      price: r.price,
      normal: r.normal,
      promo: r.promo,
      stockOut: r.stock_out,
      published: r.published,
      isNew: fresh.has(r.id),
    };
    const out = evaluate(stateOfRow(r), observed, others, t);
    states.push({ r, s: out.next });
    for (const reason of out.suppressed) suppressed.set(reason, (suppressed.get(reason) ?? 0) + 1);
    if (!group.some((m) => m.seller_id !== ctx.sellerId)) continue; // nobody else sells it
    const id = Number(r.id);
    const gid = Number(r.group_id);
    for (const g of out.group) {
      const agg = aggregated.get(g.kind) ?? { kind: g.kind, items: [] };
      if (!aggregated.has(g.kind)) aggregated.set(g.kind, agg);
      agg.items.push([id, r.brand_id, r.classification_id, gid, round(g.discount), g.cheapest ? 1 : 0]);
    }
    for (const p of out.price) {
      events.push({
        namespace: 'prices',
        kind: p.kind,
        seller_id: ctx.sellerId,
        occurred_at: t.toISOString(),
        size: round(Math.abs(((p.after - p.before) / p.before) * 100)),
        facts: { ...p, currency: r.currency },
        items: [[id, r.brand_id, r.classification_id, gid, 0, p.rankAfter === 1 ? 1 : 0]],
      });
    }
  }

  // A broken crawl that empties the shelves alerts nobody (PRODUCT.md "all sellers out of stock").
  const outs = new Set<number>();
  for (const a of aggregated.values()) if (a.kind === 'stock_out') for (const i of a.items) outs.add(i[0]);
  if (outs.size && isMassStockOut(outs.size, await matchedListings(client, ctx.sellerId))) {
    for (const [k, a] of aggregated) if (a.kind === 'stock_out') aggregated.delete(k);
    suppressed.set('mass_stock_out', (suppressed.get('mass_stock_out') ?? 0) + outs.size);
  }
  for (const a of aggregated.values()) {
    events.push({
      namespace: a.kind.startsWith('promotion') ? 'promotions' : 'assortment',
      kind: a.kind,
      seller_id: ctx.sellerId,
      occurred_at: t.toISOString(),
      size: a.items.length,
      facts: {},
      items: a.items,
    });
  }

  p0 = phase('rules', p0);
  await writeStates(client, ctx.sellerId, states);
  p0 = phase('states', p0);
  if (suppressed.size) {
    await client.query(
      `insert into change_event_suppressed (day, seller_id, reason, n)
       select ($1::timestamptz at time zone ${TZ_SQL})::date, $2, r, n from unnest($3::text[], $4::int[]) x(r, n)
       on conflict (day, seller_id, reason) do update set n = change_event_suppressed.n + excluded.n`,
      [t, ctx.sellerId, [...suppressed.keys()], [...suppressed.values()]],
    );
  }
  if (events.length) await insertChangeEvents(client, events);
  phase('events', p0);
}

async function matchedListings(client: pg.PoolClient, sellerId: number): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    'select count(*)::int as n from notif_listing_state where seller_id = $1 and published',
    [sellerId],
  );
  return rows[0].n;
}

async function writeStates(client: pg.PoolClient, sellerId: number, states: { r: Row; s: ListingState }[]) {
  if (!states.length) return;
  const col = <T>(f: (s: ListingState) => T) => states.map((x) => f(x.s));
  await client.query(
    `insert into notif_listing_state (product_id, seller_id, group_id, currency, price, normal, promo, stock_out,
                                      published, pending_from, pending_since, stock_event_at, suspect_since)
     select id, $2, group_id, currency, price, normal, promo, stock_out, published, pending_from, pending_since,
            stock_event_at, suspect_since
       from unnest($1::bigint[], $12::bigint[], $13::text[], $3::numeric[], $4::numeric[], $5::bool[], $6::bool[],
                   $7::bool[], $8::numeric[], $9::timestamptz[], $10::timestamptz[], $11::timestamptz[])
            x(id, group_id, currency, price, normal, promo, stock_out, published, pending_from, pending_since,
              stock_event_at, suspect_since)
     on conflict (product_id) do update set
       group_id = excluded.group_id, currency = excluded.currency,
       price = excluded.price, normal = excluded.normal, promo = excluded.promo, stock_out = excluded.stock_out,
       published = excluded.published, pending_from = excluded.pending_from, pending_since = excluded.pending_since,
       stock_event_at = excluded.stock_event_at, suspect_since = excluded.suspect_since`,
    [
      states.map((x) => x.r.id),
      sellerId,
      col((s) => s.price),
      col((s) => s.normal),
      col((s) => s.promo),
      col((s) => s.stockOut),
      col((s) => s.published),
      col((s) => s.pendingFrom),
      col((s) => s.pendingSince),
      col((s) => s.stockEventAt),
      col((s) => s.suspectSince),
      states.map((x) => x.r.group_id),
      states.map((x) => x.r.currency),
    ],
  );
}

/** Writes change events and queues one dispatch (unless one is already waiting). */
export async function insertChangeEvents(client: Queryable, events: ChangeEventRow[]): Promise<void> {
  await client.query(
    `insert into change_events (namespace, kind, seller_id, occurred_at, size, facts, items)
     select namespace, kind, seller_id, occurred_at, size, facts, items
       from jsonb_to_recordset($1::jsonb)
            x(namespace text, kind text, seller_id int, occurred_at timestamptz, size real,
              facts jsonb, items jsonb)`,
    [JSON.stringify(events)],
  );
  await queueDispatch(client);
}

/** One queued dispatch job is enough: it handles everything not dispatched yet. */
export async function queueDispatch(client: Queryable): Promise<void> {
  await client.query(
    `insert into jobs (queue, payload, max_attempts)
     select $1, '{}', 10
      where not exists (select 1 from jobs where queue = $1 and status = 'queued')`,
    [DISPATCH_QUEUE],
  );
}

registerRollup('notifications', notificationsRollup);
