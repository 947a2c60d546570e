import { APP_VERSION, licensesRoutes as defs, MODULE_CODES, type sellersByCountry } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { forbidden } from '../../lib/errors.js';
import { registerRoute } from '../../lib/route.js';
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

/** License data (seed 000 §3 "License data", §7), always the caller's license only. */
export default async function licensesRoutes(app: FastifyInstance) {
  const { config, db } = app.deps;

  registerRoute(app, defs.currencies, async (req) =>
    currenciesByAcronym(db.pool, principalOf(req).license.currencies),
  );

  registerRoute(app, defs.pivots, async (req) => {
    const rows = await sellersById(db.pool, principalOf(req).license.pivots);
    return rows.map(({ id, name, country, color }) => ({ id, name, country, color }));
  });

  registerRoute(app, defs.roleModules, async (req) => {
    const granted = principalOf(req).license.modules;
    return MODULE_CODES.filter((m) => granted.includes(m)).map((module_code) => ({ module_code }));
  });

  registerRoute(app, defs.sellers, async (req) =>
    (await sellersById(db.pool, licensedSellerIds(principalOf(req).license))).map(sellerOut),
  );

  registerRoute(app, defs.sellersByCountries, async (req) => {
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
  });

  const classificationTree = async (license: License) =>
    buildTree(await licensedClassifications(db.pool, license.classifications));

  registerRoute(app, defs.classifications, async (req) => classificationTree(principalOf(req).license));

  registerRoute(app, defs.classificationTree, async (req) => classificationTree(principalOf(req).license));

  registerRoute(app, defs.categoryTree, async (req) =>
    buildTree(await categoriesOfSellers(db.pool, licensedSellerIds(principalOf(req).license))),
  );

  registerRoute(app, defs.brands, async (req) => {
    const { license } = principalOf(req);
    const licensed = licensedSellerIds(license);
    const requested = [...new Set(req.body.sellers)];
    const outside = requested.filter((s) => !licensed.includes(s));
    if (outside.length) {
      throw forbidden(`eCommerce no incluido en la licencia: ${outside.join(', ')}`, 'seller_not_licensed');
    }
    return brandsOfSellers(db.pool, requested.length ? requested : licensed, license.brands);
  });

  registerRoute(app, defs.appConfig, async () => ({
    version: APP_VERSION,
    brandComparatorSellers: config.BRAND_COMPARATOR_SELLERS,
    imageVerificationSellers: config.IMAGE_VERIFICATION_SELLERS,
  }));
}
