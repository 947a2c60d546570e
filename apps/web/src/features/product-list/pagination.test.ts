import { describe, expect, it } from 'vitest';
import { initialListState, type ListState, listReducer, pageItems, pagesToFetch } from './pagination.js';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** A state after the first load of `loaded` items out of `total`, page size 10. */
function loadedState(loaded: number, total: number, pageSize = 10): ListState<number> {
  let s = listReducer(initialListState<number>(pageSize), { type: 'reload' });
  s = listReducer(s, {
    type: 'loaded',
    requestId: s.request!.id,
    items: range(0, loaded),
    totalItems: total,
  });
  return s;
}

describe('product list pagination (seed 001 §4)', () => {
  it('starts with page size 10 and asks for the first page', () => {
    const s = listReducer(initialListState<number>(), { type: 'reload' });
    expect(s.pageSize).toBe(10);
    expect(s.status).toBe('pending');
    expect(s.request).toMatchObject({ pages: [1], page_size: 10, reset: true });
  });

  it('stores the first answer and shows its first page', () => {
    const s = loadedState(10, 35);
    expect(s.status).toBe('ready');
    expect(s.request).toBeNull();
    expect(s.totalItems).toBe(35);
    expect(pageItems(s)).toEqual(range(0, 10));
  });

  describe('all items loaded → only the page changes', () => {
    it('changes pages without a request', () => {
      const s0 = loadedState(25, 25);
      const s1 = listReducer(s0, { type: 'changePage', page: 2 });
      expect(s1.request).toBeNull();
      expect(s1.page).toBe(2);
      expect(s1.items).toBe(s0.items);
      expect(pageItems(s1)).toEqual(range(20, 25));
    });

    it('changes the page size without reloading either', () => {
      const s = listReducer(loadedState(25, 25), { type: 'changePageSize', pageSize: 50 });
      expect(s.request).toBeNull();
      expect(s.pageSize).toBe(50);
      expect(s.page).toBe(0);
      expect(pageItems(s)).toHaveLength(25);
    });
  });

  describe('a page size larger than the loaded count → page 1 and reload', () => {
    it('resets to the first page and asks for it with the new size', () => {
      const s0 = listReducer(loadedState(20, 100), { type: 'changePage', page: 1 });
      expect(s0.request).toBeNull(); // page 2 was already loaded
      const s1 = listReducer(s0, { type: 'changePageSize', pageSize: 25 });
      expect(s1.page).toBe(0);
      expect(s1.pageSize).toBe(25);
      expect(s1.items).toEqual([]);
      expect(s1.request).toMatchObject({ pages: [1], page_size: 25, reset: true });
    });

    it('a smaller page size keeps the loaded items and shows the first page', () => {
      const s = listReducer(loadedState(20, 100), { type: 'changePageSize', pageSize: 5 });
      expect(s.request).toBeNull();
      expect(s.page).toBe(0);
      expect(pageItems(s)).toEqual(range(0, 5));
    });
  });

  describe('moving beyond the loaded items → fetch', () => {
    it('fetches the next page and appends it', () => {
      const s1 = listReducer(loadedState(10, 35), { type: 'changePage', page: 1 });
      expect(s1.page).toBe(1);
      expect(s1.status).toBe('pending');
      expect(s1.request).toMatchObject({ pages: [2], page_size: 10, reset: false });
      expect(s1.items).toEqual(range(0, 10)); // kept while the next page loads
      const s2 = listReducer(s1, {
        type: 'loaded',
        requestId: s1.request!.id,
        items: range(10, 20),
        totalItems: 35,
      });
      expect(s2.items).toEqual(range(0, 20));
      expect(pageItems(s2)).toEqual(range(10, 20));
    });

    it('fetches every page up to one reached by a jump', () => {
      const s = listReducer(loadedState(10, 100), { type: 'changePage', page: 3 });
      expect(s.request).toMatchObject({ pages: [2, 3, 4], reset: false });
      const s2 = listReducer(s, {
        type: 'loaded',
        requestId: s.request!.id,
        items: range(10, 40),
        totalItems: 100,
      });
      expect(pageItems(s2)).toEqual(range(30, 40));
    });

    it('refetches a partly loaded page after a smaller page size and places it at its offset', () => {
      // 20 loaded at size 10, then size 15: page 1 (items 15–29) needs server page 2 of 15 (items 15–29).
      const s0 = listReducer(loadedState(20, 100), { type: 'changePageSize', pageSize: 15 });
      const s1 = listReducer(s0, { type: 'changePage', page: 1 });
      expect(s1.request).toMatchObject({ pages: [2], page_size: 15 });
      const s2 = listReducer(s1, {
        type: 'loaded',
        requestId: s1.request!.id,
        items: range(15, 30),
        totalItems: 100,
      });
      expect(s2.items).toEqual(range(0, 30));
      expect(pageItems(s2)).toEqual(range(15, 30));
    });

    it('does not fetch for a page already loaded', () => {
      const s0 = listReducer(loadedState(10, 35), { type: 'changePage', page: 1 });
      const s1 = listReducer(s0, {
        type: 'loaded',
        requestId: s0.request!.id,
        items: range(10, 20),
        totalItems: 35,
      });
      const s2 = listReducer(s1, { type: 'changePage', page: 0 });
      expect(s2.request).toBeNull();
      expect(s2.page).toBe(0);
    });

    it('lists the server pages that close the gap', () => {
      expect(pagesToFetch(10, 1, 10)).toEqual([2]);
      expect(pagesToFetch(20, 1, 15)).toEqual([2]);
      expect(pagesToFetch(0, 2, 10)).toEqual([1, 2, 3]);
    });
  });

  describe('requests', () => {
    it('ignores a stale answer', () => {
      const first = listReducer(initialListState<number>(10), { type: 'reload' });
      const second = listReducer(first, { type: 'reload' });
      const s = listReducer(second, {
        type: 'loaded',
        requestId: first.request!.id,
        items: [99],
        totalItems: 1,
      });
      expect(s).toBe(second);
    });

    it('a reload (new search or sort) starts over from the first page', () => {
      const s0 = listReducer(loadedState(20, 100), { type: 'changePage', page: 1 });
      const s1 = listReducer(s0, { type: 'reload' });
      expect(s1.page).toBe(0);
      expect(s1.items).toEqual([]);
      expect(s1.request).toMatchObject({ pages: [1], page_size: 10, reset: true });
    });

    it('a reload at a page (kept in the URL) loads every page up to it and shows it', () => {
      const s0 = listReducer(initialListState<number>(10), { type: 'reload', page: 2 });
      expect(s0.page).toBe(2);
      expect(s0.request).toMatchObject({ pages: [1, 2, 3], page_size: 10, reset: true });
      const s1 = listReducer(s0, {
        type: 'loaded',
        requestId: s0.request!.id,
        items: range(0, 30),
        totalItems: 95,
      });
      expect(pageItems(s1)).toEqual(range(20, 30));
      // a page beyond the list (it shrank since the link was made) shows the last one
      const s2 = listReducer(initialListState<number>(10), { type: 'reload', page: 9 });
      const s3 = listReducer(s2, {
        type: 'loaded',
        requestId: s2.request!.id,
        items: range(0, 25),
        totalItems: 25,
      });
      expect(s3.page).toBe(2);
    });

    it('a failure keeps the loaded items and shows a page that has them; moving again retries', () => {
      const s0 = listReducer(loadedState(10, 35), { type: 'changePage', page: 1 });
      const s1 = listReducer(s0, { type: 'failed', requestId: s0.request!.id });
      expect(s1.status).toBe('error');
      expect(s1.request).toBeNull();
      expect(s1.page).toBe(0);
      expect(s1.items).toEqual(range(0, 10));
      expect(listReducer(s1, { type: 'changePage', page: 1 }).request).toMatchObject({ pages: [2] });
    });

    it('an empty answer is ready with nothing to fetch', () => {
      const s = loadedState(0, 0);
      expect(s.status).toBe('ready');
      expect(listReducer(s, { type: 'changePage', page: 1 }).request).toBeNull();
    });
  });
});
