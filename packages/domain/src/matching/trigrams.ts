// Trigram similarity as PostgreSQL's pg_trgm computes it (similarity(a, b)): the text split into words of
// letters and digits, each word lower-cased and padded with two spaces before and one after, its 3-character
// windows collected as a set; similarity = shared trigrams / trigrams of either. The matching run ranks a
// branded listing's candidates with it in the process, over an inverted index of its brand's targets
// (apps/server/src/modules/matching/pipeline.ts); pipeline.test.ts checks it against pg_trgm's own.

/** The distinct trigrams of a text, as pg_trgm's show_trgm() (order aside). */
export function trigrams(text: string): string[] {
  const out = new Set<string>();
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    const w = `  ${word} `;
    const chars = [...w];
    for (let i = 0; i + 3 <= chars.length; i++) out.add(chars[i] + chars[i + 1] + chars[i + 2]);
  }
  return [...out];
}

/** pg_trgm similarity() of two trigram sets. */
export function trigramSimilarity(a: readonly string[], b: readonly string[]): number {
  if (!a.length || !b.length) return 0;
  const set = new Set(a);
  let shared = 0;
  for (const t of b) if (set.has(t)) shared++;
  return shared / (a.length + b.length - shared);
}

export interface TrigramTarget {
  id: number;
  sellerId: number;
}

/**
 * The targets of one block (a brand), indexed by trigram: `best` gives a subject's `limit` most similar
 * targets of other sellers — by similarity, then id (the order of pg_trgm's `order by similarity desc, id`),
 * targets sharing no trigram last in id order — touching only the targets that share a trigram with it.
 * A block can be kept and brought up to date (`put`, `remove`): the matching run's per-brand index
 * (apps/server/src/modules/matching/title-index.ts) keeps one per brand between runs.
 */
export class TrigramBlock<T extends TrigramTarget> {
  /** by slot; null: removed */
  private readonly targets: (T | null)[] = [];
  private readonly grams: string[][] = [];
  private readonly slotOf = new Map<number, number>();
  private readonly postings = new Map<string, number[]>();
  private counts = new Int32Array(16);
  /** live slots in id order (the fill of `best`), made again after a change */
  private order: number[] | null = null;
  private live = 0;

  constructor(targets: { target: T; title: string }[] = []) {
    for (const { target, title } of [...targets].sort((a, b) => a.target.id - b.target.id))
      this.put(target, title);
  }

  /** How many targets the block holds. */
  get size(): number {
    return this.live;
  }

  /** The ids of the targets the block holds. */
  ids(): IterableIterator<number> {
    return this.slotOf.keys();
  }

  /** Whether the block holds target `id`. */
  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** Adds a target, or replaces the one of the same id (its title may have changed). */
  put(target: T, title: string): void {
    const grams = trigrams(title);
    let slot = this.slotOf.get(target.id);
    if (slot !== undefined) this.unpost(slot);
    else {
      slot = this.targets.length;
      this.targets.push(null);
      this.grams.push([]);
      this.slotOf.set(target.id, slot);
      this.live++;
      if (slot >= this.counts.length) {
        const grown = new Int32Array(this.counts.length * 2);
        grown.set(this.counts);
        this.counts = grown;
      }
      // appended in id order keeps the order; an id below the last one makes it again when needed
      const last = this.order?.[this.order.length - 1];
      if (this.order && (last === undefined || (this.targets[last] as T).id < target.id))
        this.order.push(slot);
      else this.order = null;
    }
    this.targets[slot] = target;
    this.grams[slot] = grams;
    for (const g of grams) {
      const list = this.postings.get(g);
      if (list) list.push(slot);
      else this.postings.set(g, [slot]);
    }
  }

  /** Removes target `id` (if held). */
  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.unpost(slot);
    this.slotOf.delete(id);
    this.targets[slot] = null;
    this.grams[slot] = [];
    this.live--;
    this.order = null;
  }

  private unpost(slot: number): void {
    for (const g of this.grams[slot]) {
      const list = this.postings.get(g);
      if (!list) continue;
      const at = list.indexOf(slot);
      if (at >= 0) {
        list[at] = list[list.length - 1];
        list.pop();
      }
      if (!list.length) this.postings.delete(g);
    }
  }

  /**
   * The `limit` most similar targets of other sellers than `sellerId` that `accept` lets through (all when
   * not given): by similarity, then id; then, when fewer share a trigram, the rest in id order (similarity 0).
   */
  best(
    title: string,
    sellerId: number,
    limit: number,
    accept: (target: T) => boolean = () => true,
  ): { target: T; similarity: number }[] {
    const grams = trigrams(title);
    const touched: number[] = [];
    for (const g of grams) {
      const list = this.postings.get(g);
      if (!list) continue;
      for (const i of list) {
        if (this.counts[i]++ === 0) touched.push(i);
      }
    }
    const ranked: { t: T; similarity: number }[] = [];
    for (const i of touched) {
      const c = this.counts[i];
      this.counts[i] = 0;
      const t = this.targets[i] as T;
      if (t.sellerId === sellerId) continue;
      ranked.push({ t, similarity: c / (grams.length + this.grams[i].length - c) });
    }
    ranked.sort((a, b) => b.similarity - a.similarity || a.t.id - b.t.id);
    const out: { target: T; similarity: number }[] = [];
    for (const r of ranked) {
      if (out.length >= limit) return out;
      if (accept(r.t)) out.push({ target: r.t, similarity: r.similarity });
    }
    if (out.length < limit) {
      // fewer look-alikes than asked: the rest of the block in id order, as SQL would rank them (similarity 0)
      const have = new Set(ranked.map((r) => r.t.id));
      for (const i of this.idOrder()) {
        if (out.length >= limit) break;
        const t = this.targets[i] as T;
        if (!have.has(t.id) && t.sellerId !== sellerId && accept(t)) out.push({ target: t, similarity: 0 });
      }
    }
    return out;
  }

  private idOrder(): number[] {
    if (!this.order) {
      this.order = [...this.slotOf.values()].sort(
        (a, b) => (this.targets[a] as T).id - (this.targets[b] as T).id,
      );
    }
    return this.order;
  }
}
