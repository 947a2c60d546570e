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

  // The demo's extraction errors: one interval whose effective price is ×20 away from both neighbours.
  const errors = await q<{ product_id: string; valid_from: Date; valid_to: Date | null }>(
    `with seq as (
       select product_id, valid_from, valid_to, coalesce(normal_price, 0)::float8 as p,
              lag(coalesce(normal_price, 0)::float8) over w as prev, lead(coalesce(normal_price, 0)::float8) over w as next
         from price_intervals window w as (partition by product_id order by valid_from))
     select product_id, valid_from, valid_to from seq
      where prev > 0 and p > 0 and (p / prev > 20 or prev / p > 20)`,
  );
  const matched = await q<{ product_id: string }>(
    `select product_id::text from listing_current where group_id is not null and product_id = any($1::bigint[])`,
    [errors.map((e) => e.product_id)],
  );
  const matchedSet = new Set(matched.map((m) => m.product_id));
  let alerted = 0;
  for (const e of errors) {
    if (!matchedSet.has(e.product_id)) continue;
    const hit = await q(
      `select 1 from change_events, jsonb_array_elements(items) i
        where (i->>0)::bigint = $1 and occurred_at >= $2 and occurred_at <= coalesce($3, 'infinity'::timestamptz)
        limit 1`,
      [e.product_id, e.valid_from, e.valid_to],
    );
    if (hit.length) alerted++;
  }
  console.log(
    `extraction errors in the history: ${errors.length} (${[...errors].filter((e) => matchedSet.has(e.product_id)).length} on matched listings); events that mention one while it lasted or as it reverted: ${alerted}`,
  );
} finally {
  await pool.end();
}
