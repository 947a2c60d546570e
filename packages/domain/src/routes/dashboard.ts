import {
  dashboardPreBody,
  dashboardPreResponse,
  generalPreBody,
  generalPreResponse,
  quickFindBody,
  quickFindResponse,
} from '../dashboard.js';
import { defineRoute } from './define.js';

/** Dashboard (seed 001 §2 'dashboard', §7): indicators, card groups and quick find. No module code. */
export const dashboardRoutes = {
  indicators: defineRoute({
    id: 'dashboard.indicators',
    method: 'POST',
    path: '/v2/general/pre',
    module: null,
    auth: true,
    body: generalPreBody,
    response: generalPreResponse,
    summary: 'Indicadores: competidores, productos monitoreados, con match, última actualización, índice',
  }),
  cards: defineRoute({
    id: 'dashboard.cards',
    method: 'POST',
    path: '/v2/dashboard/pre',
    module: null,
    auth: true,
    body: dashboardPreBody,
    response: dashboardPreResponse,
    summary:
      'Tarjetas del dashboard (Surtido, Precios, Promociones) con su cambio contra el período anterior',
  }),
  quickFind: defineRoute({
    id: 'dashboard.quickFind',
    method: 'POST',
    path: '/v2/quickFind',
    module: null,
    auth: true,
    body: quickFindBody,
    response: quickFindResponse,
    summary: 'Búsqueda rápida de productos del pivote (nombre, marca, SKU, EAN o id)',
  }),
};
