import { TrigramBlock, type TrigramTarget } from '@vigia/domain';
import type pg from 'pg';

// The matching run's title index (issue 29; docs/architecture.md "Matching"): for each brand key, every
// listing's folded title of that brand (match_keys, any seller) indexed by trigram (domain trigrams.ts,
// pg_trgm's similarity), kept in the process between runs. Reading a brand's keys and making its trigrams
// is what one listing's matching cost on the medium market (a brand holds ~6,000 listings: ~100 ms of the
// ~120 ms, docs/benchmarks.md "Matching"); kept, a run reads only the keys (re)made since the last one
// (match_keys.seq, migrations/420_match_keys_seq.sql) and the count of each brand it uses: a kept block
// whose count is not its brand's missed a change (a key committed out of seq order, a listing deleted) and
// is made again. Whether a look-alike is a target (a pivot's listing or one confirmed in a group) changes
// with every decision, so it is not kept here: the run asks it (pipeline.ts).
// At most KEEP_TITLES titles are kept (~60 MB), the brands used least recently dropped first; a run may use
// more (a new seller touches every brand) and holds its blocks until it ends. One index per pool (a
// process may open several databases: the tests do).

/** Titles kept between runs, at most. */
export const KEEP_TITLES = 120_000;
/** More keys (re)made than this since the last run (a seller's first import): the kept blocks are dropped. */
const CATCH_UP_MAX = 50_000;

interface Kept {
  block: TrigramBlock<TrigramTarget>;
  used: number;
}

export class TitleIndex {
  private readonly blocks = new Map<string, Kept>();
  /** the brand of each listing held by a kept block */
  private readonly brandOf = new Map<number, string>();
  /** the highest match_keys.seq read */
  private seen = 0;
  private tick = 0;

  /** Titles held. */
  get titles(): number {
    let n = 0;
    for (const k of this.blocks.values()) n += k.block.size;
    return n;
  }

  /** The blocks of `brands`, current with match_keys. */
  async blocksFor(
    db: pg.Pool | pg.PoolClient,
    brands: string[],
  ): Promise<Map<string, TrigramBlock<TrigramTarget>>> {
    const tick = ++this.tick;
    if (!this.blocks.size) {
      const { rows } = await db.query<{ s: string | null }>('select max(seq) as s from match_keys');
      this.seen = Number(rows[0].s ?? 0);
    } else await this.catchUp(db);
    const kept = brands.filter((b) => this.blocks.has(b));
    if (kept.length) {
      const { rows } = await db.query<{ b: string; n: number }>(
        'select brand_key as b, count(*)::int as n from match_keys where brand_key = any($1::text[]) group by 1',
        [kept],
      );
      const count = new Map(rows.map((r) => [r.b, r.n]));
      for (const b of kept) if ((count.get(b) ?? 0) !== this.blocks.get(b)?.block.size) this.drop(b);
    }
    const missing = brands.filter((b) => !this.blocks.has(b));
    if (missing.length) {
      const { rows } = await db.query<{
        id: number;
        seller_id: number;
        brand_key: string;
        title_key: string;
      }>(
        `select product_id::int as id, seller_id, brand_key, title_key from match_keys
          where brand_key = any($1::text[]) order by product_id`,
        [missing],
      );
      const byBrand = new Map<string, { target: TrigramTarget; title: string }[]>(
        missing.map((b) => [b, []]),
      );
      for (const r of rows)
        byBrand.get(r.brand_key)?.push({ target: { id: r.id, sellerId: r.seller_id }, title: r.title_key });
      for (const [b, list] of byBrand) {
        this.blocks.set(b, { block: new TrigramBlock(list), used: tick });
        for (const { target } of list) this.brandOf.set(target.id, b);
      }
    }
    const out = new Map<string, TrigramBlock<TrigramTarget>>();
    for (const b of brands) {
      const k = this.blocks.get(b) as Kept;
      k.used = tick;
      out.set(b, k.block);
    }
    this.trim();
    return out;
  }

  /** The keys (re)made since the last read, into the kept blocks. */
  private async catchUp(db: pg.Pool | pg.PoolClient): Promise<void> {
    const { rows } = await db.query<{
      id: number;
      seller_id: number;
      brand_key: string | null;
      title_key: string;
      seq: string;
    }>(
      `select product_id::int as id, seller_id, brand_key, title_key, seq from match_keys
        where seq > $1 order by seq limit ${CATCH_UP_MAX + 1}`,
      [this.seen],
    );
    if (rows.length > CATCH_UP_MAX) {
      this.clear();
      const { rows: m } = await db.query<{ s: string | null }>('select max(seq) as s from match_keys');
      this.seen = Number(m[0].s ?? 0);
      return;
    }
    for (const r of rows) {
      const was = this.brandOf.get(r.id);
      if (was !== undefined && was !== r.brand_key) {
        this.blocks.get(was)?.block.remove(r.id);
        this.brandOf.delete(r.id);
      }
      const k = r.brand_key === null ? undefined : this.blocks.get(r.brand_key);
      if (k && r.brand_key !== null) {
        k.block.put({ id: r.id, sellerId: r.seller_id }, r.title_key);
        this.brandOf.set(r.id, r.brand_key);
      }
      this.seen = Math.max(this.seen, Number(r.seq));
    }
  }

  private drop(brand: string): void {
    const k = this.blocks.get(brand);
    if (!k) return;
    for (const id of k.block.ids()) this.brandOf.delete(id);
    this.blocks.delete(brand);
  }

  /** Drops the brands used least recently until at most KEEP_TITLES titles are kept. */
  private trim(): void {
    let n = this.titles;
    if (n <= KEEP_TITLES) return;
    for (const [b, k] of [...this.blocks].sort((x, y) => x[1].used - y[1].used)) {
      if (n <= KEEP_TITLES) break;
      n -= k.block.size;
      this.drop(b);
    }
  }

  clear(): void {
    this.blocks.clear();
    this.brandOf.clear();
  }
}

const indexes = new WeakMap<pg.Pool, TitleIndex>();

/** The title index of the database of `pool`. */
export function titleIndexOf(pool: pg.Pool): TitleIndex {
  let x = indexes.get(pool);
  if (!x) {
    x = new TitleIndex();
    indexes.set(pool, x);
  }
  return x;
}
