import { z } from 'zod';
import {
  appConfig,
  categoryNode,
  classificationNode,
  licenseBrand,
  licenseBrandsBody,
  licenseCurrency,
  licensePivot,
  licenseRoleModule,
  licenseSeller,
  sellersByCountry,
} from '../account.js';
import { defineRoute } from './define.js';

const me = <R extends z.ZodType>(id: string, path: string, response: R, summary: string) =>
  defineRoute({ id: `licenses.${id}`, method: 'GET', path, module: null, auth: true, response, summary });

/** License data (seed 000 §3 "License data", §7), always the caller's license only. */
export const licensesRoutes = {
  currencies: me(
    'currencies',
    '/v1/licenses/currencies/me',
    z.array(licenseCurrency),
    'Divisas de la licencia',
  ),
  pivots: me(
    'pivots',
    '/v1/licenses/pivots/me',
    z.array(licensePivot),
    'Pivotes (sellers propios) de la licencia',
  ),
  roleModules: me(
    'roleModules',
    '/v1/licenses/role-modules/me',
    z.array(licenseRoleModule),
    'Módulos habilitados por la licencia',
  ),
  sellers: me(
    'sellers',
    '/v1/licenses/sellers/me',
    z.array(licenseSeller),
    'eCommerce de la licencia (competidores y pivotes)',
  ),
  sellersByCountries: me(
    'sellersByCountries',
    '/v1/licenses/sellers-by-countries/me',
    z.array(sellersByCountry),
    'eCommerce de la licencia agrupados por país',
  ),
  classifications: me(
    'classifications',
    '/v1/licenses/classifications/me',
    z.array(classificationNode),
    'Subárboles de la clasificación otorgados por la licencia',
  ),
  classificationTree: me(
    'classificationTree',
    '/v1/v2_classification',
    z.array(classificationNode),
    'Árbol de clasificación (v2) visible para la licencia',
  ),
  categoryTree: me(
    'categoryTree',
    '/v1/v2_category_tree',
    z.array(categoryNode),
    'Árboles de categorías de los eCommerce de la licencia',
  ),
  brands: defineRoute({
    id: 'licenses.brands',
    method: 'POST',
    path: '/v1/licenses/brands/me',
    module: null,
    auth: true,
    body: licenseBrandsBody,
    response: z.array(licenseBrand),
    summary: 'Marcas publicadas en los eCommerce indicados (vacío = todos los de la licencia)',
    description: 'Un eCommerce fuera de la licencia es un 403. `own` = marca propia de la licencia.',
  }),
  appConfig: defineRoute({
    id: 'licenses.appConfig',
    method: 'GET',
    path: '/v1/app-config',
    module: null,
    auth: false,
    response: appConfig,
    summary: 'Versión y reglas de visibilidad de las tarjetas del inicio (sin autenticación)',
  }),
};
