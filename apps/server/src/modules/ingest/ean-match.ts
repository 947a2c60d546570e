import { normalizeGtin } from '@vigia/domain';
import type pg from 'pg';
import type { Candidate } from './diff.js';

/**
 * Step "match": new listings, and listings whose EAN just appeared, join their EAN's match group
 * (confirmed). The group's key is the code's GTIN-14 form when the code is a valid GTIN-8/12/13/14
 * (packages/domain matching/gtin.ts: "07801234567892" and "7801234567892" are one group); a code whose
 * check digit fails keeps its raw spelling and only joins listings spelling it exactly alike (as before
 * normalisation; test fixtures use such codes). Scored matching of everything else: modules/matching.
 */
export async function matchByEan(client: pg.PoolClient, cand: Candidate[]): Promise<void> {
  // Match by EAN: new listings, and listings whose EAN just appeared, join the EAN's group. Their ids
  // and EANs are passed as values (index probes whatever the statistics say). Groups are created in EAN
  // order so that concurrent runs of two sellers cannot deadlock.
  const matchPids: number[] = [];
  const matchEans: string[] = [];
  for (const c of cand) {
    const ean = c.o.ean ? (normalizeGtin(c.o.ean) ?? c.o.ean) : null;
    const id = c.id;
    if (ean && id !== null && (c.pid === null || c.descr_changed)) {
      matchPids.push(id);
      matchEans.push(ean);
    }
  }
  if (matchPids.length) {
    await client.query(
      `insert into match_groups (ean)
         select distinct t.ean from unnest($1::bigint[], $2::text[]) as t(pid, ean)
          where not exists (select 1 from match_members m where m.product_id = t.pid and m.status <> 'rejected')
          order by 1
         on conflict (ean) where ean is not null do nothing`,
      [matchPids, matchEans],
    );
    await client.query(
      `insert into match_members (group_id, product_id, method, confidence, status)
         select g.id, t.pid, 'ean', 1, 'confirmed'
           from unnest($1::bigint[], $2::text[]) as t(pid, ean) join match_groups g on g.ean = t.ean
          where not exists (select 1 from match_members m where m.product_id = t.pid and m.status <> 'rejected')
            and not exists (select 1 from match_members m where m.group_id = g.id and m.product_id = t.pid)
         on conflict do nothing`,
      [matchPids, matchEans],
    );
  }
}
