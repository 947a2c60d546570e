import { z } from 'zod';
import {
  promotionBody,
  promotionDownloadBody,
  promotionItemsResponse,
  promotionOneClassBody,
  promotionPricesBody,
  promotionPricesResponse,
  promotionRangeResponse,
  promotionScatterResponse,
  scatterBody,
} from '../promotions.js';
import { defineRoute } from './define.js';

/**
 * Promotions (seed 001 §7 "Promotions"): POST, payload = the validated filters, module 'promotions'.
 * Definitions: docs/metrics.md "Promotions".
 */
export const promotionsRoutes = {
  level: defineRoute({
    id: 'promotions.level',
    method: 'POST',
    path: '/v1/promotion/level',
    module: 'promotions',
    auth: true,
    body: promotionBody,
    response: promotionItemsResponse,
    summary: 'Promociones por día: porcentaje semanal en promoción por eCommerce y clasificación',
  }),
  duration: defineRoute({
    id: 'promotions.duration',
    method: 'POST',
    path: '/v1/promotion/duration',
    module: 'promotions',
    auth: true,
    body: promotionOneClassBody,
    response: promotionItemsResponse,
    summary: 'Promociones por duración (una clasificación por llamada)',
  }),
  type: defineRoute({
    id: 'promotions.type',
    method: 'POST',
    path: '/v1/promotion/type',
    module: 'promotions',
    auth: true,
    body: promotionBody,
    response: promotionItemsResponse,
    summary: 'Promociones por formato: oferta exclusiva, por cantidad y oferta',
  }),
  range: defineRoute({
    id: 'promotions.range',
    method: 'POST',
    path: '/v1/promotion/range',
    module: 'promotions',
    auth: true,
    body: promotionOneClassBody,
    response: promotionRangeResponse,
    summary: 'Promociones por rango de precios (una clasificación por llamada, range 4)',
  }),
  scatterPlot: defineRoute({
    id: 'promotions.scatterPlot',
    method: 'POST',
    path: '/v1/promotion/scatter-plot',
    module: 'promotions',
    auth: true,
    body: scatterBody,
    response: promotionScatterResponse,
    summary: 'Dispersión: precio de promoción contra cantidad de productos por eCommerce',
  }),
  prices: defineRoute({
    id: 'promotions.prices',
    method: 'POST',
    path: '/v1/promotion/prices',
    module: 'promotions',
    auth: true,
    body: promotionPricesBody,
    response: promotionPricesResponse,
    summary: 'Productos detrás de un porcentaje (promotion = level, duration o type)',
  }),
  download: defineRoute({
    id: 'promotions.download',
    method: 'POST',
    path: '/v1/promotion/download',
    module: 'promotions',
    auth: true,
    body: promotionDownloadBody,
    response: z.string().max(50_000_000),
    produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    summary: 'Descarga XLSX de una tabla de promociones (el cuerpo de la llamada y promotion)',
  }),
};
