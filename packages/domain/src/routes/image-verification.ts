import { z } from 'zod';
import { apiErrorSchema } from '../common.js';
import {
  imageCheckDetail,
  imageCheckQuery,
  imageItemsQuery,
  imageItemsResponse,
  imageKpis,
  imageKpisQuery,
  imageReviewBody,
  imageXlsxQuery,
} from '../image-verification.js';
import { defineRoute } from './define.js';

// Image verification (seed 001 §7 "Image verification"; issue 15): module image_verification.

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const imageVerificationRoutes = {
  items: defineRoute({
    id: 'imageVerification.items',
    method: 'GET',
    path: '/v1/image-verification/items',
    module: 'image_verification',
    auth: true,
    query: imageItemsQuery,
    response: imageItemsResponse,
    summary: 'Verificación de imágenes: listado (25 por página)',
  }),
  kpis: defineRoute({
    id: 'imageVerification.kpis',
    method: 'GET',
    path: '/v1/image-verification/kpis',
    module: 'image_verification',
    auth: true,
    query: imageKpisQuery,
    response: imageKpis,
    summary: 'Verificación de imágenes: correctas, para revisión, incorrectas',
  }),
  itemsXlsx: defineRoute({
    id: 'imageVerification.itemsXlsx',
    method: 'GET',
    path: '/v1/image-verification/items.xlsx',
    module: 'image_verification',
    auth: true,
    query: imageXlsxQuery,
    response: z.string().max(50_000_000),
    produces: XLSX,
    summary: 'Descarga XLSX del listado (token en Authorization, o en authToken en la URL de un enlace)',
    description:
      'Las filas del filtro actual (todas las páginas, hasta 10.000). Un enlace de descarga puede llevar el JWT en el parámetro authToken: se valida igual que el encabezado Authorization y nunca se registra en los logs.',
  }),
  item: defineRoute({
    id: 'imageVerification.item',
    method: 'GET',
    path: '/v1/image-verification/check',
    module: 'image_verification',
    auth: true,
    query: imageCheckQuery,
    response: { 200: imageCheckDetail, 404: apiErrorSchema },
    summary: 'Una verificación: puntajes y mapa de diferencias',
  }),
  review: defineRoute({
    id: 'imageVerification.review',
    method: 'PUT',
    path: '/v1/image-verification/review',
    module: 'image_verification',
    auth: true,
    body: imageReviewBody,
    response: { 200: imageCheckDetail, 404: apiErrorSchema, 409: apiErrorSchema },
    summary: 'Decisión de revisión (aceptada / incorrecta) de una imagen para revisión',
  }),
  picture: defineRoute({
    id: 'imageVerification.picture',
    method: 'GET',
    path: '/v1/image-verification/pictures/:file',
    module: null,
    auth: false,
    params: z.object({ file: z.string().min(1).max(200) }),
    response: { 200: z.string().max(20_000_000), 404: apiErrorSchema },
    produces: 'image/png',
    summary: 'Imagen raster de producto del mercado de demostración (PNG/JPEG/WebP)',
  }),
};
