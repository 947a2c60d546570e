import { DEFAULT_TIMEZONE } from '@vigia/domain';
import type pg from 'pg';
import type { Queryable } from '../../db/database.js';
import { enqueue, JOB_SCHEMA } from '../../platform/jobs/index.js';
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
// transaction, two statements per run (per slice of NOTIF_SLICE listings in a large run). ROWS_SQL reads the run's matched listings whose stored state moved
// away from their trusted state (notif_listing_state), with their match group's trusted prices; the rules
// (rules.ts) decide in memory; WRITE_SQL writes the new trusted states, the suppressed counts, the events
// (change_events: market facts; whose pivot products they concern is resolved at dispatch, from the match
// groups) and queues the dispatch job when there is something to tell. A listing outside any match group,
// or whose state did not move, costs nothing but its probe.

export const DISPATCH_QUEUE = 'notifications:dispatch';

/**
 * The events are market facts, decided once at ingest for every organisation: the rates that put the
 * group's prices in one currency are those of the run's day in the deployment's zone, and the suppressed
 * counts are kept per day of that zone (nothing reads them per organisation). What a user is told is
 * checked again at dispatch in the user's organisation's day zone (dispatch.ts positionsAt, inUserCurrency).
 */
const MARKET_FACTS_ZONE = DEFAULT_TIMEZONE;

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
  /** first seen in this run (and not the seller's first run) */
  fresh: boolean;
  /** each other seller's lowest trusted price among its published, in-stock listings of the group, in its currency */
  others: number[];
  /** another seller has a listing in its match group */
  shared: boolean;
}

/** [listing id, brand id, classification id, match group id, discount % (null: none), cheapest 0/1] */
export type EventItem = [number, number | null, number | null, number, number | null, number];

export interface ChangeEventRow {
  namespace: 'prices' | 'promotions' | 'assortment';
  kind: string;
  seller_id: number;
  occurred_at: string;
  size: number;
  facts: Record<string, unknown>;
  items: EventItem[];
}

// ONE statement per run (per slice of NOTIF_SLICE ids in a large run; the ids with a pending repricing or
// a suspect value are read first, PENDING_SQL): the run's matched listings (touched, or pending or suspect)
// whose stored state (listing_current) differs from their trusted one (notif_listing_state) — or
// that have none yet, or a pending or suspect value to re-examine — with what the rules need about their
// match group (the other sellers' trusted prices, read from the trusted states as they were before this
// run) and whether they are new. A listing whose state did not move is not returned: the rules could
// neither tell nor change anything about it (rules.ts: same state in, no event and the same state out).
// $1 listing ids (a slice of the touched ones with PENDING_SQL's), $2 seller, $3 the run's instant, $4 has a
// previous run, $5 the zone of the rates' day (MARKET_FACTS_ZONE).
const ROWS_SQL = `
  with rates as (
    select currency, clp_per_unit as clp from vigia_fx_rates_on(vigia_day($3::timestamptz, $5::text))
     where currency <> 'CLP'
    union all select 'CLP', 1
  ), ids as (
    select unnest($1::bigint[]) as id
  ), moved as (
    select lc.product_id as id, lc.group_id, lc.currency, lc.brand_id, lc.classification_id,
           lc.effective_price, lc.normal_price, lc.price_type <> 'NORMAL' as promo, lc.stock_out,
           lc.published, s.product_id is not null as known, s.price, s.normal, s.promo as s_promo,
           s.stock_out as s_stock, s.published as s_pub, s.pending_from, s.pending_since, s.stock_event_at,
           s.suspect_since
      from ids
      join listing_current lc on lc.product_id = ids.id
      left join notif_listing_state s on s.product_id = lc.product_id
     where lc.group_id is not null
       and (s.product_id is null or s.pending_since is not null or s.suspect_since is not null
            or (s.price, s.normal, s.promo, s.stock_out, s.published, s.group_id, s.currency)
               is distinct from (lc.effective_price, lc.normal_price, lc.price_type <> 'NORMAL', lc.stock_out,
                                 lc.published, lc.group_id, lc.currency))
  )
  select m.id, m.group_id, m.currency, m.brand_id, m.classification_id,
         m.effective_price::float8 as price, m.normal_price::float8 as normal, m.promo, m.stock_out,
         m.published, m.known, m.price::float8 as s_price, m.normal::float8 as s_normal, m.s_promo, m.s_stock,
         m.s_pub, m.pending_from::float8 as pending_from, m.pending_since, m.stock_event_at, m.suspect_since,
         (not m.known and $4 and p.first_seen = $3) as fresh,
         coalesce(g.others, '{}') as others, coalesce(g.shared, false) as shared
    from moved m
    join products p on p.id = m.id
    left join lateral (
      -- one price per other seller (its lowest in the group), as the screens and the dispatch's re-check
      -- rank: a seller with two listings of the product takes one place, not two
      select array_agg(s.price) filter (where s.price is not null) as others, count(*) > 0 as shared
        from (
          select min(o.price::float8 * f.factor) filter (where f.factor is not null and o.published
                                                   and not o.stock_out and o.price is not null) as price
            from notif_listing_state o
            -- the others' prices in this listing's currency, at the rates in force on the run's market day
            -- (vigia_fx_rates_on, CLP = 1): the screens rank every seller in one currency, so do the rules
            left join lateral (
              select case when o.currency = m.currency then 1::float8
                          else (select (fo.clp / fm.clp)::float8 from rates fo, rates fm
                                 where fo.currency = o.currency and fm.currency = m.currency) end as factor
            ) f on true
           where o.group_id = m.group_id and o.seller_id <> $2
           group by o.seller_id) s) g on true`;

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

/** The seller's listings with a pending repricing or a suspect value to re-examine. */
const PENDING_SQL = `
  select product_id as id from notif_listing_state
   where seller_id = $1 and (pending_since <= $2 or suspect_since <= $3)`;

/**
 * Listings read and decided per slice: a run that touches 100,000 listings (a feed's first import) would
 * otherwise hold a row per listing with its group's prices at once (+110 MB measured); the events are
 * aggregated across slices, and each slice's trusted states are written before the next one is read.
 */
export const NOTIF_SLICE = 10_000;

async function applyRules(client: pg.PoolClient, ctx: RollupContext): Promise<void> {
  const t = ctx.observedAt;
  let p0 = performance.now();
  const pendingBefore = new Date(t.getTime() - RULES.repricingDays * 86_400_000);
  const suspectBefore = new Date(t.getTime() - RULES.adoptSuspectAfterMs);
  const { rows: pending } = await client.query<{ id: string }>(PENDING_SQL, [
    ctx.sellerId,
    pendingBefore,
    suspectBefore,
  ]);
  let ids: number[] = ctx.touched;
  if (pending.length) {
    const all = new Set(ctx.touched);
    for (const r of pending) all.add(Number(r.id));
    ids = [...all];
  }
  p0 = phase('rows', p0);

  const suppressed = new Map<SuppressReason, number>();
  const aggregated = new Map<string, { kind: string; items: EventItem[] }>();
  const events: ChangeEventRow[] = [];
  // the last slice's states are written with the run's events in finishRun's one statement (a run is
  // one slice but for a feed's first import: a second statement per run cost the seed 2,160 writes)
  let last: { r: Row; s: ListingState }[] = [];
  for (let from = 0; from < ids.length; from += NOTIF_SLICE) {
    await writeRun(client, ctx.sellerId, t, last, new Map(), []);
    p0 = phase('write', p0);
    const { rows } = await client.query<Row>(ROWS_SQL, [
      ids.slice(from, from + NOTIF_SLICE),
      ctx.sellerId,
      t,
      ctx.previousAt !== null,
      MARKET_FACTS_ZONE,
    ]);
    p0 = phase('rows', p0);
    last = decide(rows, ctx, t, suppressed, aggregated, events);
    p0 = phase('rules', p0);
  }
  await finishRun(client, ctx, t, last, suppressed, aggregated, events, p0);
}

/** The rules over one slice's rows: their next trusted states (returned), events and suppressed counts. */
function decide(
  rows: Row[],
  ctx: RollupContext,
  t: Date,
  suppressed: Map<SuppressReason, number>,
  aggregated: Map<string, { kind: string; items: EventItem[] }>,
  events: ChangeEventRow[],
): { r: Row; s: ListingState }[] {
  const states: { r: Row; s: ListingState }[] = [];
  for (const r of rows) {
    const observed: Observed = {
      price: r.price,
      normal: r.normal,
      promo: r.promo,
      stockOut: r.stock_out,
      published: r.published,
      isNew: r.fresh,
    };
    // r.others: the other sellers' trusted prices in the listing's currency, its place in the market
    const out = evaluate(stateOfRow(r), observed, r.others, t);
    states.push({ r, s: out.next });
    for (const reason of out.suppressed) suppressed.set(reason, (suppressed.get(reason) ?? 0) + 1);
    if (!r.shared) continue; // nobody else sells it
    const id = Number(r.id);
    const gid = Number(r.group_id);
    for (const g of out.group) {
      const agg = aggregated.get(g.kind) ?? { kind: g.kind, items: [] };
      if (!aggregated.has(g.kind)) aggregated.set(g.kind, agg);
      agg.items.push([
        id,
        r.brand_id,
        r.classification_id,
        gid,
        g.discount === null ? null : round(g.discount),
        g.cheapest ? 1 : 0,
      ]);
    }
    for (const p of out.price) {
      events.push({
        namespace: 'prices',
        kind: p.kind,
        seller_id: ctx.sellerId,
        occurred_at: t.toISOString(),
        size: round(Math.abs(((p.after - p.before) / p.before) * 100)),
        facts: { ...p, currency: r.currency },
        items: [[id, r.brand_id, r.classification_id, gid, null, p.rankAfter === 1 ? 1 : 0]],
      });
    }
  }
  return states;
}

/**
 * Once every slice is decided: the mass stock-out rule (the seller's published listings counted before
 * the last slice's states are written), then those states, the suppressed counts and the events.
 */
async function finishRun(
  client: pg.PoolClient,
  ctx: RollupContext,
  t: Date,
  states: { r: Row; s: ListingState }[],
  suppressed: Map<SuppressReason, number>,
  aggregated: Map<string, { kind: string; items: EventItem[] }>,
  events: ChangeEventRow[],
  p0: number,
): Promise<void> {
  // A broken crawl that empties the shelves alerts nobody (PRODUCT.md "all sellers out of stock").
  const outs = new Set<number>();
  for (const a of aggregated.values()) if (a.kind === 'stock_out') for (const i of a.items) outs.add(i[0]);
  // (the seller's matched listings are counted only when enough went out for it to matter)
  if (
    outs.size >= RULES.massStockOutMin &&
    isMassStockOut(outs.size, await matchedListings(client, ctx.sellerId, outs.size))
  ) {
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
  await writeRun(client, ctx.sellerId, t, states, suppressed, events);
  phase('write', p0);
}

/**
 * The seller's matched listings, counted up to the first number that makes `stockOuts` no mass stock-out
 * (isMassStockOut: more than massStockOutShare of them): the answer is exact below it, and any count from
 * it on decides alike. No index leads by the seller (one more to write on every state), so the count
 * scans the table: whole, it was ~400 ms a run on the large market (1.15 M states, issue 30: the seed's
 * fourth statement); it stops after the first ~stockOuts / share of the seller's.
 */
async function matchedListings(client: pg.PoolClient, sellerId: number, stockOuts: number): Promise<number> {
  // (+ 2: one past the bound, and one for a float quotient just under an integer)
  const enough = Math.floor(stockOuts / RULES.massStockOutShare) + 2;
  const { rows } = await client.query<{ n: number }>(
    'select count(*)::int as n from (select from notif_listing_state where seller_id = $1 and published limit $2) x',
    [sellerId, enough],
  );
  return rows[0].n;
}

// ONE statement writes what a run decided: the new trusted states, the suppressed counts of the day, the
// change events; writeRun then queues the dispatch job (queueDispatch) when there are events.
const WRITE_SQL = `
  with states as (
    insert into notif_listing_state (product_id, seller_id, group_id, currency, price, normal, promo, stock_out,
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
      stock_event_at = excluded.stock_event_at, suspect_since = excluded.suspect_since
  ), suppressed as (
    insert into change_event_suppressed (day, seller_id, reason, n)
    select vigia_day($14::timestamptz, $18::text), $2, r, n from unnest($15::text[], $16::int[]) x(r, n)
    on conflict (day, seller_id, reason) do update set n = change_event_suppressed.n + excluded.n
  ), events as (
    insert into change_events (namespace, kind, seller_id, occurred_at, size, facts, items)
    select namespace, kind, seller_id, occurred_at, size, facts, items
      from jsonb_to_recordset($17::jsonb)
           x(namespace text, kind text, seller_id int, occurred_at timestamptz, size real, facts jsonb, items jsonb)
    returning 1
  )
  select 1`;

async function writeRun(
  client: pg.PoolClient,
  sellerId: number,
  t: Date,
  states: { r: Row; s: ListingState }[],
  suppressed: Map<SuppressReason, number>,
  events: ChangeEventRow[],
): Promise<void> {
  if (!states.length && !suppressed.size && !events.length) return;
  const col = <T>(f: (s: ListingState) => T) => states.map((x) => f(x.s));
  await client.query(WRITE_SQL, [
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
    t,
    [...suppressed.keys()],
    [...suppressed.values()],
    JSON.stringify(events),
    MARKET_FACTS_ZONE,
  ]);
  if (events.length) await queueDispatch(client);
}

/**
 * One queued dispatch job is enough: it handles everything not dispatched yet. The queued job found is
 * locked until the caller's transaction ends, so no worker can lease it (and look for events) before
 * this transaction's events are committed; one already being leased (or locked by another transaction)
 * is skipped and a new job queued. (Only checking that a job is queued let a worker lease it between the
 * check and the commit: the events then waited for the next run's dispatch.)
 */
export async function queueDispatch(client: Queryable): Promise<void> {
  const { rows } = await client.query(
    `select id from ${JOB_SCHEMA}.job where name = $1 and state = 'created' limit 1 for update skip locked`,
    [DISPATCH_QUEUE],
  );
  if (!rows.length) await enqueue(client, DISPATCH_QUEUE, {}, { maxAttempts: 10 });
}

registerRollup('notifications', notificationsRollup);
