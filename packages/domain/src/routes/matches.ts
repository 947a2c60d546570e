import {
  matchAcceptBrandBody,
  matchDecideBody,
  matchDecideResponse,
  matchHistoryBody,
  matchHistoryResponse,
  matchQueueBody,
  matchQueueResponse,
  matchReportBody,
} from '../matches.js';
import { defineRoute } from './define.js';

// Coincidencias (issue 29): module dpm; pairs of the license's sellers only (apps/server/src/modules/matching).

export const matchesRoutes = {
  queue: defineRoute({
    id: 'matches.queue',
    method: 'POST',
    path: '/v1/matches/queue',
    module: 'dpm',
    auth: true,
    body: matchQueueBody,
    response: matchQueueResponse,
    summary: 'Coincidencias por revisar (filtros eCommerce, marca, clasificación, puntaje, motivo; paginado)',
  }),
  decide: defineRoute({
    id: 'matches.decide',
    method: 'POST',
    path: '/v1/matches/decide',
    module: 'dpm',
    auth: true,
    body: matchDecideBody,
    response: matchDecideResponse,
    summary: 'Aceptar, rechazar o deshacer una o varias coincidencias',
  }),
  acceptBrand: defineRoute({
    id: 'matches.acceptBrand',
    method: 'POST',
    path: '/v1/matches/accept-brand',
    module: 'dpm',
    auth: true,
    body: matchAcceptBrandBody,
    response: matchDecideResponse,
    summary: 'Aceptar todas las sugerencias de una marca desde un puntaje',
  }),
  report: defineRoute({
    id: 'matches.report',
    method: 'POST',
    path: '/v1/matches/report',
    module: 'dpm',
    auth: true,
    body: matchReportBody,
    response: matchDecideResponse,
    summary: 'Reportar una coincidencia incorrecta (vuelve a revisión)',
  }),
  history: defineRoute({
    id: 'matches.history',
    method: 'POST',
    path: '/v1/matches/history',
    module: 'dpm',
    auth: true,
    body: matchHistoryBody,
    response: matchHistoryResponse,
    summary: 'Coincidencias de un producto y su historial de decisiones',
  }),
};
