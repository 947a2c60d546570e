import { PRODUCT_LIST_SORTS } from '@vigia/domain';
import { oneOf, type UrlParamCheck } from '../../components/data/url-state.js';
import type { ProductListSort } from './api/queries.js';

// The list's search criteria live in the URL (shareable, survive a reload): q, sort, order, seller,
// match, stock. Parsing is forgiving: anything unknown falls back to the default — and the screen drops
// it from the URL with a notice (URL_CHECKS, useDropUnknownParams; issue 31 item 8).

export type SellerScope = 'pivot' | 'all' | number;
export type TriState = 'all' | 'yes' | 'no';

export interface ListCriteria {
  search: string;
  sort: ProductListSort;
  order: 'asc' | 'desc';
  seller: SellerScope;
  match: TriState;
  stock: TriState;
}

export const DEFAULT_CRITERIA: ListCriteria = {
  search: '',
  sort: 'name',
  order: 'asc',
  seller: 'pivot',
  match: 'all',
  stock: 'all',
};

const tri = (v: string | null): TriState => (v === 'yes' || v === 'no' ? v : 'all');

export function parseCriteria(params: URLSearchParams): ListCriteria {
  const sort = params.get('sort');
  const seller = params.get('seller');
  const sellerId = Number(seller);
  return {
    search: (params.get('q') ?? '').slice(0, 200),
    sort: (PRODUCT_LIST_SORTS as readonly string[]).includes(sort ?? '')
      ? (sort as ProductListSort)
      : DEFAULT_CRITERIA.sort,
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    seller: seller === 'all' ? 'all' : Number.isInteger(sellerId) && sellerId > 0 ? sellerId : 'pivot',
    match: tri(params.get('match')),
    stock: tri(params.get('stock')),
  };
}

/** URL parameters of the criteria; defaults are left out. */
export function criteriaToParams(c: ListCriteria): URLSearchParams {
  const p = new URLSearchParams();
  if (c.search) p.set('q', c.search);
  if (c.sort !== DEFAULT_CRITERIA.sort) p.set('sort', c.sort);
  if (c.order !== DEFAULT_CRITERIA.order) p.set('order', c.order);
  if (c.seller !== 'pivot') p.set('seller', String(c.seller));
  if (c.match !== 'all') p.set('match', c.match);
  if (c.stock !== 'all') p.set('stock', c.stock);
  return p;
}

/** What each of the list's URL parameters may hold (anything else is dropped with a notice). */
export function listUrlChecks(sizes: readonly number[]): UrlParamCheck[] {
  const tri = ['all', 'yes', 'no'];
  return [
    oneOf('sort', PRODUCT_LIST_SORTS),
    oneOf('order', ['asc', 'desc']),
    { key: 'seller', ok: (raw) => raw === 'all' || raw === 'pivot' || /^[1-9]\d{0,9}$/.test(raw) },
    oneOf('match', tri),
    oneOf('stock', tri),
    { key: 'page', ok: (raw) => /^[1-9]\d{0,3}$/.test(raw) || raw === '10000' },
    oneOf('size', sizes),
  ];
}

/** Sellers sent to the list call: none = the pivot only; 'all' = the pivot and every competitor. */
export function sellersFor(
  scope: SellerScope,
  pivotId: number | null,
  competitors: readonly number[],
): number[] {
  if (scope === 'pivot') return [];
  if (scope === 'all') return [...(pivotId ? [pivotId] : []), ...competitors].sort((a, b) => a - b);
  return [scope];
}

export const triToBool = (t: TriState): boolean | undefined => (t === 'all' ? undefined : t === 'yes');

/** The page shown (0-based) and page size, kept in the URL as `page` (1-based) and `size`. */
export interface ListPaging {
  page: number;
  pageSize: number | null;
}

export function parsePaging(params: URLSearchParams, sizes: readonly number[]): ListPaging {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page - 1 : 0,
    pageSize: sizes.includes(size) ? size : null,
  };
}

/** `params` with the paging set (first page and the default size are left out). */
export function withPaging(params: URLSearchParams, page: number, pageSize: number, defaultSize: number) {
  const next = new URLSearchParams(params);
  if (page > 0) next.set('page', String(page + 1));
  else next.delete('page');
  if (pageSize !== defaultSize) next.set('size', String(pageSize));
  else next.delete('size');
  return next;
}
