import { brandKey, foldText, normalizeGtin, normalizeMpn } from '@vigia/domain';
import type pg from 'pg';

// match_keys (migrations/260_matching.sql): what candidate search reads of a listing — its GTIN and MPN
// normalised (invalid codes dropped: never trusted), its brand key (known spellings joined) and its
// folded title (foldText, the app's one search folding; pg_trgm index). Kept incrementally: a listing
// whose description hash moved since its key was made is read again. Each row (re)made takes a new `seq`
// (migrations/420_match_keys_seq.sql): what the process's title index (title-index.ts) reads to stay current.

const BATCH = 5000;

/**
 * Brings match_keys up to date for every listing with a name (or those of `sellerId`, or the listings
 * `productIds`); returns how many were (re)made.
 */
export async function refreshMatchKeys(
  db: pg.Pool | pg.PoolClient,
  sellerId?: number,
  productIds?: number[],
): Promise<number> {
  let made = 0;
  let after = 0;
  for (;;) {
    const { rows } = await db.query<{
      id: string;
      seller_id: number;
      ean: string | null;
      mpn: string | null;
      name: string;
      brand: string | null;
      descr_hash: string | null;
    }>(
      `select p.id, p.seller_id, p.ean, p.mpn, p.name, b.name as brand, p.descr_hash
         from products p
         left join brands b on b.id = p.brand_id
         left join match_keys k on k.product_id = p.id
        where p.id > $1 and p.name is not null and ($2::int is null or p.seller_id = $2)
          and ${productIds ? 'p.id = any($3::bigint[])' : '$3::bigint[] is null'}
          and (k.product_id is null or k.descr_hash is distinct from p.descr_hash)
        order by p.id limit ${BATCH}`,
      [after, sellerId ?? null, productIds ?? null],
    );
    if (!rows.length) return made;
    after = Number(rows[rows.length - 1].id);
    await db.query(
      `insert into match_keys as k (product_id, seller_id, gtin, mpn, brand_key, title_key, descr_hash)
       select * from unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
       on conflict (product_id) do update set seller_id = excluded.seller_id, gtin = excluded.gtin,
         mpn = excluded.mpn, brand_key = excluded.brand_key, title_key = excluded.title_key,
         descr_hash = excluded.descr_hash, seq = nextval('match_keys_seq')`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.seller_id),
        rows.map((r) => normalizeGtin(r.ean)),
        rows.map((r) => normalizeMpn(r.mpn)),
        rows.map((r) => brandKey(r.brand)),
        rows.map((r) => foldText(r.name).replace(/\s+/g, ' ').trim()),
        rows.map((r) => r.descr_hash),
      ],
    );
    made += rows.length;
    if (rows.length < BATCH) return made;
  }
}

/**
 * Brings match_keys up to date for the sellers whose data moved since their keys were last made
 * (sellers.ingest_seq, bumped by every import and match change, against match_seller_state.keys_seq:
 * migrations/421_match_seller_state.sql); returns how many keys were (re)made. What a seller's matching
 * run calls: scanning every listing of the market for a changed key took ~200 ms on the medium market
 * (docs/benchmarks.md "Matching"), most of one new listing's matching.
 */
export async function refreshChangedMatchKeys(db: pg.Pool | pg.PoolClient): Promise<number> {
  const { rows } = await db.query<{ id: number; seq: string }>(
    `select s.id, s.ingest_seq as seq from sellers s left join match_seller_state m on m.seller_id = s.id
      where m.keys_seq is distinct from s.ingest_seq order by s.id`,
  );
  let made = 0;
  for (const s of rows) {
    // the sequence read before the keys: a change meanwhile moves it again, and the next run reads it
    made += await refreshMatchKeys(db, s.id);
    await db.query(
      `insert into match_seller_state (seller_id, keys_seq) values ($1, $2)
       on conflict (seller_id) do update set keys_seq = excluded.keys_seq`,
      [s.id, s.seq],
    );
  }
  return made;
}
