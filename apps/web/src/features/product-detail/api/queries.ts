import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  dashboardRoutes,
  detailRoutes,
  type HISTORY_DOWNLOAD_FORMATS,
  historyFileName,
  MESSAGES,
} from '@vigia/domain';
import { callRoute, downloadRoute } from '../../../lib/api-client.js';
import { loadWithMessage, logFailure } from '../../../lib/load.js';
import type { Period } from '../period.js';

// Calls of the product detail screens (seed 001 §7 "Dashboard and product detail"). Every load is
// keyed by what it depends on, the user's settings included, so a change of pivot, currency or
// competitors reloads it. Failures are logged here; the screens show the seed's messages (§8) with
// useFailureNotice — except the detail request itself, which the seed only logs.

export interface DetailScope {
  pivotId: number | null;
  currency: string;
  /** competitor seller ids */
  sellers: readonly number[];
}

const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);
const silent = { notify: false } as const;

export const detailKeys = {
  all: ['product-detail'] as const,
  match: (id: number, s: DetailScope) =>
    ['product-detail', 'match', id, s.pivotId, s.currency, sorted(s.sellers)] as const,
  info: (id: number, s: Pick<DetailScope, 'pivotId' | 'currency'>) =>
    ['product-detail', 'info', id, s.pivotId, s.currency] as const,
  history: (id: number, period: Period, s: DetailScope) =>
    [
      'product-detail',
      'history',
      id,
      period.from,
      period.to,
      s.pivotId,
      s.currency,
      sorted(s.sellers),
    ] as const,
  qmi: (productId: string, sellerId: number, currency: string) =>
    ['product-detail', 'qmi', productId, sellerId, currency] as const,
  qmiHistory: (productId: string, sellerId: number, currency: string, period: Period) =>
    ['product-detail', 'qmi-history', productId, sellerId, currency, period.from, period.to] as const,
  quickFind: (query: string, pivotId: number | null, currency: string) =>
    ['product-detail', 'quick-find', query, pivotId, currency] as const,
};

export const detailQueries = {
  /** detailRoutes.match: the match group with the ranking (failure only logged, seed 001 §8). */
  match: (id: number, s: DetailScope) =>
    queryOptions({
      queryKey: detailKeys.match(id, s),
      queryFn: ({ signal }) =>
        logFailure('Detalle de producto', signal, () =>
          callRoute(
            detailRoutes.match,
            {
              body: {
                currency: s.currency,
                pivot_id: s.pivotId ?? undefined,
                product_id: id,
                sellers: s.sellers.length ? sorted(s.sellers) : undefined,
                non_linear: false,
              },
            },
            { ...silent, signal, pivotId: s.pivotId },
          ),
        ),
    }),

  /** detailRoutes.info: the listing's descriptive data. */
  info: (id: number, s: Pick<DetailScope, 'pivotId' | 'currency'>) =>
    queryOptions({
      queryKey: detailKeys.info(id, s),
      queryFn: ({ signal }) =>
        logFailure('Información del producto', signal, () =>
          callRoute(
            detailRoutes.info,
            { body: { product_id: id, currency: s.currency, pivot_id: s.pivotId ?? undefined } },
            { ...silent, signal, pivotId: s.pivotId },
          ),
        ),
    }),

  /** detailRoutes.history: price and position per seller and day. */
  history: (id: number, period: Period, s: DetailScope, sellerId?: number) =>
    queryOptions({
      queryKey: detailKeys.history(id, period, s),
      placeholderData: keepPreviousData,
      queryFn: ({ signal }) =>
        logFailure('Precios históricos', signal, () =>
          callRoute(
            detailRoutes.history,
            {
              body: {
                currency: s.currency,
                from_date: period.from,
                to_date: period.to,
                product_id: id,
                seller_id: sellerId,
                sellers: s.sellers.length ? sorted(s.sellers) : undefined,
                non_linear: false,
              },
            },
            { ...silent, signal, pivotId: s.pivotId },
          ),
        ),
    }),

  /** detailRoutes.qmi: one listing, by the seller's own id. */
  qmi: (productId: string, sellerId: number, currency: string) =>
    queryOptions({
      queryKey: detailKeys.qmi(productId, sellerId, currency),
      queryFn: ({ signal }) =>
        logFailure('Información del producto (qmi)', signal, () =>
          callRoute(detailRoutes.qmi, { body: { currency, productId, sellerId } }, { ...silent, signal }),
        ),
    }),

  /** detailRoutes.qmiHistory: one listing's daily prices. */
  qmiHistory: (productId: string, sellerId: number, currency: string, period: Period) =>
    queryOptions({
      queryKey: detailKeys.qmiHistory(productId, sellerId, currency, period),
      placeholderData: keepPreviousData,
      queryFn: ({ signal }) =>
        logFailure('Precios históricos (qmi)', signal, () =>
          callRoute(
            detailRoutes.qmiHistory,
            { body: { productId, sellerId, currency, fromDate: period.from, toDate: period.to } },
            { ...silent, signal },
          ),
        ),
    }),

  /** dashboardRoutes.quickFind: pivot listings matching free text. */
  quickFind: (query: string, pivotId: number | null, currency: string) =>
    queryOptions({
      queryKey: detailKeys.quickFind(query, pivotId, currency),
      staleTime: 30_000,
      queryFn: ({ signal }) =>
        callRoute(
          dashboardRoutes.quickFind,
          { body: { query, pivot_id: pivotId ?? undefined, currency, limit: 8 } },
          { signal, pivotId },
        ),
    }),
};

export type HistoryFormat = (typeof HISTORY_DOWNLOAD_FORMATS)[number];

/** The download variant of detailRoutes.qmiHistory: the history as an XLSX or CSV file. */
export function downloadQmiHistory(
  productId: string,
  sellerId: number,
  currency: string,
  period: Period,
  format: HistoryFormat,
): Promise<void> {
  return loadWithMessage(MESSAGES.downloadHistoryFailed, 'Descarga de precios históricos', undefined, () =>
    downloadRoute(
      detailRoutes.qmiHistory,
      {
        body: {
          productId,
          sellerId,
          currency,
          fromDate: period.from,
          toDate: period.to,
          justPipeline: true,
          downloadablePipeline: true,
          format,
        },
      },
      // the server's name has the seller's name; the fallback its id
      historyFileName(String(sellerId), productId, period.from, period.to, format),
      silent,
    ),
  );
}
