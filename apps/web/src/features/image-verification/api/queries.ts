import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImageItemsQueryInput, ImageKpisQueryInput, ImageReviewDecision } from '@vigia/domain';
import { fetchImageCheck, fetchImageItems, fetchImageKpis, saveImageReview } from './requests.js';

// TanStack Query hooks of the image-verification screen. `query` null = not ready or invalid filters:
// nothing is requested.

export const imageKeys = {
  all: ['image-verification'] as const,
  items: (q: ImageItemsQueryInput | null, pivotId: number | null) =>
    ['image-verification', 'items', pivotId, q] as const,
  kpis: (q: ImageKpisQueryInput | null, pivotId: number | null) =>
    ['image-verification', 'kpis', pivotId, q] as const,
  check: (id: number) => ['image-verification', 'check', id] as const,
};

export function useImageItems(query: ImageItemsQueryInput | null, pivotId: number | null) {
  return useQuery({
    queryKey: imageKeys.items(query, pivotId),
    queryFn: ({ signal }) => fetchImageItems(query as ImageItemsQueryInput, { pivotId, signal }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}

export function useImageKpis(query: ImageKpisQueryInput | null, pivotId: number | null) {
  return useQuery({
    queryKey: imageKeys.kpis(query, pivotId),
    queryFn: ({ signal }) => fetchImageKpis(query as ImageKpisQueryInput, { pivotId, signal }),
    enabled: query !== null,
  });
}

export function useImageCheck(id: number | null, pivotId: number | null) {
  return useQuery({
    queryKey: imageKeys.check(id ?? 0),
    queryFn: ({ signal }) => fetchImageCheck(id as number, { pivotId, signal }),
    enabled: id !== null,
  });
}

/** Records a review decision; the list and the dialog are refreshed with it. */
export function useImageReview(pivotId: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: number; decision: ImageReviewDecision | null }) =>
      saveImageReview(id, decision, { pivotId }),
    onSuccess: (detail) => {
      client.setQueryData(imageKeys.check(detail.id), detail);
      // the list and the counts: a reviewed picture leaves 'Para revisión' (issue 31 item 4)
      void client.invalidateQueries({ queryKey: imageKeys.all });
    },
  });
}
