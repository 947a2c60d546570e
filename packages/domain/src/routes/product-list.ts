import { productListBody, productListResponse } from '../product-list.js';
import { defineRoute } from './define.js';

/** Product list (seed 001 §2 'product-list'; docs/metrics.md "Product list"). No module code. */
export const productListRoutes = {
  list: defineRoute({
    id: 'productList.list',
    method: 'POST',
    path: '/v1/list-products/',
    module: null,
    auth: true,
    body: productListBody,
    response: productListResponse,
    summary: 'Lista de productos: publicaciones del pivote (u otros eCommerce), paginadas',
  }),
};
