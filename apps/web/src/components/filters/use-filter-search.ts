import { useQuery } from '@tanstack/react-query';
import {
  buildPricingQuery,
  checkPriceRange,
  type FilterError,
  type Filters,
  type PriceRangeState,
  runSearch,
  type SearchKind,
  validateFilters,
} from '@vigia/domain';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { licenseQueries, useLicense } from '../../lib/license.js';
import { notify } from '../../lib/notifier.js';
import {
  clearUrlFilters,
  dateErrors,
  droppedNotice,
  dropUnlicensed,
  FILTER_URL_KEYS,
  type PanelSelection,
  type ReadUrlFilters,
  readUrlFilters,
  type SelectionDefaults,
  toFilterSelection,
  treeIds,
  type UrlFilters,
  writeUrlFilters,
} from './filter-url.js';

// The seed's search flow (001 §4) for a screen whose filters live in the URL:
//   1. compute the filters from the panel and validate them;
//   2. invalid → mark the fields, send nothing;
//   3. valid → clear the items, check the price range, set the filters (the URL), request (the screen's
//      queries are keyed on the URL's filters, so setting them requests; resubmitting the same filters
//      refetches).
// A link opened with filters is validated the same way before anything is requested. Values the app
// cannot read or the license does not grant are dropped before that: the URL is rewritten without them
// (replacing the history entry) and a notice says which (never a crash, never a 403).

export interface UseFilterSearchOptions {
  kind: SearchKind;
  defaults: SelectionDefaults;
  /** False until the settings (pivot, currency, competitors) are known: nothing is validated or sent. */
  ready: boolean;
  /** URL keys a new search removes (e.g. a cursor or page). */
  resetKeys?: readonly string[];
  /** "Clear the items": the screen drops accumulated pages / cursors. */
  onClearItems?: () => void;
  /** The same filters were submitted again: refetch. */
  onResubmit?: () => void;
}

export interface FilterSearch {
  /** Filters as the URL holds them, without the values that cannot be used (see `url.dropped`). */
  url: ReadUrlFilters;
  /** A string that changes whenever the URL's filters change (for effects and keys). */
  urlKey: string;
  defaults: SelectionDefaults;
  /** The validated request filters of the URL; null while not ready or invalid. */
  filters: Filters | null;
  /** Errors to mark in the panel (last submission, else the URL's own). */
  errors: FilterError[];
  /**
   * Runs the search flow with the panel's selection. `competitors`, when given, is the panel's explicit
   * competitor list (an emptied list then fails validation as 'eCommerce' instead of meaning "default").
   */
  submit: (
    selection: PanelSelection,
    range: [number, number] | null,
    bounds?: { min: number; max: number },
    competitors?: readonly number[],
  ) => boolean;
  clear: () => void;
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  const sa = [...a].sort((x, y) => x - y);
  const sb = [...b].sort((x, y) => x - y);
  return sa.every((v, i) => v === sb[i]);
}

function urlRangeState(url: UrlFilters): PriceRangeState {
  const r = url.priceRange;
  if (!r) return { pending: false, ready: false, active: false };
  return {
    pending: false,
    ready: true,
    active: true,
    minPrice: r.minPrice,
    maxPrice: r.maxPrice,
    minSetting: r.minSetting ?? r.minPrice,
    maxSetting: r.maxSetting ?? r.maxPrice,
  };
}

export function useFilterSearch(opts: UseFilterSearchOptions): FilterSearch {
  const [params, setParams] = useSearchParams();
  const [submitErrors, setSubmitErrors] = useState<FilterError[] | null>(null);
  const optsRef = useRef(opts);
  optsRef.current = opts;

  const urlKey = useMemo(() => {
    const only = new URLSearchParams();
    for (const k of FILTER_URL_KEYS) {
      const v = params.get(k);
      if (v !== null) only.set(k, v);
    }
    return only.toString();
  }, [params]);
  const { defaults, kind, ready } = opts;
  const license = useLicense();
  // The license's classifications (the tree the panel offers): a link's classification outside it is
  // dropped like an unlicensed seller. Sellers and currency are judged as soon as the settings are known
  // (as before: the panel's own lists ask with them); the search itself waits for the tree too (a
  // failed answer leaves the classification check to the server).
  const tree = useQuery(licenseQueries.classificationTree());
  const treeKnown = !tree.isPending;
  const classificationsAllowed = useMemo(() => (tree.data ? treeIds(tree.data) : null), [tree.data]);
  const sellersAllowed = license.sellers.map((s) => s.id).join(',');
  const currenciesAllowed = license.currencies.map((c) => c.acronym).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the two keys stand for the license lists
  const url = useMemo(() => {
    const read = readUrlFilters(new URLSearchParams(urlKey));
    if (!ready) return read;
    return dropUnlicensed(read, {
      sellers: license.sellers.map((s) => s.id),
      currencies: license.currencies.map((c) => c.acronym),
      classifications: classificationsAllowed,
    });
  }, [urlKey, ready, sellersAllowed, currenciesAllowed, classificationsAllowed]);

  // Dropped values: once the license is known, say which and take them out of the URL.
  const noticed = useRef('');
  useEffect(() => {
    if (!ready) return;
    if (url.dropped.length === 0) {
      noticed.current = ''; // the same bad link opened again later is reported again
      return;
    }
    if (noticed.current === urlKey) return;
    noticed.current = urlKey;
    notify(droppedNotice(url.dropped), 'warning');
    setParams((current) => writeUrlFilters(current, url), { replace: true });
  }, [ready, url, urlKey, setParams]);
  const sellersKey = defaults.sellers.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: sellersKey stands for defaults.sellers
  const applied = useMemo(() => {
    if (!ready || !treeKnown) return { filters: null, errors: [] as FilterError[] };
    const dates = dateErrors(url.selection);
    if (dates.length) return { filters: null, errors: dates };
    const query = buildPricingQuery(toFilterSelection(url.selection, defaults), urlRangeState(url));
    const v = validateFilters(query, kind);
    return v.valid
      ? { filters: v.filters, errors: [] as FilterError[] }
      : { filters: null, errors: v.errors };
  }, [
    url,
    ready,
    treeKnown,
    kind,
    defaults.currency,
    sellersKey,
    defaults.pivotId,
    defaults.priceMode,
    defaults.mpiValue,
  ]);

  const submit = useCallback<FilterSearch['submit']>(
    (selection, range, bounds, competitors) => {
      const o = optsRef.current;
      const dates = dateErrors(selection);
      if (dates.length) {
        setSubmitErrors(dates);
        return false;
      }
      // An explicit pick equal to the top bar's competitors is the default: keep the URL clean.
      const normalised: PanelSelection = sameIds(selection.sellersIds, o.defaults.sellers)
        ? { ...selection, sellersIds: [] }
        : selection;
      let ok = false;
      const filterSelection = toFilterSelection(normalised, o.defaults);
      if (competitors) {
        filterSelection.sellers = [...competitors];
        filterSelection.sellersIds = [...competitors];
      }
      void runSearch(filterSelection, o.kind, {
        setError: (errors) => setSubmitErrors(errors),
        clearItems: () => o.onClearItems?.(),
        checkPriceRange: () =>
          checkPriceRange(
            range
              ? {
                  pending: false,
                  ready: true,
                  active: true,
                  minSetting: bounds?.min ?? range[0],
                  maxSetting: bounds?.max ?? range[1],
                  minPrice: range[0],
                  maxPrice: range[1],
                }
              : { pending: false, ready: !!bounds, active: false },
          ),
        setFilters: (query) => {
          ok = true;
          setSubmitErrors(null);
          const priceRange =
            query.minPrice !== undefined && query.maxPrice !== undefined
              ? {
                  minPrice: Number(query.minPrice),
                  maxPrice: Number(query.maxPrice),
                  minSetting: query.minSetting === undefined ? undefined : Number(query.minSetting),
                  maxSetting: query.maxSetting === undefined ? undefined : Number(query.maxSetting),
                }
              : null;
          const next = writeUrlFilters(params, { selection: normalised, priceRange }, o.resetKeys);
          if (next.toString() === params.toString()) o.onResubmit?.();
          else setParams(next);
        },
        request: async () => undefined,
      });
      return ok;
    },
    [params, setParams],
  );

  const clear = useCallback(() => {
    setSubmitErrors(null);
    optsRef.current.onClearItems?.();
    setParams(clearUrlFilters(params, optsRef.current.resetKeys));
  }, [params, setParams]);

  return {
    url,
    urlKey,
    defaults,
    filters: applied.filters,
    errors: submitErrors ?? applied.errors,
    submit,
    clear,
  };
}
