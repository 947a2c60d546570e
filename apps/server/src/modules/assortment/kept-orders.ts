import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { ownArrayBytes, readModelsOf } from '../../platform/read-model.js';
import {
  type ListKind,
  type ListOrder,
  ofSomeBrands,
  type ProductQuery,
  type ProductRow,
  selectListOrder,
  selectOrderedPage,
  selectProducts,
} from './queries.js';

// A Surtido list of some brands (a brand row, the selection's brands or own brands) by name or by price,
// kept in order from its second ask (issue 30): such a page sorts every span of the brands on the list's
// day — on the large market the top brand's 32,923 spans, ~30,000 heap pages, ~50 ms of PostgreSQL a page
// whatever page or direction is asked. The screen asks the same list again for its next pages and the
// other direction, so the second ask of a list and sort reads the list's keys in order once
// (selectListOrder: ~12 bytes a span), beside its answer, and every page after it reads its 25 spans by
// key. The first two asks of a list are answered as before: a list visited once costs nothing more, and
// no answer waits for an order. Kept at the market's data version (the read-model holder's answers:
// dropped when a change is committed), in a room of ORDER_BYTES.

type Query = ProductQuery & { kind: ListKind };

/** The kept orders' room: ~20 lists of a large market's top brand (400 kB each). */
const ORDER_BYTES = 8 * 1024 * 1024;
const ORDERS = 64;
/** The largest page read from a kept order (a download reads the list as before). */
const PAGE_MAX = 200;

/** The lists asked once at a version (key and version): their second ask builds the order. */
const asked = new LRUCache<string, true>({ max: 1024 });
const building = new Set<Promise<void>>();

/** What a kept order depends on besides the market's data: the list, the sort and (price) the rates. */
function orderKey(q: Query): unknown[] | null {
  if (q.kind !== 'state' || !ofSomeBrands(q) || q.limit > PAGE_MAX) return null;
  const s = q.selection;
  if (q.sort !== 'name' && q.sort !== 'price') return null;
  return [
    'brand-list',
    s.zone,
    s.sellers,
    s.roots,
    s.classificationsIds ?? null,
    s.brands ?? null,
    s.ownBrands ?? null,
    q.brandIds ?? null,
    q.to,
    q.sort,
    q.sort === 'price' ? [...q.rates] : null,
  ];
}

/** A drill-down's page: from the list's kept order when it has one (or this is its second ask), else selectProducts. */
export async function selectProductsPage(pool: pg.Pool, q: Query): Promise<ProductRow[]> {
  const key = orderKey(q);
  if (!key) return selectProducts(pool, q);
  const models = readModelsOf(pool);
  const memo = models.memo<ListOrder>('assortment-list-orders', ORDERS, true, {
    maxBytes: ORDER_BYTES,
    bytes: ownArrayBytes,
  });
  const state = { ...q, kind: 'state' as const };
  const version = await models.version();
  const seen = JSON.stringify([key, version]);
  const kept = memo.get(seen);
  if (kept) return selectOrderedPage(pool, state, kept);
  if (asked.get(seen)) {
    // the second ask: the order is read beside this answer (made once, whoever asks meanwhile)
    asked.delete(seen);
    const build = memo
      .answer(key, () => selectListOrder(pool, state))
      .then(
        () => undefined,
        (err: unknown) => models.warn({ err }, 'assortment: the order of a brand list could not be kept'),
      );
    building.add(build);
    void build.finally(() => building.delete(build));
  } else asked.set(seen, true);
  return selectProducts(pool, q);
}

/** The orders being read (for tests: kept once this settles). */
export async function ordersBuilt(): Promise<void> {
  await Promise.all([...building]);
}
