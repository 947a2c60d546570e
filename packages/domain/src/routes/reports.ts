import { z } from 'zod';
import { apiErrorSchema, okSchema } from '../common.js';
import {
  reportCreatedResponse,
  reportRequestBody,
  reportTasksResponse,
  signedLinkParams,
  signReportBody,
  signReportResponse,
  subscriptionBody,
  subscriptionIdParams,
  subscriptionSavedResponse,
  subscriptionsQuery,
  subscriptionsResponse,
  unsubscribeBody,
} from '../reports.js';
import { defineRoute } from './define.js';

/**
 * Reports and subscriptions (seed 001 §7 "Reports and subscriptions"), module 'reports'. Reports are
 * built in the background (job queue); their progress goes over the exporter channel. The file links
 * and the e-mail unsubscribe link are signed (HMAC) and work without a session.
 */
export const reportsRoutes = {
  create: defineRoute({
    id: 'reports.create',
    method: 'POST',
    path: '/v1/navigation-reports/',
    module: 'reports',
    auth: true,
    body: reportRequestBody,
    response: reportCreatedResponse,
    summary: 'Pide un reporte: crea la tarea y responde de inmediato con su id',
  }),
  list: defineRoute({
    id: 'reports.list',
    method: 'GET',
    path: '/v1/navigation-reports/',
    module: 'reports',
    auth: true,
    response: reportTasksResponse,
    summary: 'Reportes del usuario (últimos 100): estado, avance, tamaño',
  }),
  sign: defineRoute({
    id: 'reports.sign',
    method: 'POST',
    path: '/v1/navigation-reports/sign-report/',
    module: 'reports',
    auth: true,
    body: signReportBody,
    response: signReportResponse,
    summary: 'Enlace de descarga firmado y con vencimiento para un reporte terminado del usuario',
  }),
  file: defineRoute({
    id: 'reports.file',
    method: 'GET',
    path: '/v1/navigation-reports/files/:link',
    module: null,
    auth: false,
    params: signedLinkParams,
    response: { 200: z.string(), 403: apiErrorSchema, 410: apiErrorSchema },
    produces: 'application/octet-stream',
    summary: 'Descarga de un reporte por su enlace firmado (403 alterado o ajeno, 410 vencido)',
  }),
};

export const subscriptionsRoutes = {
  list: defineRoute({
    id: 'subscriptions.list',
    method: 'GET',
    path: '/v1/subscriptions/',
    module: 'reports',
    auth: true,
    query: subscriptionsQuery,
    response: subscriptionsResponse,
    summary: 'Suscripciones de la organización (filtradas por email), con su último envío',
  }),
  subscribe: defineRoute({
    id: 'subscriptions.subscribe',
    method: 'POST',
    path: '/v1/subscriptions/',
    module: 'reports',
    auth: true,
    body: subscriptionBody,
    response: subscriptionSavedResponse,
    summary:
      'Suscribe un correo de la organización a un tipo de reporte (diario o semanal, a una hora local)',
  }),
  unsubscribe: defineRoute({
    id: 'subscriptions.unsubscribe',
    method: 'POST',
    path: '/v1/subscriptions/unsubscribe',
    module: 'reports',
    auth: true,
    body: unsubscribeBody,
    response: okSchema,
    summary: 'Cancela la suscripción de un correo de la organización a un tipo de reporte',
  }),
  sendNow: defineRoute({
    id: 'subscriptions.sendNow',
    method: 'POST',
    path: '/v1/subscriptions/send-now/:id',
    module: 'reports',
    auth: true,
    params: subscriptionIdParams,
    response: subscriptionSavedResponse,
    summary:
      'Envía ahora, una vez, una suscripción de la organización (genera su reporte y lo manda por correo); a lo más un envío cada 5 minutos por suscripción',
  }),
  unsubscribeLink: defineRoute({
    id: 'subscriptions.unsubscribeLink',
    method: 'GET',
    path: '/v1/subscriptions/unsubscribe/:link',
    module: null,
    auth: false,
    params: signedLinkParams,
    response: { 200: z.string(), 403: apiErrorSchema },
    produces: 'text/html',
    summary: 'Baja en un clic desde el enlace firmado del correo (sin sesión)',
  }),
};
