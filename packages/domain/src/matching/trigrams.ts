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
 */
export class TrigramBlock<T extends TrigramTarget> {
  private readonly targets: T[];
  private readonly sizes: Int32Array;
  private readonly postings = new Map<string, number[]>();
  private readonly counts: Int32Array;

  constructor(targets: { target: T; title: string }[]) {
    const sorted = [...targets].sort((a, b) => a.target.id - b.target.id);
    this.targets = sorted.map((t) => t.target);
    this.sizes = new Int32Array(sorted.length);
    this.counts = new Int32Array(sorted.length);
    sorted.forEach(({ title }, i) => {
      const grams = trigrams(title);
      this.sizes[i] = grams.length;
      for (const g of grams) {
        const list = this.postings.get(g);
        if (list) list.push(i);
        else this.postings.set(g, [i]);
      }
    });
  }

  best(title: string, sellerId: number, limit: number): { target: T; similarity: number }[] {
    const grams = trigrams(title);
    const touched: number[] = [];
    for (const g of grams) {
      const list = this.postings.get(g);
      if (!list) continue;
      for (const i of list) {
        if (this.counts[i]++ === 0) touched.push(i);
      }
    }
    const ranked: { i: number; similarity: number }[] = [];
    for (const i of touched) {
      const c = this.counts[i];
      this.counts[i] = 0;
      if (this.targets[i].sellerId === sellerId) continue;
      ranked.push({ i, similarity: c / (grams.length + this.sizes[i] - c) });
    }
    ranked.sort((a, b) => b.similarity - a.similarity || a.i - b.i);
    const out = ranked.slice(0, limit).map((r) => ({ target: this.targets[r.i], similarity: r.similarity }));
    if (out.length < limit) {
      // fewer look-alikes than asked: the rest of the block in id order, as SQL would rank them (similarity 0)
      const have = new Set(ranked.map((r) => r.i));
      for (let i = 0; i < this.targets.length && out.length < limit; i++) {
        if (!have.has(i) && this.targets[i].sellerId !== sellerId)
          out.push({ target: this.targets[i], similarity: 0 });
      }
    }
    return out;
  }
}
