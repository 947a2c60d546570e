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
 * the listing's name, brand, sku, seller id or EAN. Reads the stored keys of migration 031
 * (`products.search_key`, `brands.name_key`); `p` and `b` are the aliases of products and brands (a left
 * join: a listing may have no brand).
 */
export function wordsMatch(params: Params, words: string[], p = 'p', b = 'b'): string {
  return `(${p}.search_key || ' ' || coalesce(${b}.name_key, '')) like all(${params.add(words.map(likeContains), '::text[]')})`;
}
