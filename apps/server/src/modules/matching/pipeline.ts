import {
  classifyScore,
  DEFAULT_MATCH_THRESHOLDS,
  type MatchThresholds,
  normalizeGtin,
  type PartResult,
  scoreFeatures,
  type TitleFeatures,
  titleFeatures,
} from '@vigia/domain';
import type pg from 'pg';
import { withTransaction } from '../../db/database.js';
import { applyMatchChanges, type MatchChange } from './decide.js';
import { refreshChangedMatchKeys, refreshMatchKeys } from './keys.js';
import { titleIndexOf } from './title-index.js';

// The matching run (issue 29; docs/architecture.md "Matching"). For the published listings of a seller
// (or given listings) that are in no live match group:
//   1. identifiers: a listing whose normalised GTIN equals a target's joins it (confirmed, source gtin);
//      else equal MPN within the same brand (confirmed, source mpn);
//   2. titles: candidates of the same brand key (or, without a brand, by trigram similarity through the
//      pg_trgm index on match_keys.title_key), the best 8 by trigram similarity (pg_trgm's, computed in the
//      process over each brand's listings indexed by trigram, kept between runs: title-index.ts), each scored by the
//      domain's scorer (packages/domain/src/matching/score.ts); the best one decides: at or above the
//      high threshold a confirmed match (source auto, reviewable), between the two a suggestion, below
//      nothing.
// Targets: listings of another seller that are pivots of some license (the catalogues analyses compare
// against) or already confirmed in a group. A target whose group already has a live listing of the
// listing's seller is skipped; so is a pair a person rejected or undid (match_decisions / rejected rows):
// a person's decision is never overridden, and a rejected pair never comes back, whatever imports follow.
// A target without a group gets one (it joins as its anchor). All writes go through decide.ts.

/** The thresholds of the configuration (config.ts MATCH_AUTO_THRESHOLD / MATCH_SUGGEST_THRESHOLD). */
export function thresholdsOf(config: {
  MATCH_AUTO_THRESHOLD: number;
  MATCH_SUGGEST_THRESHOLD: number;
}): MatchThresholds {
  const auto = config.MATCH_AUTO_THRESHOLD;
  return { auto, suggest: Math.min(auto, config.MATCH_SUGGEST_THRESHOLD) };
}

export interface MatchRunOptions {
  sellerId?: number;
  productIds?: number[];
  thresholds?: MatchThresholds;
}

export interface MatchRunResult {
  considered: number;
  gtin: number;
  mpn: number;
  auto: number;
  suggested: number;
  ms: number;
}

const CANDIDATES_PER_LISTING = 8;
/** Up to this many branded listings, their look-alikes are asked whether they are targets (else all at once). */
const FEW_SUBJECTS = 200;
/** Look-alikes of a listing asked about first. */
const LOOK_ALIKES = 32;

interface Subject {
  id: number;
  seller_id: number;
  name: string;
  brand: string | null;
  /** a group of its own that ingest made around a code that is no valid GTIN (left when it matches) */
  solo_group: number | null;
  solo_ean: string | null;
}
interface Target {
  id: number;
  seller_id: number;
  name: string;
  brand: string | null;
  group_id: number | null;
}

/** Targets as SQL, whatever the subject: `k` a match_keys row of a pivot's listing or one confirmed in a group. */
const TARGET_ANY_SUBJECT = `
  exists (select 1 from listing_current lc where lc.product_id = k.product_id and lc.published
               and ((lc.group_id is not null and lc.match_status = 'confirmed')
                    or (lc.group_id is null and k.seller_id in (select seller_id from license_pivots))))`;
/** Targets of subject `s` as SQL: those of another seller. */
const TARGET = `k.seller_id <> s.seller_id and ${TARGET_ANY_SUBJECT}`;

export async function runMatching(pool: pg.Pool, opts: MatchRunOptions = {}): Promise<MatchRunResult> {
  const t0 = performance.now();
  const t = opts.thresholds ?? DEFAULT_MATCH_THRESHOLDS;
  // one listing (or a few): their keys only; a seller or everything: every key not current (incremental)
  // keys: of the listings given; for a seller's run, of the sellers whose data moved; else of every listing
  if (opts.productIds && !opts.sellerId) await refreshMatchKeys(pool, undefined, opts.productIds);
  else if (opts.sellerId && !opts.productIds) await refreshChangedMatchKeys(pool);
  else await refreshMatchKeys(pool);
  // A seller's run scores again only what may have changed since its last run (match_seller_state): a
  // listing whose key was (re)made since, of a brand with listings of other sellers (re)made since or
  // decided on since (decisions other than this seller's own automatic ones); any listing without a brand
  // when anything of the kind happened. Without a last run, every listing of the seller in no group.
  const incremental = opts.sellerId !== undefined && !opts.productIds;
  const { rows: marks } = incremental
    ? await pool.query<{
        keys: string;
        decision: string;
        scored_keys: string | null;
        scored_decision: string | null;
      }>(
        `select coalesce((select max(seq) from match_keys), 0) as keys,
                coalesce((select max(id) from match_decisions), 0) as decision,
                m.scored_keys_seq as scored_keys, m.scored_decision
           from (select 1) one left join match_seller_state m on m.seller_id = $1`,
        [opts.sellerId],
      )
    : { rows: [] };
  const since = marks[0]?.scored_keys != null ? marks[0] : null;
  // listings in no live group, or alone in a group ingest keyed by an invalid code (never trusted)
  const { rows: found } = await pool.query<Subject>(
    `select p.id::int, p.seller_id, p.name, b.name as brand, m.group_id::int as solo_group, g.ean as solo_ean
       from products p
       left join brands b on b.id = p.brand_id
       left join match_members m on m.product_id = p.id and m.status <> 'rejected'
       left join match_groups g on g.id = m.group_id
       left join match_keys k on k.product_id = p.id
      where p.published and p.name is not null
        and ${opts.productIds ? 'p.id = any($2::bigint[])' : '$2::bigint[] is null'}
        and ($1::int is null or p.seller_id = $1)
        and ($3::bigint is null or k.product_id is null or k.seq > $3
             or k.brand_key in (select o.brand_key from match_keys o where o.seq > $3 and o.seller_id <> $1)
             or k.brand_key in (select o.brand_key from match_decisions d join match_keys o on o.product_id = d.product_id
                                 where d.id > $4 and not (d.action = 'auto' and o.seller_id = $1))
             or (k.brand_key is null
                 and (exists (select 1 from match_keys o where o.seq > $3 and o.seller_id <> $1)
                      or exists (select 1 from match_decisions d where d.id > $4))))
        and (m.group_id is null
             or (m.method = 'ean' and not exists (select 1 from match_members o where o.group_id = m.group_id
                                                   and o.product_id <> p.id and o.status <> 'rejected')))
      order by p.id`,
    [
      opts.sellerId ?? null,
      opts.productIds ?? null,
      since?.scored_keys ?? null,
      since?.scored_decision ?? null,
    ],
  );
  const { rows: pivotRows } = await pool.query<{ seller_id: number }>(
    'select distinct seller_id from license_pivots',
  );
  const pivots = new Set(pivotRows.map((r) => r.seller_id));
  // competitors' listings first: the pivots' catalogues are what they are matched against
  const subjects = found
    .filter((s) => s.solo_group === null || normalizeGtin(s.solo_ean) === null)
    .sort((a, b) => Number(pivots.has(a.seller_id)) - Number(pivots.has(b.seller_id)) || a.id - b.id);
  // a listing alone in an invalid code's group is no target (its group says nothing)
  const soloIds = new Set(subjects.filter((s) => s.solo_group !== null).map((s) => s.id));
  const result: MatchRunResult = {
    considered: subjects.length,
    gtin: 0,
    mpn: 0,
    auto: 0,
    suggested: 0,
    ms: 0,
  };
  const scored = async () => {
    if (marks[0])
      await pool.query(
        `insert into match_seller_state (seller_id, scored_keys_seq, scored_decision) values ($1, $2, $3)
         on conflict (seller_id) do update set scored_keys_seq = excluded.scored_keys_seq,
           scored_decision = excluded.scored_decision`,
        [opts.sellerId, marks[0].keys, marks[0].decision],
      );
  };
  if (!subjects.length) {
    await scored();
    return { ...result, ms: Math.round(performance.now() - t0) };
  }
  const ids = subjects.map((s) => s.id);

  // 1. identifiers
  const { rows: idHits } = await pool.query<{ sid: number; tid: number; how: 'gtin' | 'mpn' }>(
    `select distinct on (s.product_id) s.product_id::int as sid, k.product_id::int as tid, x.how
       from match_keys s
       cross join lateral (
         select k.product_id, 'gtin' as how, 0 as rank from match_keys k
          where s.gtin is not null and k.gtin = s.gtin and ${TARGET}
         union all
         select k.product_id, 'mpn', 1 from match_keys k
          where s.mpn is not null and s.brand_key is not null and k.brand_key = s.brand_key and k.mpn = s.mpn
            and ${TARGET}
       ) x
       join match_keys k on k.product_id = x.product_id
      where s.product_id = any($1::bigint[])
      order by s.product_id, x.rank, k.product_id`,
    [ids],
  );
  const idOf = new Map(idHits.map((h) => [h.sid, h]));

  // 2. titles. A branded listing's candidates: the targets of its brand key, the best 8 by trigram
  //    similarity (pg_trgm's, domain trigrams.ts), found in the process's title index (title-index.ts:
  //    each brand's titles indexed by trigram, kept between runs and brought up to date), so a listing
  //    touches only the listings sharing a trigram with it (a LATERAL query per listing, scanning its
  //    brand and listing_current each time, did not finish for a seller of 25,000 listings; reading and
  //    indexing the whole brand for each run took one listing ~100 ms: docs/benchmarks.md "Matching").
  //    Whether a look-alike is a target is asked of the database: for many listings, of their brands' at
  //    once; for a few, of their best look-alikes only.
  //    A listing without a brand: the pg_trgm index on match_keys.title_key (the % operator).
  const titled = ids.filter((id) => !idOf.has(id));
  const cands: { sid: number; tid: number }[] = [];
  if (titled.length) {
    const { rows: keys } = await pool.query<{
      product_id: number;
      seller_id: number;
      brand_key: string | null;
      title_key: string;
    }>(
      `select product_id::int, seller_id, brand_key, title_key from match_keys where product_id = any($1::bigint[])`,
      [titled],
    );
    const brands = [...new Set(keys.map((k) => k.brand_key).filter((b): b is string => b !== null))];
    const blocks = await titleIndexOf(pool).blocksFor(pool, brands);
    const branded = keys.filter((k) => k.brand_key !== null);
    if (branded.length > FEW_SUBJECTS) {
      // many listings (a seller's import): the targets of their brands known at once
      const { rows: targetRows } = await pool.query<{ id: number }>(
        `select k.product_id::int as id from match_keys k where k.brand_key = any($1::text[]) and ${TARGET_ANY_SUBJECT}`,
        [brands],
      );
      const isTarget = new Set(targetRows.map((r) => r.id));
      for (const k of branded) {
        const block = blocks.get(k.brand_key as string);
        for (const c of block?.best(k.title_key, k.seller_id, CANDIDATES_PER_LISTING, (x) =>
          isTarget.has(x.id),
        ) ?? [])
          cands.push({ sid: k.product_id, tid: c.target.id });
      }
    } else {
      // a few (one new listing): their most similar listings asked whether they are targets, a few at a time
      // (the first LOOK_ALIKES; more when fewer than 8 of them are)
      const targetOk = new Map<number, boolean>();
      let pending = branded.map((k) => ({ k, limit: LOOK_ALIKES }));
      while (pending.length) {
        const lists = pending.map((p) => ({
          p,
          list: blocks.get(p.k.brand_key as string)?.best(p.k.title_key, p.k.seller_id, p.limit) ?? [],
        }));
        const ask = [...new Set(lists.flatMap((l) => l.list.map((c) => c.target.id)))].filter(
          (id) => !targetOk.has(id),
        );
        if (ask.length) {
          const { rows: yes } = await pool.query<{ id: number }>(
            `select k.product_id::int as id from match_keys k where k.product_id = any($1::bigint[]) and ${TARGET_ANY_SUBJECT}`,
            [ask],
          );
          for (const id of ask) targetOk.set(id, false);
          for (const r of yes) targetOk.set(r.id, true);
        }
        const next: typeof pending = [];
        for (const { p, list } of lists) {
          const ok = list.filter((c) => targetOk.get(c.target.id));
          if (ok.length >= CANDIDATES_PER_LISTING || list.length < p.limit)
            for (const c of ok.slice(0, CANDIDATES_PER_LISTING))
              cands.push({ sid: p.k.product_id, tid: c.target.id });
          else next.push({ k: p.k, limit: p.limit * 8 });
        }
        pending = next;
      }
    }
    const unbranded = keys.filter((k) => k.brand_key === null).map((k) => k.product_id);
    if (unbranded.length) {
      const { rows } = await pool.query<{ sid: number; tid: number }>(
        `select s.product_id::int as sid, c.product_id::int as tid
           from match_keys s
           cross join lateral (
             select k.product_id from match_keys k
              where k.title_key % s.title_key and ${TARGET}
              order by similarity(k.title_key, s.title_key) desc, k.product_id
              limit ${CANDIDATES_PER_LISTING}
           ) c
          where s.product_id = any($1::bigint[])`,
        [unbranded],
      );
      cands.push(...rows);
    }
  }

  const targetIds = [...new Set([...idHits.map((h) => h.tid), ...cands.map((c) => c.tid)])];
  const { rows: targets } = await pool.query<Target>(
    `select p.id::int, p.seller_id, p.name, b.name as brand, lc.group_id::int
       from products p left join brands b on b.id = p.brand_id
       join listing_current lc on lc.product_id = p.id
      where p.id = any($1::bigint[])`,
    [targetIds],
  );
  const targetOf = new Map(targets.map((x) => [x.id, x]));
  // sellers already live in each target group; pairs a person refused (rejected, or an undone decision)
  const groupIds = [...new Set(targets.map((x) => x.group_id).filter((g): g is number => g !== null))];
  const { rows: groupSellers } = await pool.query<{ group_id: number; seller_id: number }>(
    `select distinct m.group_id::int, p.seller_id from match_members m join products p on p.id = m.product_id
      where m.group_id = any($1::bigint[]) and m.status <> 'rejected'`,
    [groupIds],
  );
  const taken = new Set(groupSellers.map((r) => `${r.group_id}:${r.seller_id}`));
  const { rows: refused } = await pool.query<{ pid: number; tid: number | null; gid: number }>(
    `select product_id::int as pid, target_product_id::int as tid, group_id::int as gid from match_members
      where product_id = any($1::bigint[]) and status = 'rejected'
     union
     select product_id::int, target_product_id::int, group_id::int from match_decisions
      where product_id = any($1::bigint[]) and (action in ('reject', 'undo', 'report') or undone_by is not null)`,
    [ids],
  );
  const refusedPair = new Set(refused.flatMap((r) => [`t${r.pid}:${r.tid}`, `g${r.pid}:${r.gid}`]));

  const feats = new Map<number, TitleFeatures>();
  const featOf = (id: number, name: string, brand: string | null) => {
    let f = feats.get(id);
    if (!f) {
      f = titleFeatures(name, brand);
      feats.set(id, f);
    }
    return f;
  };
  const candsOf = new Map<number, number[]>();
  for (const c of cands) {
    const l = candsOf.get(c.sid);
    if (l) l.push(c.tid);
    else candsOf.set(c.sid, [c.tid]);
  }

  interface Pick {
    s: Subject;
    target: Target;
    method: 'gtin' | 'mpn' | 'auto' | 'title';
    score: number;
    parts: PartResult[] | null;
  }
  const picks: Pick[] = [];
  const allowed = (s: Subject, x: Target) =>
    !refusedPair.has(`t${s.id}:${x.id}`) &&
    (x.group_id === null ||
      (!refusedPair.has(`g${s.id}:${x.group_id}`) && !taken.has(`${x.group_id}:${s.seller_id}`)));
  // a listing is moved (as a subject) or joined (as a target) once per run
  const moved = new Set<number>();
  const joined = new Set<number>();
  const usable = (s: Subject, x: Target) =>
    !moved.has(x.id) && (!soloIds.has(x.id) || pivots.has(x.seller_id)) && allowed(s, x);
  const take = (p: Pick) => {
    picks.push(p);
    moved.add(p.s.id);
    joined.add(p.target.id);
  };
  for (const s of subjects) {
    if (joined.has(s.id)) continue;
    const hit = idOf.get(s.id);
    if (hit) {
      const x = targetOf.get(hit.tid);
      if (x && usable(s, x)) {
        take({ s, target: x, method: hit.how, score: 1, parts: null });
        continue;
      }
    }
    let best: { x: Target; score: number; parts: PartResult[] } | null = null;
    const fs = featOf(s.id, s.name, s.brand);
    for (const tid of candsOf.get(s.id) ?? []) {
      const x = targetOf.get(tid);
      if (!x || !usable(s, x)) continue;
      const r = scoreFeatures(fs, featOf(x.id, x.name, x.brand));
      if (!best || r.score > best.score) best = { x, score: r.score, parts: r.parts };
    }
    if (!best) continue;
    const c = classifyScore(best.score, t);
    if (c !== 'none')
      take({
        s,
        target: best.x,
        method: c === 'auto' ? 'auto' : 'title',
        score: best.score,
        parts: best.parts,
      });
  }

  await withTransaction(pool, async (client) => {
    // targets without a group: one new group each, the target its anchor
    const anchors = [...new Set(picks.filter((p) => p.target.group_id === null).map((p) => p.target.id))];
    const groupOfAnchor = new Map<number, number>();
    if (anchors.length) {
      const { rows } = await client.query<{ id: string }>(
        'insert into match_groups (ean) select null from generate_series(1, $1) returning id',
        [anchors.length],
      );
      for (const [i, a] of anchors.entries()) groupOfAnchor.set(a, Number(rows[i].id));
    }
    const changes: MatchChange[] = anchors.map((a) => ({
      productId: a,
      groupId: groupOfAnchor.get(a) as number,
      status: 'confirmed',
      method: 'anchor',
      action: 'auto',
      userId: null,
    }));
    const claimed = new Set<string>();
    const leaving: MatchChange[] = [];
    for (const p of picks) {
      const g = p.target.group_id ?? (groupOfAnchor.get(p.target.id) as number);
      const k = `${g}:${p.s.seller_id}`;
      if (claimed.has(k)) continue; // one listing of a seller per group
      claimed.add(k);
      if (p.s.solo_group !== null)
        leaving.push({
          productId: p.s.id,
          groupId: p.s.solo_group,
          status: null,
          action: 'auto',
          userId: null,
        });
      const confirmed = p.method !== 'title';
      changes.push({
        productId: p.s.id,
        groupId: g,
        status: confirmed ? 'confirmed' : 'suggested',
        method: p.method,
        targetProductId: p.target.id,
        score: p.score,
        parts: p.parts,
        action: 'auto',
        userId: null,
      });
      result[p.method === 'title' ? 'suggested' : p.method]++;
    }
    await applyMatchChanges(client, [...leaving, ...changes]);
  });
  await scored();
  return { ...result, ms: Math.round(performance.now() - t0) };
}
