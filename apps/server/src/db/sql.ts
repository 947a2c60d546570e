// Small helpers for the SQL that modules compose by hand.

/** Positional parameters of a query being composed: `p.add(value, '::int[]')` → `$3::int[]`. */
export class Params {
  readonly values: unknown[] = [];
  add(v: unknown, cast = ''): string {
    this.values.push(v);
    return `$${this.values.length}${cast}`;
  }
}

/** A LIKE pattern matching `w` anywhere, with LIKE's special characters escaped. */
export const likeContains = (w: string) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A LIKE pattern matching text that starts with `w`, escaped. */
export const likePrefix = (w: string) => `${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Condition: every word (already normalised by `normalizeSearch`: lower case, accents removed) appears in
 * the listing's name, sku, seller id or EAN (`products.search_key`, migration 031) or in its brand's name
 * (`brands.name_key`). Written per word as `search_key like … or brand_id in (brands whose name has it)`
 * so that PostgreSQL can combine the trigram index on search_key (migration 042) with the brand index;
 * the same words over `search_key || ' ' || brand` could only be checked row by row. `p` is the alias
 * of products.
 */
export function wordsMatch(params: Params, words: string[], p = 'p'): string {
  const each = words.map((w) => {
    const pattern = params.add(likeContains(w));
    return `(${p}.search_key like ${pattern} or ${p}.brand_id = any(array(select id from brands where name_key like ${pattern})))`;
  });
  // only words too short for a trigram: the trigram index cannot narrow the rows, the index of the
  // published listings' search keys (migration 521, whose predicate this always-true test names) lets
  // PostgreSQL test them without reading the rows
  if (words.length && words.every((w) => w.length < TRIGRAM)) each.unshift(`${p}.search_key is not null`);
  return each.join(' and ');
}

/** pg_trgm's trigram: a LIKE pattern's word shorter than this gives the trigram index nothing to look up. */
const TRIGRAM = 3;
