import { queryOptions } from '@tanstack/react-query';
import { dashboardRoutes, MESSAGES } from '@vigia/domain';
import { callRoute } from '../../../lib/api-client.js';
import { logFailure } from '../../../lib/load.js';
import { notify } from '../../../lib/notifier.js';

// The dashboard's two loads (seed 001 §7): the indicators (dashboardRoutes.indicators) and the card groups
// (dashboardRoutes.cards). Either failing shows 'Ocurrió un error obteniendo los indices' (§8) —
// once, even when both fail together (the page reports with useFailureNotice + reportDashboardFailure).

export interface DashboardScope {
  pivotId: number | null;
  currency: string;
  sellers: readonly number[];
}
export interface DashboardPeriod {
  from: string;
  to: string;
}

const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

export const dashboardKeys = {
  all: ['dashboard'] as const,
  indicators: (s: DashboardScope) =>
    ['dashboard', 'general', s.pivotId, s.currency, sorted(s.sellers)] as const,
  cards: (s: DashboardScope, p: DashboardPeriod) =>
    ['dashboard', 'cards', s.pivotId, s.currency, sorted(s.sellers), p.from, p.to] as const,
};

let lastFailureAt = 0;
/** One snackbar for failures that arrive together (both loads share the seed's message). */
export function reportDashboardFailure(message: string = MESSAGES.dashboardFailed): void {
  const now = Date.now();
  if (now - lastFailureAt > 3000) notify(message, 'error');
  lastFailureAt = now;
}

export const dashboardQueries = {
  indicators: (s: DashboardScope) =>
    queryOptions({
      queryKey: dashboardKeys.indicators(s),
      queryFn: ({ signal }) =>
        logFailure('Indicadores del dashboard', signal, () =>
          callRoute(
            dashboardRoutes.indicators,
            { body: { pivot_id: s.pivotId ?? undefined, sellers: sorted(s.sellers), currency: s.currency } },
            { notify: false, signal, pivotId: s.pivotId },
          ),
        ),
    }),
  cards: (s: DashboardScope, p: DashboardPeriod) =>
    queryOptions({
      queryKey: dashboardKeys.cards(s, p),
      queryFn: ({ signal }) =>
        logFailure('Tarjetas del dashboard', signal, () =>
          callRoute(
            dashboardRoutes.cards,
            {
              body: {
                pivot_id: s.pivotId ?? undefined,
                sellers: sorted(s.sellers),
                currency: s.currency,
                from_date: p.from,
                to_date: p.to,
              },
            },
            { notify: false, signal, pivotId: s.pivotId },
          ),
        ),
    }),
};
