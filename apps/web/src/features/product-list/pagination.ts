import { PRODUCT_LIST_MAX_PAGE_SIZE, PRODUCT_LIST_PAGE_SIZE, productListPageAction } from '@vigia/domain';

// Product list pagination (seed 001 §4) as a pure reducer around the domain's decision
// (productListPageAction): all loaded → only the page changes; a page size larger than the loaded count
// → first page and reload; a page beyond the loaded items → fetch. The table shows one page of the
// items loaded so far (kept contiguous from the first). The reducer never fetches: it sets `request`
// (server pages, 1-based, of `page_size` items) and the screen answers with loaded/failed.

export const PAGE_SIZE_OPTIONS = [10, 25, 50, PRODUCT_LIST_MAX_PAGE_SIZE] as const;

export type ListStatus = 'idle' | 'pending' | 'error' | 'ready';

export interface ListRequest {
  id: number;
  /** 1-based server pages to fetch, in order, all of `page_size` items. */
  pages: number[];
  page_size: number;
  /** true: the answer replaces the loaded items; false: it is placed at (pages[0] − 1) × page_size. */
  reset: boolean;
}

export interface ListState<T> {
  items: T[];
  /** Items the server has for the current search (all pages). */
  totalItems: number;
  /** 0-based page shown. */
  page: number;
  pageSize: number;
  status: ListStatus;
  /** The fetch in flight, if any; answers to other requests are ignored. */
  request: ListRequest | null;
  lastRequestId: number;
}

export type ListAction<T> =
  /** Start over; `page` (0-based) opens that page at once (the page kept in the URL, after Back or reload). */
  | { type: 'reload'; page?: number }
  | { type: 'changePage'; page: number }
  | { type: 'changePageSize'; pageSize: number }
  | { type: 'loaded'; requestId: number; items: T[]; totalItems: number }
  | { type: 'failed'; requestId: number };

export function initialListState<T>(pageSize: number = PRODUCT_LIST_PAGE_SIZE): ListState<T> {
  return { items: [], totalItems: 0, page: 0, pageSize, status: 'idle', request: null, lastRequestId: 0 };
}

/** The items of the page shown. */
export function pageItems<T>(state: ListState<T>): T[] {
  const start = state.page * state.pageSize;
  return state.items.slice(start, start + state.pageSize);
}

function withRequest<T>(state: ListState<T>, pages: number[], reset: boolean): ListState<T> {
  const id = state.lastRequestId + 1;
  return {
    ...state,
    items: reset ? [] : state.items,
    totalItems: reset ? 0 : state.totalItems,
    status: 'pending',
    request: { id, pages, page_size: state.pageSize, reset },
    lastRequestId: id,
  };
}

/** Server pages (1-based, of `pageSize`) that bring the loaded items up to the end of `page` (0-based). */
export function pagesToFetch(loaded: number, page: number, pageSize: number): number[] {
  const first = Math.floor(loaded / pageSize) + 1;
  const pages: number[] = [];
  for (let p = first; p <= page + 1; p++) pages.push(p);
  return pages;
}

/** Applies the domain's decision to a page or page-size change. */
function move<T>(state: ListState<T>, page: number, pageSize: number): ListState<T> {
  const action = productListPageAction(
    { loaded: state.items.length, totalItems: state.totalItems, pageSize: state.pageSize },
    { page, pageSize },
  );
  switch (action.kind) {
    case 'page':
      return { ...state, page, pageSize };
    case 'reset':
      return withRequest({ ...state, page: 0, pageSize }, [1], true);
    case 'fetch':
      return withRequest(
        { ...state, page, pageSize },
        pagesToFetch(state.items.length, page, pageSize),
        false,
      );
  }
}

export function listReducer<T>(state: ListState<T>, action: ListAction<T>): ListState<T> {
  switch (action.type) {
    case 'reload': {
      // New search, sort or settings: start over from the first page — or from the page asked for,
      // loading every page up to it (the loaded items stay contiguous from the first).
      const page = Math.max(0, Math.floor(action.page ?? 0));
      return withRequest({ ...state, page }, pagesToFetch(0, page, state.pageSize), true);
    }

    case 'changePage': {
      const page = Math.max(0, Math.floor(action.page));
      if (page === state.page && state.status !== 'error') return state;
      return move(state, page, state.pageSize);
    }

    case 'changePageSize': {
      const pageSize = Math.max(1, Math.floor(action.pageSize));
      if (pageSize === state.pageSize) return state;
      // A new page size shows the first page (the usual table behaviour).
      return move(state, 0, pageSize);
    }

    case 'loaded': {
      const req = state.request;
      if (req?.id !== action.requestId) return state; // a stale answer
      const offset = req.reset ? 0 : (req.pages[0] - 1) * req.page_size;
      const items = [...state.items.slice(0, offset), ...action.items];
      // The page asked for may not exist any more (the list shrank): show the last one.
      const lastPage = Math.max(0, Math.ceil(items.length / state.pageSize) - 1);
      return {
        ...state,
        items,
        totalItems: Math.max(action.totalItems, items.length),
        page: Math.min(state.page, lastPage),
        status: 'ready',
        request: null,
      };
    }

    case 'failed': {
      if (state.request?.id !== action.requestId) return state;
      // Stay on a page that has items; moving to the page again retries.
      const lastPage = Math.max(0, Math.ceil(state.items.length / state.pageSize) - 1);
      return { ...state, page: Math.min(state.page, lastPage), status: 'error', request: null };
    }
  }
}
