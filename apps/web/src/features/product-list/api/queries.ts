import {
  MESSAGES,
  type PRODUCT_LIST_SORTS,
  type ProductListBody,
  type ProductListItem,
  productListRoutes,
} from '@vigia/domain';
import { callRoute } from '../../../lib/api-client.js';
import { loadWithMessage } from '../../../lib/load.js';
import type { ListRequest } from '../pagination.js';

// The product list call (seed 001 §7: "a list-products call"; Vigía's is POST /v1/list-products/).
// The screen's reducer decides which pages to fetch; this fetches them and joins the answers.

export type ProductListSort = (typeof PRODUCT_LIST_SORTS)[number];

export interface ProductListCriteria {
  pivotId: number | null;
  currency: string;
  /** sellers whose listings are listed; empty = the pivot only */
  sellers: number[];
  search: string;
  sort: ProductListSort;
  order: 'asc' | 'desc';
  match?: boolean;
  stockOut?: boolean;
}

export interface ProductListPage {
  items: ProductListItem[];
  totalItems: number;
  listTitle: string;
}

/** Fetches the request's pages (in parallel) and returns their items in order. */
export function fetchProductList(
  criteria: ProductListCriteria,
  request: ListRequest,
  signal?: AbortSignal,
): Promise<ProductListPage> {
  return loadWithMessage(MESSAGES.productListFailed, 'Lista de productos', signal, async () => {
    const answers = await Promise.all(
      request.pages.map((page) => {
        const body: ProductListBody = {
          pivot_id: criteria.pivotId ?? undefined,
          sellers: criteria.sellers.length ? criteria.sellers : undefined,
          currency: criteria.currency,
          page,
          page_size: request.page_size,
          search: criteria.search || undefined,
          sort: criteria.sort,
          order: criteria.order,
          match: criteria.match,
          stockOut: criteria.stockOut,
        };
        return callRoute(
          productListRoutes.list,
          { body },
          { notify: false, signal, pivotId: criteria.pivotId },
        );
      }),
    );
    const last = answers[answers.length - 1];
    return {
      items: answers.flatMap((a) => a.items),
      totalItems: last?.totalItems ?? 0,
      listTitle: last?.listTitle ?? MESSAGES.productListTitle,
    };
  });
}
