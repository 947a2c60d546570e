import { foldText, trigrams } from '@vigia/domain';
import type pg from 'pg';
import { withTransaction } from '../../db/database.js';
import { bumpChanges } from '../../platform/change-signal.js';

// Matching beyond EAN equality (PRODUCT.md "match"): a published listing without EAN and without a live
// match group is suggested into the match group whose listings (of other sellers, same brand and same
// classification, confirmed members) have the most similar title. A person confirms or rejects it.
//
// Similarity: pg_trgm's similarity() when the extension is installed (migrations/012_pg_trgm.sql),
// otherwise the Jaccard index of the titles' normalised word sets, computed here. Suggestions need a
// similarity ≥ minSimilarity (default 0.5); confidence maps [minSimilarity, 1] linearly onto [0.7, 0.95].
// (The seeded demo market's suggestions. Matching of real data — identifiers, scored titles, thresholds,
// decisions — is modules/matching; decisions go through its decide.ts.)
// A group that already has a live listing of the same seller, or that the listing was rejected from,
// is never suggested. listing_current.group_id / match_status follow every change.

export interface SuggestOptions {
  /** Only listings of this seller (default: all). */
  sellerId?: number;
  minSimilarity?: number;
  /** Force a method (tests); default: trigram when pg_trgm is installed, else Jaccard. */
  method?: 'trgm' | 'jaccard';
}

export interface SuggestResult {
  suggested: number;
  method: 'trgm' | 'jaccard';
}

const MIN_CONFIDENCE = 0.7;
const MAX_CONFIDENCE = 0.95;

/** Confidence of a suggestion from its similarity (see above). */
export function confidenceOf(similarity: number, minSimilarity: number): number {
  const c =
    MIN_CONFIDENCE + ((MAX_CONFIDENCE - MIN_CONFIDENCE) * (similarity - minSimilarity)) / (1 - minSimilarity);
  return Math.round(Math.min(MAX_CONFIDENCE, Math.max(MIN_CONFIDENCE, c)) * 1000) / 1000;
}

/**
 * Words of a title, folded as every search folds (domain foldText: lower case, accents off); "1kg" →
 * "1", "kg"; "1,5" stays one word.
 */
export function titleTokens(title: string): Set<string> {
  const norm = foldText(title)
    .replace(/(\d)([a-z])/g, '$1 $2')
    .replace(/([a-z])(\d)/g, '$1 $2');
  return new Set(norm.split(/[^a-z0-9,]+/).filter((w) => w && w !== ','));
}

/** Jaccard index |A ∩ B| / |A ∪ B| of two titles' word sets. */
export function tokenJaccard(a: string, b: string): number {
  const ta = titleTokens(a);
  const tb = titleTokens(b);
  if (!ta.size && !tb.size) return 0;
  let inter = 0;
  for (const w of ta) if (tb.has(w)) inter++;
  return inter / (ta.size + tb.size - inter);
}

export async function hasTrigram(db: pg.Pool | pg.PoolClient): Promise<boolean> {
  const { rowCount } = await db.query(`select 1 from pg_extension where extname = 'pg_trgm'`);
  return (rowCount ?? 0) > 0;
}

/** A listing that may be suggested. */
interface Candidate {
  id: number;
  seller_id: number;
  name: string;
  classification_id: number | null;
}

/** A distinct title of a group's confirmed listings (of one brand and classification). */
interface GroupTitle {
  group_id: number;
  classification_id: number | null;
  name: string;
}

export interface BestGroup {
  product_id: number;
  group_id: number;
  sim: number;
}

/**
 * Word sets (trigrams or words), each word a number shared by the titles of one brand, sorted: two titles'
 * shared words by one merge instead of a set built per comparison.
 */
class WordSets {
  private readonly ids = new Map<string, number>();
  private readonly sets = new Map<string, Int32Array>();

  constructor(private readonly words: (title: string) => Iterable<string>) {}

  of(title: string): Int32Array {
    let set = this.sets.get(title);
    if (!set) {
      const out: number[] = [];
      for (const w of new Set(this.words(title))) {
        let id = this.ids.get(w);
        if (id === undefined) {
          id = this.ids.size;
          this.ids.set(w, id);
        }
        out.push(id);
      }
      set = Int32Array.from(out).sort();
      this.sets.set(title, set);
    }
    return set;
  }
}

function shared(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      n++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return n;
}

/**
 * The similarity of two titles' sets: pg_trgm's similarity() over trigram sets (as PostgreSQL computes it,
 * in single precision: count / (len1 + len2 − count) as float4), or the Jaccard index over word sets
 * (tokenJaccard).
 */
function similarityOf(method: 'trgm' | 'jaccard', a: Int32Array, b: Int32Array): number {
  if (method === 'trgm' && (!a.length || !b.length)) return 0;
  if (!a.length && !b.length) return 0;
  const n = shared(a, b);
  const sim = n / (a.length + b.length - n);
  return method === 'trgm' ? Math.fround(sim) : sim;
}

/**
 * Each candidate's best group among `titles` (same classification; never a group that has a live listing
 * of the candidate's seller, nor one the candidate was rejected from): the highest similarity of any of
 * the group's titles, ties to the lowest group id; only similarities ≥ `min`.
 */
function bestGroups(
  method: 'trgm' | 'jaccard',
  min: number,
  candidates: readonly Candidate[],
  titles: readonly GroupTitle[],
  groupSellers: ReadonlyMap<number, ReadonlySet<number>>,
  rejected: ReadonlySet<string>,
  sets: WordSets,
): BestGroup[] {
  const byClass = new Map<number | null, { group: number; set: Int32Array }[]>();
  for (const t of titles) {
    const list = byClass.get(t.classification_id) ?? [];
    list.push({ group: t.group_id, set: sets.of(t.name) });
    byClass.set(t.classification_id, list);
  }
  const out: BestGroup[] = [];
  for (const c of candidates) {
    const list = byClass.get(c.classification_id);
    if (!list) continue;
    const mine = sets.of(c.name);
    let best: BestGroup | null = null;
    for (const t of list) {
      if (groupSellers.get(t.group)?.has(c.seller_id) || rejected.has(`${c.id}:${t.group}`)) continue;
      const sim = similarityOf(method, mine, t.set);
      if (sim < min) continue;
      if (!best || sim > best.sim || (sim === best.sim && t.group < best.group_id))
        best = { product_id: c.id, group_id: t.group, sim };
    }
    if (best) out.push(best);
  }
  return out;
}

/**
 * Each candidate's best group, brand by brand (the pairs of a large market — every candidate against every
 * title of its brand and classification, ~10⁸ — are never a relation: PostgreSQL spilled them to disk by
 * the tens of gigabytes, and its similarity() builds both trigram sets on each call).
 */
export async function titleSuggestions(
  db: pg.PoolClient,
  method: 'trgm' | 'jaccard',
  min: number,
  sellerId: number | null,
): Promise<BestGroup[]> {
  const { rows: cands } = await db.query<Candidate & { brand_id: number }>(
    `select p.id, p.seller_id, p.name, p.brand_id, p.classification_id
       from products p
      where p.ean is null and p.published and p.name is not null and p.brand_id is not null
        and ($1::int is null or p.seller_id = $1)
        and not exists (select 1 from match_members m where m.product_id = p.id and m.status <> 'rejected')
      order by p.id`,
    [sellerId],
  );
  const byBrand = new Map<number, Candidate[]>();
  for (const c of cands) {
    const list = byBrand.get(c.brand_id) ?? [];
    list.push(c);
    byBrand.set(c.brand_id, list);
  }
  const best: BestGroup[] = [];
  for (const [brand, list] of byBrand) {
    // one brand's titles at a time: their sets are not kept beyond it
    const sets = new WordSets(method === 'trgm' ? trigrams : titleTokens);
    const { rows: titles } = await db.query<GroupTitle>(
      `select distinct m.group_id, o.classification_id, o.name
         from products o join match_members m on m.product_id = o.id and m.status = 'confirmed'
        where o.brand_id = $1 and o.published and o.name is not null`,
      [brand],
    );
    if (!titles.length) continue;
    const groups = [...new Set(titles.map((t) => t.group_id))];
    const { rows: members } = await db.query<{ group_id: number; seller_id: number }>(
      `select distinct m.group_id, p.seller_id
         from match_members m join products p on p.id = m.product_id
        where m.group_id = any($1::bigint[]) and m.status <> 'rejected'`,
      [groups],
    );
    const groupSellers = new Map<number, Set<number>>();
    for (const m of members) {
      const set = groupSellers.get(m.group_id) ?? new Set<number>();
      set.add(m.seller_id);
      groupSellers.set(m.group_id, set);
    }
    const { rows: refused } = await db.query<{ product_id: number; group_id: number }>(
      `select product_id, group_id from match_members where product_id = any($1::bigint[]) and status = 'rejected'`,
      [list.map((c) => c.id)],
    );
    const rejected = new Set(refused.map((r) => `${r.product_id}:${r.group_id}`));
    best.push(...bestGroups(method, min, list, titles, groupSellers, rejected, sets));
  }
  return best.sort((a, b) => a.product_id - b.product_id);
}

/** Suggests title matches for listings without EAN; returns how many were suggested. */
export async function suggestTitleMatches(pool: pg.Pool, opts: SuggestOptions = {}): Promise<SuggestResult> {
  const min = opts.minSimilarity ?? 0.5;
  const method = opts.method ?? ((await hasTrigram(pool)) ? 'trgm' : 'jaccard');
  return withTransaction(pool, async (client) => {
    const best = await titleSuggestions(client, method, min, opts.sellerId ?? null);
    if (!best.length) return { suggested: 0, method };
    const { rows: inserted } = await client.query<{ product_id: number }>(
      `insert into match_members (group_id, product_id, method, confidence, status)
       select g, p, 'title', c, 'suggested' from unnest($1::bigint[], $2::bigint[], $3::real[]) as t(g, p, c)
        order by p
       on conflict do nothing
       returning product_id`,
      [best.map((b) => b.group_id), best.map((b) => b.product_id), best.map((b) => confidenceOf(b.sim, min))],
    );
    const suggested = inserted.map((r) => r.product_id);
    await syncListingCurrent(client, suggested);
    await bumpChanges(client, suggested, 'matches', 'listings');
    return { suggested: inserted.length, method };
  });
}

/**
 * listing_current.group_id / match_status of the listings from their live match membership (after any
 * change of match_members: this title suggestion, a decision in modules/matching).
 */
export async function syncListingCurrent(db: pg.PoolClient, productIds: number[]): Promise<void> {
  if (!productIds.length) return;
  await db.query(
    `update listing_current lc set group_id = mm.group_id, match_status = mm.status
       from (select p.id, m.group_id, m.status
               from unnest($1::bigint[]) as p(id)
               left join match_members m on m.product_id = p.id and m.status <> 'rejected') mm
      where lc.product_id = mm.id
        and (lc.group_id, lc.match_status) is distinct from (mm.group_id, mm.status)`,
    [productIds],
  );
}
