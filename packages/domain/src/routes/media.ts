import { z } from 'zod';
import { apiErrorSchema } from '../common.js';
import { defineRoute } from './define.js';

/** A picture file name: `<key>.svg`. */
export const mediaParams = z.object({ file: z.string().min(1).max(200) });
const svg = z.string().max(1_000_000);

/**
 * Product pictures (public: <img> tags cannot send a token; immutable per key, cached for a year).
 * An unknown key answers the usual JSON 404.
 */
export const mediaRoutes = {
  product: defineRoute({
    id: 'media.product',
    method: 'GET',
    path: '/media/products/:file',
    module: null,
    auth: false,
    params: mediaParams,
    response: { 200: svg, 404: apiErrorSchema },
    produces: 'image/svg+xml',
    summary: 'Imagen de un producto (SVG)',
  }),
  reference: defineRoute({
    id: 'media.reference',
    method: 'GET',
    path: '/media/reference/:file',
    module: null,
    auth: false,
    params: mediaParams,
    response: { 200: svg, 404: apiErrorSchema },
    produces: 'image/svg+xml',
    summary: 'Imagen de referencia de un producto (SVG)',
  }),
};
