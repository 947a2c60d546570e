// Search-text normalisation (docs/metrics.md "Search"): one definition for the words of a query and
// for the keys they are matched against. Lower case, then the accented letters below folded to their
// base letter — exactly PostgreSQL's translate(lower(text), SEARCH_FOLD_FROM, SEARCH_FOLD_TO), which
// stores products.name_key / search_key and brands.name_key (migrations/031_search_keys.sql) and is the
// SQL function vigia_fold(text) (migrations/050_market_formulas.sql). A test runs both on the same
// texts (apps/server/src/market/formulas.test.ts).

export const SEARCH_FOLD_FROM = 'áàâäãåéèêëíìîïóòôöõúùûüñç';
export const SEARCH_FOLD_TO = 'aaaaaaeeeeiiiiooooouuuunc';

/** Most words a search takes (metaSearch, quick find, product list). */
export const SEARCH_MAX_WORDS = 10;

const FOLD = new Map([...SEARCH_FOLD_FROM].map((c, i) => [c, SEARCH_FOLD_TO[i]]));
const FOLDABLE = new RegExp(`[${SEARCH_FOLD_FROM}]`, 'g');

/** Lower case, accents of SEARCH_FOLD_FROM removed: the key a text is searched and sorted by. */
export function foldText(text: string): string {
  return text.toLowerCase().replace(FOLDABLE, (c) => FOLD.get(c) ?? c);
}

/** Words of a free-text search: folded (foldText), split on white space, at most SEARCH_MAX_WORDS. */
export function normalizeSearch(text: string): string[] {
  return foldText(text).split(/\s+/).filter(Boolean).slice(0, SEARCH_MAX_WORDS);
}
