import {
  APP_VERSION,
  apiErrorSchema,
  appConfig,
  categoryNode,
  classificationNode,
  licenseBrand,
  licenseBrandsBody,
  licenseCurrency,
  licensePivot,
  licenseRoleModule,
  licenseSeller,
  MODULE_CODES,
  sellersByCountry,
} from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../../lib/errors.js';
import { principalOf } from '../../lib/scope.js';
import type { License } from '../../plugins/auth.js';
import {
  brandsOfSellers,
  categoriesOfSellers,
  currenciesByAcronym,
  licensedClassifications,
  type SellerRow,
  sellersById,
} from './queries.js';
import { buildTree } from './tree.js';

/** Every seller a license lets its users see: competitors and pivots. */
export function licensedSellerIds(license: License): number[] {
  return [...new Set([...license.sellers, ...license.pivots])].sort((a, b) => a - b);
}

const sellerOut = (s: SellerRow) => ({
  id: s.id,
  name: s.name,
  country: s.country,
  color: s.color,
  currency: s.currency,
});

const authErrors = { 401: apiErrorSchema };

/** License data (seed 000 §3 "License data", §7), always the caller's license only. */
export default async function licensesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config, db } = app.deps;
  const secured = { tags: ['licenses'], security: [{ jwt: [] }] };
  const auth = { preHandler: [app.authenticate] };

  r.get(
    '/v1/licenses/currencies/me',
    {
      schema: {
        ...secured,
        summary: 'Divisas de la licencia',
        response: { 200: z.array(licenseCurrency), ...authErrors },
      },
      ...auth,
    },
    async (req) => currenciesByAcronym(db.pool, principalOf(req).license.currencies),
  );

  r.get(
    '/v1/licenses/pivots/me',
    {
      schema: {
        ...secured,
        summary: 'Pivotes (sellers propios) de la licencia',
        response: { 200: z.array(licensePivot), ...authErrors },
      },
      ...auth,
    },
    async (req) => {
      const rows = await sellersById(db.pool, principalOf(req).license.pivots);
      return rows.map(({ id, name, country, color }) => ({ id, name, country, color }));
    },
  );

  r.get(
    '/v1/licenses/role-modules/me',
    {
      schema: {
        ...secured,
        summary: 'Módulos habilitados por la licencia',
        response: { 200: z.array(licenseRoleModule), ...authErrors },
      },
      ...auth,
    },
    async (req) => {
      const granted = principalOf(req).license.modules;
      return MODULE_CODES.filter((m) => granted.includes(m)).map((module_code) => ({ module_code }));
    },
  );

  r.get(
    '/v1/licenses/sellers/me',
    {
      schema: {
        ...secured,
        summary: 'eCommerce de la licencia (competidores y pivotes)',
        response: { 200: z.array(licenseSeller), ...authErrors },
      },
      ...auth,
    },
    async (req) => (await sellersById(db.pool, licensedSellerIds(principalOf(req).license))).map(sellerOut),
  );

  r.get(
    '/v1/licenses/sellers-by-countries/me',
    {
      schema: {
        ...secured,
        summary: 'eCommerce de la licencia agrupados por país',
        response: { 200: z.array(sellersByCountry), ...authErrors },
      },
      ...auth,
    },
    async (req) => {
      const rows = await sellersById(db.pool, licensedSellerIds(principalOf(req).license));
      const groups = new Map<string, z.infer<typeof sellersByCountry>>();
      for (const s of rows) {
        let g = groups.get(s.country);
        if (!g) {
          g = { country: s.country, country_name: s.country_name, country_flag: s.country_flag, sellers: [] };
          groups.set(s.country, g);
        }
        g.sellers.push(sellerOut(s));
      }
      return [...groups.values()];
    },
  );

  const classificationTree = async (license: License) =>
    buildTree(await licensedClassifications(db.pool, license.classifications));

  r.get(
    '/v1/licenses/classifications/me',
    {
      schema: {
        ...secured,
        summary: 'Subárboles de la clasificación otorgados por la licencia',
        response: { 200: z.array(classificationNode), ...authErrors },
      },
      ...auth,
    },
    async (req) => classificationTree(principalOf(req).license),
  );

  r.get(
    '/v1/v2_classification',
    {
      schema: {
        ...secured,
        summary: 'Árbol de clasificación (v2) visible para la licencia',
        response: { 200: z.array(classificationNode), ...authErrors },
      },
      ...auth,
    },
    async (req) => classificationTree(principalOf(req).license),
  );

  r.get(
    '/v1/v2_category_tree',
    {
      schema: {
        ...secured,
        summary: 'Árboles de categorías de los eCommerce de la licencia',
        response: { 200: z.array(categoryNode), ...authErrors },
      },
      ...auth,
    },
    async (req) => buildTree(await categoriesOfSellers(db.pool, licensedSellerIds(principalOf(req).license))),
  );

  r.post(
    '/v1/licenses/brands/me',
    {
      schema: {
        ...secured,
        summary: 'Marcas publicadas en los eCommerce indicados (vacío = todos los de la licencia)',
        description: 'Un eCommerce fuera de la licencia es un 403. `own` = marca propia de la licencia.',
        body: licenseBrandsBody,
        response: { 200: z.array(licenseBrand), 400: apiErrorSchema, 403: apiErrorSchema, ...authErrors },
      },
      ...auth,
    },
    async (req) => {
      const { license } = principalOf(req);
      const licensed = licensedSellerIds(license);
      const requested = [...new Set(req.body.sellers)];
      const outside = requested.filter((s) => !licensed.includes(s));
      if (outside.length) {
        throw forbidden(`eCommerce no incluido en la licencia: ${outside.join(', ')}`, 'seller_not_licensed');
      }
      return brandsOfSellers(db.pool, requested.length ? requested : licensed, license.brands);
    },
  );

  r.get(
    '/v1/app-config',
    {
      schema: {
        tags: ['licenses'],
        summary: 'Versión y reglas de visibilidad de las tarjetas del inicio (sin autenticación)',
        response: { 200: appConfig },
      },
    },
    async () => ({
      version: APP_VERSION,
      brandComparatorSellers: config.BRAND_COMPARATOR_SELLERS,
      imageVerificationSellers: config.IMAGE_VERIFICATION_SELLERS,
    }),
  );
}
