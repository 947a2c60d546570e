import { useQueryClient } from '@tanstack/react-query';
import {
  IMAGE_CLASSES,
  IMAGE_VERIFICATION,
  type ImageClass,
  type ImageItemsQueryInput,
  type ImageKpisQueryInput,
  isCalendarDate,
} from '@vigia/domain';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  calendarDay,
  intIn,
  numberIn,
  oneOf,
  useDropUnknownParams,
} from '../../../components/data/url-state.js';
import {
  type FilterSearch,
  useFilterSearch,
  useSettingsDefaults,
} from '../../../components/filters/index.js';
import { imageKeys } from '../api/queries.js';

// The screen's state, all in the URL (a view can be shared and reloaded): the filter panel's filters
// (brands, classifications, sellers, SKUs) plus this screen's own keys below.
export const IMAGE_URL = {
  date: 'comparisonDate',
  status: 'imageClass',
  min: 'minSimilarity',
  max: 'maxSimilarity',
  page: 'page',
  check: 'check',
} as const;

export interface ImageSearch {
  search: FilterSearch;
  pivotId: number | null;
  preparing: boolean;
  /** null while not ready or the filters are invalid */
  items: ImageItemsQueryInput | null;
  kpis: ImageKpisQueryInput | null;
  page: number;
  status: ImageClass | '';
  comparisonDate: string;
  minSimilarity: string;
  maxSimilarity: string;
  openCheck: number | null;
  /** sets (or, with '', removes) URL keys; any change but paging and the dialog goes back to page 1 */
  setParams: (changes: Partial<Record<(typeof IMAGE_URL)[keyof typeof IMAGE_URL], string>>) => void;
}

/** A similarity bound of the URL in % → a fraction; NaN when it is not a number in 0–100 (never ignored). */
const percentParam = (v: string | null): number | undefined => {
  if (v === null || v.trim() === '') return undefined;
  const n = Number(v.replace(',', '.'));
  return Number.isFinite(n) && n >= 0 && n <= 100 ? n / 100 : Number.NaN;
};

export function useImageSearch(): ImageSearch {
  const { settings, defaults, ready } = useSettingsDefaults();
  const queryClient = useQueryClient();
  const [params, setSearchParams] = useSearchParams();
  const search = useFilterSearch({
    kind: 'pricing', // requires what every screen has (currency, sellers from the top bar)
    defaults,
    ready,
    resetKeys: [IMAGE_URL.page, IMAGE_URL.check],
    onResubmit: () => void queryClient.invalidateQueries({ queryKey: imageKeys.all }),
  });
  // a value the screen does not offer (a class it does not have, 2026-02-30, 120 %, page -1) is dropped
  // with a notice, like every screen's (issue 31 item 8); a minimum above the maximum stays, its field says so
  useDropUnknownParams([
    oneOf(IMAGE_URL.status, IMAGE_CLASSES),
    calendarDay(IMAGE_URL.date),
    numberIn(IMAGE_URL.min, 0, 100),
    numberIn(IMAGE_URL.max, 0, 100),
    intIn(IMAGE_URL.page, 0, 100_000),
    intIn(IMAGE_URL.check, 1, 2_147_483_647),
  ]);
  const statusParam = params.get(IMAGE_URL.status) ?? '';
  const status = (IMAGE_CLASSES as readonly string[]).includes(statusParam)
    ? (statusParam as ImageClass)
    : '';
  const comparisonDate = params.get(IMAGE_URL.date) ?? '';
  const minSimilarity = params.get(IMAGE_URL.min) ?? '';
  const maxSimilarity = params.get(IMAGE_URL.max) ?? '';
  const page = Math.max(0, Number.parseInt(params.get(IMAGE_URL.page) ?? '0', 10) || 0);
  const checkParam = Number.parseInt(params.get(IMAGE_URL.check) ?? '', 10);
  const f = search.filters;

  const kpis = useMemo((): ImageKpisQueryInput | null => {
    if (!f) return null;
    return {
      brands: f.brands,
      classificationsIds: f.classificationsIds,
      sellersIds: f.sellersIds,
      skus: f.SKUs,
      comparisonDate: isCalendarDate(comparisonDate) ? comparisonDate : undefined,
    };
  }, [f, comparisonDate]);
  const items = useMemo((): ImageItemsQueryInput | null => {
    if (!kpis) return null;
    const lower = percentParam(minSimilarity);
    const upper = percentParam(maxSimilarity);
    // an impossible band (out of 0–100 %, minimum above maximum) asks nothing: the fields say why
    if (Number.isNaN(lower) || Number.isNaN(upper)) return null;
    if (lower !== undefined && upper !== undefined && lower > upper) return null;
    return {
      ...kpis,
      imageClass: status || undefined,
      // lower ≤ similarity < upper; a maximum of 100 % is "no maximum" (1 itself stays in)
      lowerThreshold: lower,
      upperThreshold: upper !== undefined && upper < 1 ? upper : undefined,
      limit: IMAGE_VERIFICATION.pageSize,
      skip: page * IMAGE_VERIFICATION.pageSize,
    };
  }, [kpis, status, minSimilarity, maxSimilarity, page]);

  const setParams: ImageSearch['setParams'] = (changes) => {
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      for (const [k, v] of Object.entries(changes)) {
        if (v === undefined || v === '') next.delete(k);
        else next.set(k, v);
      }
      const keys = Object.keys(changes);
      if (!keys.includes(IMAGE_URL.page) && !keys.includes(IMAGE_URL.check)) next.delete(IMAGE_URL.page);
      return next;
    });
  };

  return {
    search,
    pivotId: settings.pivotId,
    preparing: !ready,
    items,
    kpis,
    page,
    status,
    comparisonDate,
    minSimilarity,
    maxSimilarity,
    openCheck: Number.isInteger(checkParam) && checkParam > 0 ? checkParam : null,
    setParams,
  };
}
