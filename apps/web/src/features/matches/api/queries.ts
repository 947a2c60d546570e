import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MatchDecision, MatchQueueBody } from '@vigia/domain';
import {
  acceptBrandMatches,
  decideMatches,
  fetchMatchHistory,
  fetchMatchQueue,
  reportMatch,
} from './requests.js';

export const matchKeys = {
  all: ['matches'] as const,
  queue: (q: MatchQueueBody) => ['matches', 'queue', q] as const,
  history: (productId: number) => ['matches', 'history', productId] as const,
};

export function useMatchQueue(q: MatchQueueBody) {
  return useQuery({
    queryKey: matchKeys.queue(q),
    queryFn: ({ signal }) => fetchMatchQueue(q, signal),
    placeholderData: keepPreviousData,
  });
}

export function useMatchHistory(productId: number) {
  return useQuery({
    queryKey: matchKeys.history(productId),
    queryFn: ({ signal }) => fetchMatchHistory(productId, signal),
  });
}

/**
 * A decision changes which competitor prices every analysis compares: the matches and every cached
 * analysis answer are refetched (the server's models are current at once).
 */
function useRefreshAll() {
  const client = useQueryClient();
  return () => void client.invalidateQueries();
}

export function useDecide() {
  const refresh = useRefreshAll();
  return useMutation({ mutationFn: (d: MatchDecision[]) => decideMatches(d), onSuccess: refresh });
}

export function useAcceptBrand() {
  const refresh = useRefreshAll();
  return useMutation({
    mutationFn: ({ brandId, minScore }: { brandId: number; minScore: number }) =>
      acceptBrandMatches(brandId, minScore),
    onSuccess: refresh,
  });
}

export function useReportMatch() {
  const refresh = useRefreshAll();
  return useMutation({
    mutationFn: ({ productId, groupId, note }: { productId: number; groupId: number; note?: string }) =>
      reportMatch(productId, groupId, note),
    onSuccess: refresh,
  });
}
