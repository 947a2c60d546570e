import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CrawlPage,
  type CrawlSourceBody,
  type FeedSource,
  type FeedSourceBody,
  type FeedSourcePatchBody,
  type ImportProgress,
  type ImportRunsResponse,
  operationsRoutes as R,
  routePath,
  type SellerCreateBody,
  successSchema,
} from '@vigia/domain';
import { useEffect, useState } from 'react';
import type { ZodType } from 'zod';
import { apiRequest, callRoute, downloadRoute } from '../../../lib/api-client.js';
import { subscribeExporter } from '../../../lib/exporter.js';

// Operaciones calls (route table packages/domain/src/routes/operations.ts). Runs are kept live by the
// exporter channel's 'import:progress' events (rows read, written, rejected); the lists are re-read when a
// run finishes.

export const opsKeys = {
  all: ['operations'] as const,
  sellers: () => ['operations', 'sellers'] as const,
  sources: () => ['operations', 'sources'] as const,
  runs: () => ['operations', 'runs'] as const,
  keys: () => ['operations', 'api-keys'] as const,
  settings: () => ['operations', 'settings'] as const,
};

const busy = (items: { status: string }[] | undefined) =>
  !!items?.some((r) => r.status === 'queued' || r.status === 'running');

export const useSellers = () =>
  useQuery({ queryKey: opsKeys.sellers(), queryFn: ({ signal }) => callRoute(R.sellers, {}, { signal }) });

export const useSources = () =>
  useQuery({
    queryKey: opsKeys.sources(),
    queryFn: ({ signal }) => callRoute(R.sources, {}, { signal }),
    refetchInterval: (q) =>
      busy(q.state.data?.items.map((s) => s.last_run ?? { status: '' })) ? 4000 : false,
  });

export const useRuns = () =>
  useQuery({
    queryKey: opsKeys.runs(),
    queryFn: ({ signal }) => callRoute(R.runs, { query: {} }, { signal }),
    // a safety net while a run is going and the channel is down: the socket usually wins
    refetchInterval: (q) => (busy(q.state.data?.items) ? 4000 : false),
  });

export const useApiKeys = () =>
  useQuery({ queryKey: opsKeys.keys(), queryFn: ({ signal }) => callRoute(R.apiKeys, {}, { signal }) });

/** Live progress of runs by id (from the exporter channel); lists re-read when a run ends. */
export function useImportProgress(): Record<number, ImportProgress> {
  const qc = useQueryClient();
  const [progress, setProgress] = useState<Record<number, ImportProgress>>({});
  useEffect(
    () =>
      subscribeExporter('import:progress', (p) => {
        setProgress((prev) => ({ ...prev, [p.run_id]: p }));
        const runs = qc.getQueryData<ImportRunsResponse>(opsKeys.runs());
        if (
          p.status === 'succeeded' ||
          p.status === 'failed' ||
          !runs?.items.some((r) => r.id === p.run_id)
        ) {
          void qc.invalidateQueries({ queryKey: opsKeys.all });
        }
      }),
    [qc],
  );
  return progress;
}

export const useSettings = () =>
  useQuery({ queryKey: opsKeys.settings(), queryFn: ({ signal }) => callRoute(R.settings, {}, { signal }) });
export const updateSettings = (market_zone: string) => callRoute(R.updateSettings, { body: { market_zone } });
export const createSeller = (body: SellerCreateBody) => callRoute(R.createSeller, { body });
export const createCrawlSource = (body: CrawlSourceBody) => callRoute(R.createCrawlSource, { body });
export const retryFailed = (runId: number) => callRoute(R.retryFailed, { params: { id: runId } });
export const useRunPages = (runId: number, state: CrawlPageState | '', page: number, pageSize: number) =>
  useQuery({
    queryKey: ['operations', 'run-pages', runId, state, page, pageSize] as const,
    queryFn: ({ signal }) =>
      callRoute(
        R.runPages,
        { params: { id: runId }, query: { ...(state ? { state } : {}), page, page_size: pageSize } },
        { signal },
      ),
  });
export type CrawlPageState = CrawlPage['state'];
export const createSource = (body: FeedSourceBody) => callRoute(R.createSource, { body });
export const updateSource = (id: number, body: FeedSourcePatchBody) =>
  callRoute(R.updateSource, { params: { id }, body });
export const deleteSource = (id: number) => callRoute(R.deleteSource, { params: { id } });
export const previewSource = (id: number, mapping?: Record<string, string>) =>
  callRoute(R.preview, { params: { id }, body: mapping ? { mapping } : {} }, { notify: false });
export const importNow = (id: number) => callRoute(R.importNow, { params: { id } });
export const createApiKey = (name: string, sellerIds: number[]) =>
  callRoute(R.createApiKey, { body: { name, seller_ids: sellerIds } });
export const revokeApiKey = (id: number) => callRoute(R.revokeApiKey, { params: { id } });
export const downloadRejections = (runId: number) =>
  downloadRoute(R.rejections, { params: { id: runId } }, `rechazos-ejecucion-${runId}.csv`);

/** Sends a source's file as it is (binary body). */
export function uploadSourceFile(id: number, file: File): Promise<FeedSource> {
  return apiRequest(
    'PUT',
    routePath(R.uploadFile, { id }),
    { body: file },
    {
      schema: successSchema(R.uploadFile) as ZodType<FeedSource>,
      headers: { 'x-file-name': encodeURIComponent(file.name) },
      timeoutMs: 10 * 60_000,
    },
  );
}
