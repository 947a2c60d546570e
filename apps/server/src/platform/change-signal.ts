import type pg from 'pg';

// The change signal (migrations/210_change_signal.sql, docs/architecture.md "Change signal and read
// models"): whatever changes the market's data bumps its sellers' versions of a scope in the changing
// transaction; PostgreSQL notifies every listening process (read-model.ts) when that transaction commits.

/** What changed: every scope a reader may depend on (the table's check constraint lists the same). */
export type ChangeScope = 'listings' | 'matches' | 'products' | 'images';

/** The NOTIFY channel (bump_changes in migration 210). */
export const CHANGE_CHANNEL = 'vigia_changes';

/** One notified change: a seller and a scope. */
export interface Change {
  sellerId: number;
  scope: ChangeScope;
}

/**
 * Records a change of the sellers' data of `scope` — call it inside the transaction that makes the change
 * (a client between begin and commit): the bump and its notification become visible at that commit, and
 * vanish with a rollback. `listings`: the sellers are those of these listings (products.id) instead.
 */
export async function bumpChanges(
  client: pg.PoolClient | pg.Client,
  sellers: number[],
  scope: ChangeScope,
  of: 'sellers' | 'listings' = 'sellers',
): Promise<void> {
  if (!sellers.length) return;
  const ids =
    of === 'sellers'
      ? '$1::int[]'
      : 'array(select distinct seller_id from products where id = any($1::bigint[]))';
  await client.query(`select bump_changes(${ids}, $2)`, [sellers, scope]);
}

const SCOPES = new Set<string>(['listings', 'matches', 'products', 'images']);

/** A notification's payload (`{"s":seller,"k":scope}`), or null when it is not one. */
export function parseChange(payload: string | undefined): Change | null {
  if (!payload || payload.length > 200) return null;
  try {
    const v = JSON.parse(payload) as { s?: unknown; k?: unknown };
    if (typeof v.s !== 'number' || !Number.isInteger(v.s) || typeof v.k !== 'string' || !SCOPES.has(v.k))
      return null;
    return { sellerId: v.s, scope: v.k as ChangeScope };
  } catch {
    return null;
  }
}

/** The scopes the analyses' answers read (a measured image check changes none of them). */
export const ANSWER_SCOPES: readonly ChangeScope[] = ['listings', 'matches', 'products'];

/**
 * The market's data version: the sum of the (seller, scope) versions of ANSWER_SCOPES. It grows with
 * every committed change of them (each bumps a row inside its own transaction), whatever order
 * concurrent changes commit in.
 */
export async function selectMarketVersion(db: pg.Pool | pg.PoolClient): Promise<number> {
  const { rows } = await db.query<{ v: number }>(
    'select coalesce(sum(version), 0)::int8 as v from data_changes where scope = any($1::text[])',
    [ANSWER_SCOPES],
  );
  return rows[0].v;
}

/** The sellers' versions by scope (absent: never changed, version 0). */
export async function selectSellerVersions(
  db: pg.Pool | pg.PoolClient,
  sellers: number[],
): Promise<Map<number, Partial<Record<ChangeScope, number>>>> {
  const { rows } = await db.query<{ seller_id: number; scope: ChangeScope; version: number }>(
    'select seller_id, scope, version from data_changes where seller_id = any($1::int[])',
    [sellers],
  );
  const out = new Map<number, Partial<Record<ChangeScope, number>>>();
  for (const r of rows) {
    const m = out.get(r.seller_id) ?? {};
    m[r.scope] = r.version;
    out.set(r.seller_id, m);
  }
  return out;
}
