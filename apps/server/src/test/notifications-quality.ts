// Quality of the signal on a seeded demo market (docs/metrics.md "Notifications", "Quality of the signal"):
//   DATABASE_URL=postgres://… npx tsx apps/server/src/test/notifications-quality.ts [days]
// Dispatches what is not dispatched yet, then prints: change events and suppressed candidates by kind and
// reason; per demo user, notifications per day with the default subscriptions over the last `days` days
// (and what the default minimum sizes held back); and the precision on the demo's injected one-day ×100 /
// ÷100 extraction errors (found in the price history: an interval ×20 away from both neighbours).
import pg from 'pg';
import { fanOut, match } from '../modules/notifications/dispatch.js';
import { loadClassPaths, loadRecipients } from '../modules/notifications/recipients.js';
import type { EventItem } from '../modules/notifications/rollup.js';

const days = Number(process.argv[2] ?? 30);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
const q = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
  (await pool.query<T>(sql, params)).rows;

try {
  await fanOut(pool);
  const last = (await q<{ t: Date }>('select max(occurred_at) as t from change_events'))[0].t;
  const from = new Date(last.getTime() - days * 86_400_000);
  console.log(`window: ${days} days up to ${last.toISOString()}`);

  console.table(
    await q(
      `select namespace, kind, count(*)::int as events, sum(jsonb_array_length(items))::int as listings
         from change_events group by 1, 2 order by 1, 2`,
    ),
  );
  const parts = (
    await q<{ n: number }>('select sum(jsonb_array_length(items))::int as n from change_events')
  )[0].n;
  const supp = await q<{ reason: string; n: number }>(
    'select reason, sum(n)::int as n from change_event_suppressed group by 1 order by 2 desc',
  );
  const suppTotal = supp.reduce((s, r) => s + r.n, 0);
  console.log(
    `candidate listing changes: ${parts + suppTotal}; told ${parts}; suppressed ${suppTotal} (${((suppTotal / (parts + suppTotal)) * 100).toFixed(1)} %)`,
  );
  console.table(supp.map((r) => ({ ...r, share: `${((r.n / (parts + suppTotal)) * 100).toFixed(1)} %` })));

  // Per user: notifications in the window (default subscriptions), and what the minimum sizes held back.
  const users = await loadRecipients(pool, null);
  const paths = await loadClassPaths(pool);
  const events = await q<{
    namespace: 'prices' | 'promotions' | 'assortment';
    kind: string;
    seller_id: number;
    size: number;
    items: EventItem[];
  }>('select namespace, kind, seller_id, size, items from change_events where occurred_at > $1', [from]);
  const groupIds = [...new Set(events.flatMap((e) => e.items.map((i) => i[3])))];
  const pivots = await q<{ group_id: string; seller_id: number; product_id: string }>(
    'select group_id, seller_id, product_id from listing_current where group_id = any($1::bigint[]) and published',
    [groupIds],
  );
  const groups = new Map<number, [number, number][]>();
  for (const r of pivots) {
    const g = Number(r.group_id);
    const list = groups.get(g) ?? [];
    if (!groups.has(g)) groups.set(g, list);
    list.push([r.seller_id, Number(r.product_id)]);
  }
  for (const u of users) {
    const stored = await q<{ namespace: string; n: number }>(
      `select namespace, count(*)::int as n from notifications where user_id = $1 and occurred_at > $2 group by 1 order by 1`,
      [u.id, from],
    );
    const total = stored.reduce((s, r) => s + r.n, 0);
    const noMin = { ...u, subs: new Map([...u.subs].map(([k, s]) => [k, { ...s, min_size: 0 }])) };
    let withoutMin = 0;
    for (const e of events) if (match(e, noMin, paths, groups)) withoutMin++;
    console.log(
      `${u.email} (pivots ${[...u.pivots].join(', ')}): ${total} notifications in ${days} days = ${(total / days).toFixed(1)} per day ` +
        `(${stored.map((r) => `${r.namespace} ${r.n}`).join(', ')}); without the default minimum sizes: ${withoutMin} = ${(withoutMin / days).toFixed(1)} per day`,
    );
  }

  // The demo's extraction errors: an interval whose normal price is ×20 away from both the interval before
  // and the one after (in one day, back the next); any event that mentions the listing from the jump in
  // to the jump back (both instants included)?
  const [err] = await q<{ jumps: number; listings: number; alerted: number }>(
    `with seq as (
       select product_id, valid_from, valid_to, normal_price::float8 as p,
              lag(normal_price::float8) over w as prev, lead(normal_price::float8) over w as next
         from price_intervals window w as (partition by product_id order by valid_from)),
     jumps as (
       select s.product_id, s.valid_from, s.valid_to from seq s
         join listing_current lc on lc.product_id = s.product_id and lc.group_id is not null
        where s.prev > 0 and s.p > 0 and s.next > 0
          and ((s.p / s.prev > 20 and s.p / s.next > 20) or (s.prev / s.p > 20 and s.next / s.p > 20))),
     told as (
       select (i->>0)::bigint as product_id, e.occurred_at from change_events e, jsonb_array_elements(e.items) i)
     select count(*)::int as jumps, count(distinct product_id)::int as listings,
            count(*) filter (where exists (
              select 1 from told t where t.product_id = j.product_id
                 and t.occurred_at >= j.valid_from and t.occurred_at <= coalesce(j.valid_to, 'infinity')))::int as alerted
       from jumps j`,
  );
  console.log(
    `extraction errors on matched listings: ${err.jumps} one-day errors on ${err.listings} listings; events that mention one of them while it lasted or as it reverted: ${err.alerted}`,
  );
} finally {
  await pool.end();
}
