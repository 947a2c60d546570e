import {
  historicalCompleteBody,
  historicalCompleteResponse,
  newDetailBody,
  newDetailInfoBody,
  newDetailInfoResponse,
  newDetailResponse,
  qmiBody,
  qmiHistoryBody,
  qmiHistoryResponse,
  qmiResponse,
} from '../detail.js';
import { defineRoute } from './define.js';

/**
 * Product detail (seed 001 §2 product/{id}, qmp-detail, qmi-detail). No module: authentication, then
 * the license's sellers, pivots, currencies and classifications.
 */
export const detailRoutes = {
  match: defineRoute({
    id: 'detail.match',
    method: 'POST',
    path: '/v1/new-detail/',
    module: null,
    auth: true,
    body: newDetailBody,
    response: newDetailResponse,
    summary: 'Detalle de producto (qmp): competidores del grupo de match, ranking y variación',
  }),
  info: defineRoute({
    id: 'detail.info',
    method: 'POST',
    path: '/v1/new-detail/info',
    module: null,
    auth: true,
    body: newDetailInfoBody,
    response: newDetailInfoResponse,
    summary: 'Información de un producto (panel de detalle)',
  }),
  history: defineRoute({
    id: 'detail.history',
    method: 'POST',
    path: '/v1/historical/complete/',
    module: null,
    auth: true,
    body: historicalCompleteBody,
    response: historicalCompleteResponse,
    summary: 'Histórico de precios y posición por eCommerce (puntos diarios, días del mercado)',
  }),
  qmi: defineRoute({
    id: 'detail.qmi',
    method: 'POST',
    path: '/v2/detail/qmi',
    module: null,
    auth: true,
    body: qmiBody,
    response: qmiResponse,
    summary: 'Detalle qmi: información de una publicación (eCommerce + id del eCommerce)',
  }),
  qmiHistory: defineRoute({
    id: 'detail.qmiHistory',
    method: 'POST',
    path: '/v2/detail/qmi/history',
    module: null,
    auth: true,
    body: qmiHistoryBody,
    response: qmiHistoryResponse,
    summary: 'Histórico de una publicación; con downloadablePipeline, archivo XLSX (o CSV con format=csv)',
  }),
};
