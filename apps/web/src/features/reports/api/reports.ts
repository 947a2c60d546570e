import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ReportRequestInput,
  type ReportTasksResponse,
  reportsRoutes,
  type SubscriptionBody,
  subscriptionsRoutes,
  type UnsubscribeBody,
} from '@vigia/domain';
import { useEffect } from 'react';
import { callRoute } from '../../../lib/api-client.js';
import { subscribeExporter } from '../../../lib/exporter.js';

// The reports and subscriptions calls (seed 001 §7; route table packages/domain/src/routes/reports.ts)
// and the live task table: the server holds the state (GET on open, reload and reconnection); the
// exporter channel's task events patch the progress in place or re-read the list.

export const reportKeys = {
  tasks: () => ['reports', 'tasks'] as const,
  subscriptionsAll: () => ['reports', 'subscriptions'] as const,
  subscriptions: (email: string) => ['reports', 'subscriptions', email] as const,
};

const busy = (d: ReportTasksResponse | undefined) =>
  !!d?.items.some((t) => t.status === 'queued' || t.status === 'running');

export const tasksQuery = () =>
  queryOptions({
    queryKey: reportKeys.tasks(),
    queryFn: ({ signal }) => callRoute(reportsRoutes.list, {}, { signal }),
    // a safety net while something is being built and the channel is down: the socket usually wins
    refetchInterval: (q) => (busy(q.state.data) ? 5000 : false),
  });

/** The user's report tasks, kept live by the exporter channel. */
export function useReportTasks() {
  const qc = useQueryClient();
  useEffect(() => {
    const reread = () => void qc.invalidateQueries({ queryKey: reportKeys.tasks() });
    const offs = [
      subscribeExporter('task:created', reread),
      subscribeExporter('task:done', reread),
      subscribeExporter('task:failed', reread),
      subscribeExporter('task:progress', (p) => {
        const data = qc.getQueryData<ReportTasksResponse>(reportKeys.tasks());
        if (!data?.items.some((t) => t.id === p.id)) return reread();
        qc.setQueryData<ReportTasksResponse>(reportKeys.tasks(), {
          items: data.items.map((t) =>
            t.id === p.id
              ? {
                  ...t,
                  status: p.status,
                  progress: p.progress,
                  rows_done: p.rows_done ?? t.rows_done,
                  rows_total: p.rows_total ?? t.rows_total,
                }
              : t,
          ),
        });
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [qc]);
  return useQuery(tasksQuery());
}

export function requestReport(body: ReportRequestInput, pivotId: number | null) {
  return callRoute(reportsRoutes.create, { body }, { pivotId });
}

/** Signs the file's link and lets the browser download it (same origin; the server names the file). */
export async function downloadReport(gsUrl: string): Promise<void> {
  const { url } = await callRoute(reportsRoutes.sign, { body: { gs_url: gsUrl } });
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  a.download = '';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function useSubscriptions(email: string) {
  return useQuery({
    queryKey: reportKeys.subscriptions(email),
    queryFn: ({ signal }) =>
      callRoute(subscriptionsRoutes.list, { query: { email: email || undefined } }, { signal }),
    refetchInterval: (q) =>
      q.state.data?.items.some((s) =>
        ['building', 'sending', 'retrying'].includes(s.last_delivery?.status ?? ''),
      )
        ? 5000
        : false,
  });
}

export function subscribe(body: SubscriptionBody) {
  return callRoute(subscriptionsRoutes.subscribe, { body });
}

/** "Enviar ahora": one send of the subscription, now (its schedule unchanged). */
export function sendSubscriptionNow(id: number) {
  return callRoute(subscriptionsRoutes.sendNow, { params: { id } });
}

export function unsubscribe(body: UnsubscribeBody) {
  return callRoute(subscriptionsRoutes.unsubscribe, { body });
}
