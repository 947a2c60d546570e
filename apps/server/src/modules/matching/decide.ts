import type { PartResult } from '@vigia/domain';
import type pg from 'pg';
import { withTransaction } from '../../db/database.js';
import { AppError, notFound } from '../../lib/errors.js';
import { bumpChanges } from '../../platform/change-signal.js';
import { syncListingCurrent } from '../ingest/index.js';
import { matchChangeHooks } from '../ingest/registry.js';

// Every change of match membership — automatic (the matching run), a person's accept / reject / undo,
// a report of a wrong match — goes through `applyMatchChanges`, in the caller's transaction: it writes
// match_members, records the decision with who and when and the membership it replaced
// (match_decisions, what undo restores), brings listing_current up to date, runs the match-change
// hooks (the pricing read model: pricing/rollup.ts) and moves the data version of the sellers whose
// listings changed (sellers.ingest_seq: the dashboard, promotions and assortment memos and the
// ingest path's remembered listings key on it), so that every analysis reflects the decision at once.
// The platform's change signal is bumped here too (one place for every match change).

export type MatchAction = 'auto' | 'accept' | 'reject' | 'undo' | 'report';
export type MemberStatus = 'confirmed' | 'suggested' | 'rejected';

/** One membership change: the listing's row in the group becomes `status` (null: the row is removed). */
export interface MatchChange {
  productId: number;
  groupId: number;
  status: MemberStatus | null;
  action: MatchAction;
  /** method of a new row (kept on an existing one unless given) */
  method?: string;
  targetProductId?: number | null;
  score?: number | null;
  parts?: PartResult[] | null;
  userId: number | null;
  note?: string | null;
  /** the decision an undo reverts (match_decisions.id) */
  undoes?: number;
}

export const conflict = (detail: string) => new AppError(409, 'conflict', detail);

/**
 * Applies the changes (see above) set-based — the matching run writes thousands at once; returns the
 * decision ids in the changes' order. A pair (group, listing) may appear once per call; a listing may be
 * live (confirmed or suggested) in one group at most (409 otherwise).
 */
export async function applyMatchChanges(client: pg.PoolClient, changes: MatchChange[]): Promise<number[]> {
  if (!changes.length) return [];
  const seen = new Set<string>();
  for (const c of changes) {
    const k = `${c.groupId}:${c.productId}`;
    if (seen.has(k)) throw conflict('Una coincidencia aparece dos veces en la misma decisión.');
    seen.add(k);
  }
  const groups = changes.map((c) => c.groupId);
  const products = changes.map((c) => c.productId);
  // the rows as they were (locked), in the changes' order
  const { rows: prevRows } = await client.query<{
    g: string;
    p: string;
    status: MemberStatus;
    method: string;
  }>(
    `select m.group_id as g, m.product_id as p, m.status, m.method
       from match_members m join unnest($1::bigint[], $2::bigint[]) as t(g, p)
         on m.group_id = t.g and m.product_id = t.p
      order by m.group_id, m.product_id for update of m`,
    [groups, products],
  );
  const byPair = new Map(prevRows.map((r) => [`${r.g}:${r.p}`, r]));
  const prev = changes.map((c) => {
    const r = byPair.get(`${c.groupId}:${c.productId}`);
    return { status: r?.status ?? null, method: r?.method ?? null };
  });
  const live = changes.filter((c) => c.status === 'confirmed' || c.status === 'suggested');
  if (live.length) {
    const { rows: other } = await client.query(
      `select 1 from unnest($1::bigint[], $2::bigint[]) as t(g, p)
         join match_members m on m.product_id = t.p and m.group_id <> t.g and m.status <> 'rejected'
        where not exists (select 1 from unnest($3::bigint[], $4::bigint[]) as r(g, p)
                           where r.g = m.group_id and r.p = m.product_id)
        limit 1`,
      [
        live.map((c) => c.groupId),
        live.map((c) => c.productId),
        changes.filter((c) => c.status === null || c.status === 'rejected').map((c) => c.groupId),
        changes.filter((c) => c.status === null || c.status === 'rejected').map((c) => c.productId),
      ],
    );
    if (other.length) throw conflict('La publicación ya pertenece a otra coincidencia.');
  }
  const removed = changes.filter((c) => c.status === null);
  if (removed.length) {
    await client.query(
      `delete from match_members m using unnest($1::bigint[], $2::bigint[]) as t(g, p)
        where m.group_id = t.g and m.product_id = t.p`,
      [removed.map((c) => c.groupId), removed.map((c) => c.productId)],
    );
  }
  const kept = changes.map((c, i) => ({ c, i })).filter(({ c }) => c.status !== null);
  if (kept.length) {
    const col = <T>(f: (c: MatchChange, i: number) => T) => kept.map(({ c, i }) => f(c, i));
    await client.query(
      `insert into match_members as m (group_id, product_id, method, confidence, status, decided_by, decided_at,
                                       target_product_id, score, parts)
       select g, p, coalesce(meth, 'manual'), least(1, greatest(0, coalesce(sc, 1))), st, u,
              case when u is not null then now() end, tp, sc, pa::jsonb
         from unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::int[], $6::bigint[], $7::real[],
                     $8::text[]) as t(g, p, meth, st, u, tp, sc, pa)
        order by g, p
       on conflict (group_id, product_id) do update set
         status = excluded.status, method = excluded.method,
         decided_by = excluded.decided_by, decided_at = excluded.decided_at,
         target_product_id = coalesce(excluded.target_product_id, m.target_product_id),
         score = coalesce(excluded.score, m.score), parts = coalesce(excluded.parts, m.parts)`,
      [
        col((c) => c.groupId),
        col((c) => c.productId),
        col((c, i) => c.method ?? prev[i].method ?? 'manual'),
        col((c) => c.status),
        col((c) => (c.action === 'auto' ? null : c.userId)),
        col((c) => c.targetProductId ?? null),
        col((c) => c.score ?? null),
        col((c) => (c.parts ? JSON.stringify(c.parts) : null)),
      ],
    );
  }
  const { rows: d } = await client.query<{ id: string }>(
    `insert into match_decisions (product_id, group_id, target_product_id, action, prev_status, prev_method,
                                  new_status, score, note, user_id)
     select p, g, tp, a, ps, pm, ns, sc, n, u
       from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[],
                   $8::real[], $9::text[], $10::int[]) with ordinality as t(p, g, tp, a, ps, pm, ns, sc, n, u, i)
      order by i
     returning id`,
    [
      products,
      groups,
      changes.map((c) => c.targetProductId ?? null),
      changes.map((c) => c.action),
      prev.map((r) => r.status),
      prev.map((r) => r.method),
      changes.map((c) => c.status),
      changes.map((c) => c.score ?? null),
      changes.map((c) => c.note ?? null),
      changes.map((c) => c.userId),
    ],
  );
  const ids = d.map((r) => Number(r.id)).sort((a, b) => a - b); // a bigserial: inserted in order
  const undone = changes.map((c, i) => [c.undoes, ids[i]] as const).filter(([u]) => u);
  if (undone.length) {
    // undoing an undo: the decision it had undone stands again
    await client.query('update match_decisions set undone_by = null where undone_by = any($1::bigint[])', [
      undone.map(([u]) => u),
    ]);
    await client.query(
      `update match_decisions d set undone_by = t.by from unnest($1::bigint[], $2::bigint[]) as t(id, by)
        where d.id = t.id`,
      [undone.map(([u]) => u), undone.map(([, by]) => by)],
    );
  }
  const productIds = [...new Set(products)].sort((a, b) => a - b);
  await syncListingCurrent(client, productIds);
  for (const h of matchChangeHooks) await h.fn(client, productIds);
  await client.query(
    `update sellers set ingest_seq = ingest_seq + 1
      where id in (select distinct seller_id from products where id = any($1::bigint[]))`,
    [productIds],
  );
  // Every process's read models learn of the change when it commits (platform/change-signal.ts).
  await bumpChanges(client, productIds, 'matches', 'listings');
  return ids;
}

/** A person's decision on one listing's membership of one group. */
export interface Decision {
  productId: number;
  groupId: number;
  action: 'accept' | 'reject' | 'undo';
  note?: string | null;
}

/**
 * What a person's decision changes: accept → confirmed, reject → rejected (the pair never comes back),
 * undo → the membership before the listing's latest not-undone decision in the group (a row removed
 * when there was none: the groups as they were); undoing an undo restores what it had undone.
 */
async function changeOf(client: pg.PoolClient, d: Decision, userId: number): Promise<MatchChange | null> {
  const { rows } = await client.query<{ status: MemberStatus; target_product_id: number | null }>(
    'select status, target_product_id from match_members where group_id = $1 and product_id = $2',
    [d.groupId, d.productId],
  );
  const cur = rows[0];
  if (d.action === 'undo') {
    const { rows: last } = await client.query<{
      id: number;
      prev_status: MemberStatus | null;
      prev_method: string | null;
    }>(
      `select id, prev_status, prev_method from match_decisions
        where group_id = $1 and product_id = $2 and undone_by is null
        order by id desc limit 1`,
      [d.groupId, d.productId],
    );
    if (!last.length) throw notFound('No hay una decisión que deshacer.');
    const l = last[0];
    return {
      productId: d.productId,
      groupId: d.groupId,
      status: l.prev_status,
      method: l.prev_method ?? undefined,
      action: 'undo',
      userId,
      undoes: Number(l.id),
      note: d.note ?? null,
    };
  }
  if (!cur) throw notFound('No existe esa sugerencia de emparejamiento.');
  const status: MemberStatus = d.action === 'accept' ? 'confirmed' : 'rejected';
  if (cur.status === status) return null; // already decided that way
  return {
    productId: d.productId,
    groupId: d.groupId,
    status,
    action: d.action,
    userId,
    targetProductId: cur.target_product_id,
    note: d.note ?? null,
  };
}

/** A person's decisions, in one transaction; returns how many changed something. */
export async function decideMatches(pool: pg.Pool, decisions: Decision[], userId: number): Promise<number> {
  return withTransaction(pool, async (client) => {
    const changes: MatchChange[] = [];
    // one decision per pair: the last one given
    const last = new Map(decisions.map((d) => [`${d.groupId}:${d.productId}`, d]));
    for (const d of last.values()) {
      const c = await changeOf(client, d, userId);
      if (c) changes.push(c);
    }
    await applyMatchChanges(client, changes);
    return changes.length;
  });
}

/** A person confirms a suggested (or rejected) match: the listing joins the group as confirmed. */
export async function confirmMatch(
  pool: pg.Pool,
  groupId: number,
  productId: number,
  userId: number,
): Promise<void> {
  await decideMatches(pool, [{ groupId, productId, action: 'accept' }], userId);
}

/** A person rejects a match: the listing leaves the group and is never suggested into it again. */
export async function rejectMatch(
  pool: pg.Pool,
  groupId: number,
  productId: number,
  userId: number,
): Promise<void> {
  await decideMatches(pool, [{ groupId, productId, action: 'reject' }], userId);
}
