import { type UseQueryResult, useQueries, useQuery } from '@tanstack/react-query';
import type { Filters } from '@vigia/domain';
import type { settingsKey } from '../../../lib/settings.js';
import { fetchDuration, fetchLevel, fetchRange, fetchScatter, fetchType } from './requests.js';

// TanStack Query hooks of the promotion screens. Keys carry the user's settings and the validated
// filters; `filters` null (not ready, or invalid: invalidFields) requests nothing.

export interface PromotionScope {
  settings: ReturnType<typeof settingsKey>;
  pivotId: number | null;
  filters: Filters | null;
}

export const promotionKeys = {
  all: ['promotions'] as const,
  screen: (screen: string, s: PromotionScope, cls?: number) =>
    ['promotions', screen, s.settings, s.filters, cls ?? null] as const,
};

const call = (s: PromotionScope, signal: AbortSignal) => ({ pivotId: s.pivotId, signal });

export function useLevel(s: PromotionScope) {
  return useQuery({
    queryKey: promotionKeys.screen('level', s),
    queryFn: ({ signal }) => fetchLevel(s.filters as Filters, call(s, signal)),
    enabled: !!s.filters,
  });
}

export function useType(s: PromotionScope) {
  return useQuery({
    queryKey: promotionKeys.screen('type', s),
    queryFn: ({ signal }) => fetchType(s.filters as Filters, call(s, signal)),
    enabled: !!s.filters,
  });
}

export function useScatter(s: PromotionScope) {
  return useQuery({
    queryKey: promotionKeys.screen('scatter-plot', s),
    queryFn: ({ signal }) => fetchScatter(s.filters as Filters, call(s, signal)),
    enabled: !!s.filters,
  });
}

/** Duration and range: one call per selected classification (seed 001 §7). */
function usePerClassification<T>(
  screen: string,
  s: PromotionScope,
  fetch: (f: Filters, cls: number, o: { pivotId: number | null; signal: AbortSignal }) => Promise<T>,
): UseQueryResult<T>[] {
  const classes = s.filters?.classificationsIds ?? [];
  return useQueries({
    queries: classes.map((cls) => ({
      queryKey: promotionKeys.screen(screen, s, cls),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetch(s.filters as Filters, cls, call(s, signal)),
      enabled: !!s.filters,
    })),
  });
}

export const useDuration = (s: PromotionScope) => usePerClassification('duration', s, fetchDuration);
export const useRange = (s: PromotionScope) => usePerClassification('range', s, fetchRange);

/**
 * The seed's promotions module state (001 §4, §8): items, a pending flag and an error; a failed request
 * stores the raw error under items. invalidFields: the filters are invalid and nothing was sent.
 */
export interface PromotionModuleState<T> {
  items: T | unknown | null;
  pending: boolean;
  error: boolean;
  invalidFields: boolean;
}

export function moduleState<T>(
  q: { data?: T; isPending: boolean; fetchStatus: string; error: unknown } | null,
  invalidFields: boolean,
): PromotionModuleState<T> {
  if (invalidFields || !q) return { items: null, pending: false, error: false, invalidFields };
  if (q.error) return { items: q.error, pending: false, error: true, invalidFields: false };
  return {
    items: q.data ?? null,
    pending: q.isPending && q.fetchStatus !== 'idle',
    error: false,
    invalidFields: false,
  };
}

/** A screen of one call: its module state (nothing requested while the filters are invalid) and retry. */
export function singleQueryState<T>(
  p: { scope: PromotionScope; invalidFields: boolean },
  q: UseQueryResult<T>,
): { state: PromotionModuleState<T>; data: T | undefined; retry: () => void } {
  return {
    state: moduleState(p.scope.filters ? q : null, p.invalidFields),
    data: q.data,
    retry: () => void q.refetch(),
  };
}

/**
 * A screen of one call per classification (duration, range): one module state for all of them (pending
 * while any is, failed when any failed), the answers received, and a retry of the failed calls.
 */
export function perClassificationState<T>(
  p: { scope: PromotionScope; invalidFields: boolean },
  queries: UseQueryResult<T>[],
): { state: PromotionModuleState<(T | undefined)[]>; answers: T[]; retry: () => void } {
  const failed = queries.find((q) => q.isError);
  const state = moduleState(
    p.scope.filters
      ? {
          data: queries.map((q) => q.data),
          isPending: queries.some((q) => q.isPending),
          fetchStatus: queries.some((q) => q.fetchStatus !== 'idle') ? 'fetching' : 'idle',
          error: failed?.error ?? null,
        }
      : null,
    p.invalidFields,
  );
  return {
    state,
    answers: queries.flatMap((q) => (q.data ? [q.data] : [])),
    retry: () => {
      for (const q of queries) if (q.isError) void q.refetch();
    },
  };
}
