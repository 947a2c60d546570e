import { queryOptions } from '@tanstack/react-query';
import {
  type NotificationListQuery,
  type NotificationSubscription,
  notificationsRoutes,
} from '@vigia/domain';
import { callRoute } from '../../../lib/api-client.js';
import { logFailure } from '../../../lib/load.js';
import { setNotificationCount } from '../../../lib/notification-count.js';

// The notifications screens' calls (routes: packages/domain/src/routes/notifications.ts). Every answer
// that carries the unread count updates the bell's stored count.

export const notificationKeys = {
  all: ['notifications'] as const,
  list: (q: NotificationListQuery) => ['notifications', 'list', q] as const,
  subscriptions: () => ['notifications', 'subscriptions'] as const,
};

export const notificationQueries = {
  list: (q: NotificationListQuery) =>
    queryOptions({
      queryKey: notificationKeys.list(q),
      queryFn: ({ signal }) =>
        logFailure('Notificaciones', signal, async () => {
          const r = await callRoute(notificationsRoutes.list, { query: q }, { notify: false, signal });
          setNotificationCount(r.unread);
          return r;
        }),
    }),
  subscriptions: () =>
    queryOptions({
      queryKey: notificationKeys.subscriptions(),
      queryFn: ({ signal }) =>
        logFailure('Suscripciones', signal, () =>
          callRoute(notificationsRoutes.subscriptions, {}, { notify: false, signal }),
        ),
    }),
};

export async function markNotificationRead(id: number): Promise<void> {
  const r = await callRoute(notificationsRoutes.markRead, { body: { id } });
  setNotificationCount(r.unread);
}

export async function markAllNotificationsRead(
  namespace?: NotificationListQuery['namespace'],
): Promise<void> {
  const r = await callRoute(notificationsRoutes.markAllRead, { body: { namespace } });
  setNotificationCount(r.unread);
}

export function saveNotificationSubscription(s: NotificationSubscription): Promise<NotificationSubscription> {
  return callRoute(notificationsRoutes.saveSubscription, { body: s });
}
