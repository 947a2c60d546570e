import type { CategoryRef } from '@vigia/domain';
import type { Queryable } from '../db/database.js';

// Listing-state rules as SQL and the listing look-ups every screen shares. The rules themselves are the
// domain's (packages/domain/src/listing-state.ts); SQL reads them through the functions of
// migrations/050_market_formulas.sql.

/** SQL: when a listing was last seen (vigia_last_seen = domain lastSeenAt). `p` products, `s` sellers. */
export const lastSeenSql = (p = 'p', s = 's') =>
  `vigia_last_seen(${p}.published, ${p}.last_seen, ${s}.last_crawl_at)`;

/** The seller breadcrumb (root first) of each category leaf. */
export async function categoryPaths(db: Queryable, leafIds: number[]): Promise<Map<number, CategoryRef[]>> {
  const ids = [...new Set(leafIds)];
  const out = new Map<number, CategoryRef[]>();
  if (!ids.length) return out;
  const { rows } = await db.query<{ leaf: number; path: CategoryRef[] }>(
    `with recursive up as (
        select id as leaf, id, parent_id, name, url, 0 as depth from categories where id = any($1)
        union all
        select up.leaf, c.id, c.parent_id, c.name, c.url, up.depth + 1
          from categories c join up on c.id = up.parent_id
         where up.depth < 20)
     select leaf, json_agg(json_build_object('name', name, 'url', url) order by depth desc) as path
       from up group by leaf`,
    [ids],
  );
  for (const r of rows) out.set(r.leaf, r.path);
  return out;
}
