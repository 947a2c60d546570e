import { z } from 'zod';
import {
  markAllReadBody,
  notificationIdBody,
  notificationListQuery,
  notificationListResponse,
  notificationSubscription,
  notificationSubscriptionsResponse,
  unreadCountResponse,
  unsubscribeQuery,
} from '../notifications.js';
import { defineRoute } from './define.js';

/**
 * Notifications (issue 17; seeds: "notifications, with subscriptions and namespaces", behaviour ours).
 * Every route answers for the signed-in user only and within the license (docs/metrics.md "Notifications").
 */
export const notificationsRoutes = {
  list: defineRoute({
    id: 'notifications.list',
    method: 'GET',
    path: '/v1/notifications/',
    module: null,
    auth: true,
    query: notificationListQuery,
    response: notificationListResponse,
    summary: 'Notificaciones del usuario, paginadas, por espacio y estado de lectura',
  }),
  unreadCount: defineRoute({
    id: 'notifications.unreadCount',
    method: 'GET',
    path: '/v1/notifications/unread-count',
    module: null,
    auth: true,
    response: unreadCountResponse,
    summary: 'Cantidad de notificaciones no leídas (la campana)',
  }),
  markRead: defineRoute({
    id: 'notifications.markRead',
    method: 'POST',
    path: '/v1/notifications/read',
    module: null,
    auth: true,
    body: notificationIdBody,
    response: unreadCountResponse,
    summary: 'Marca una notificación como leída; responde las no leídas que quedan',
  }),
  markAllRead: defineRoute({
    id: 'notifications.markAllRead',
    method: 'POST',
    path: '/v1/notifications/read-all',
    module: null,
    auth: true,
    body: markAllReadBody,
    response: unreadCountResponse,
    summary: 'Marca todas (o las de un espacio) como leídas',
  }),
  subscriptions: defineRoute({
    id: 'notifications.subscriptions',
    method: 'GET',
    path: '/v1/notifications/subscriptions',
    module: null,
    auth: true,
    response: notificationSubscriptionsResponse,
    summary: 'Suscripciones del usuario por espacio (las no editadas, con sus valores por omisión)',
  }),
  saveSubscription: defineRoute({
    id: 'notifications.saveSubscription',
    method: 'PUT',
    path: '/v1/notifications/subscriptions',
    module: null,
    auth: true,
    body: notificationSubscription,
    response: notificationSubscription,
    summary: 'Guarda la suscripción de un espacio',
    description:
      'Los eCommerce y clasificaciones deben estar en la licencia (si no, 403); el espacio debe estar abierto por un módulo de la licencia (si no, 403).',
  }),
  unsubscribe: defineRoute({
    id: 'notifications.unsubscribe',
    method: 'GET',
    path: '/v1/notifications/unsubscribe',
    module: null,
    auth: false,
    query: unsubscribeQuery,
    response: z.string(),
    produces: 'text/html',
    summary: 'Baja de los correos de un espacio con un clic (enlace firmado de cada correo)',
  }),
};
