import type pg from 'pg';

// Dimensions a run's new or re-described listings refer to: the seller's categories (its breadcrumbs)
// and brands, created when missing.

/** Category ids by "seller>level1>level2…", per database (pool); entries are added only after commit. */
let categoryCaches = new WeakMap<pg.Pool, Map<string, number>>();

export function categoryCacheOf(pool: pg.Pool): Map<string, number> {
  let cache = categoryCaches.get(pool);
  if (!cache) {
    cache = new Map();
    categoryCaches.set(pool, cache);
  }
  return cache;
}

/** Forgets cached category ids (see clearIngestCaches). */
export function clearCategoryCaches(): void {
  categoryCaches = new WeakMap();
}

/** Resolves a seller breadcrumb to the id of its leaf in categories, creating missing levels. */
export async function resolveCategory(
  client: pg.PoolClient,
  cache: Map<string, number>,
  pending: Map<string, number>,
  sellerId: number,
  path: string[],
): Promise<number> {
  let parent: number | null = null;
  let key = `${sellerId}`;
  for (let level = 0; level < path.length; level++) {
    const name = path[level].trim().slice(0, 200);
    key += `>${name}`;
    const cached = cache.get(key) ?? pending.get(key);
    if (cached !== undefined) {
      parent = cached;
      continue;
    }
    const res: pg.QueryResult<{ id: number }> = await client.query({
      name: 'ingest-category',
      text: `insert into categories (seller_id, parent_id, name, level) values ($1, $2, $3, $4)
       on conflict (seller_id, parent_id, name) do update set name = excluded.name
       returning id`,
      values: [sellerId, parent, name, level + 1],
    });
    parent = res.rows[0].id;
    pending.set(key, parent);
  }
  if (parent === null) throw new Error('categoría vacía');
  return parent;
}

export async function resolveBrands(client: pg.PoolClient, names: string[]): Promise<Map<string, number>> {
  // Sorted: concurrent runs of different sellers insert new brands in the same order (no deadlock).
  const distinct = [...new Set(names.map((n) => n.trim()).filter(Boolean))].sort();
  const map = new Map<string, number>();
  if (!distinct.length) return map;
  const norm = distinct.map((n) => n.toLowerCase());
  await client.query({
    name: 'ingest-brands-insert',
    text: `insert into brands (name, normalized_name)
     select n, nn from unnest($1::text[], $2::text[]) as t(n, nn)
     order by nn
     on conflict (normalized_name) do nothing`,
    values: [distinct, norm],
  });
  const { rows } = await client.query<{ id: number; normalized_name: string }>(
    'select id, normalized_name from brands where normalized_name = any($1)',
    [norm],
  );
  const byNorm = new Map(rows.map((r) => [r.normalized_name, r.id]));
  for (const n of distinct) map.set(n, byNorm.get(n.toLowerCase())!);
  return map;
}
