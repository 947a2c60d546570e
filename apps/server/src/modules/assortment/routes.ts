import {
  ASSORTMENT_DEFAULT_PERIOD_DAYS,
  ASSORTMENT_FILE,
  ASSORTMENT_MAX_PERIOD_DAYS,
  ASSORTMENT_STOCK_LABELS,
  type AssortmentProductsBody,
  type AssortmentResult,
  type AssortmentStockEvent,
  addDays,
  daysInclusive,
  type Filters,
  NO_BRAND_NAME,
  routes,
} from '@vigia/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type {} from '../../app.js'; // FastifyInstance.deps
import { badRequest, forbidden } from '../../lib/errors.js';
import { registerRoute } from '../../lib/route.js';
import { requesterOf } from '../../lib/scope.js';
import { filterNames, namesPart, xlsxFileName } from '../../lib/workbook.js';
import {
  classificationsOutside,
  resolveCurrency,
  resolvePeriod,
  resolvePivot,
  resolveSellers,
  selectClpRateTexts,
  selectRates,
  today,
} from '../../market/index.js';
import { download, moduleBeside, task, XLSX_TYPE } from '../../platform/pool/index.js';
import { readModelsOf } from '../../platform/read-model.js';
import { dayZone } from '../ingest/index.js';
import { assortmentXlsx, productsXlsx } from './download.js';
import { selectProductsPage } from './kept-orders.js';
import {
  type AssortmentSelection,
  type Periods,
  type ProductRow,
  selectAssortmentFigures,
  selectBrandIdsByName,
  selectBrandNames,
  selectSellers,
} from './queries.js';
import { brandRows, type Rates, sellerRows } from './service.js';

// Assortment API (seed 001 §7 "Assortment"; contract packages/domain/src/assortment.ts; formulas
// docs/metrics.md "Assortment"). Module `assortment`, checked before the body is validated; every answer
// is scoped to the caller's license (sellers, pivot, currency, classifications, 403 outside it).

const XLSX_MAX_ROWS = 10_000;
/** The XLSX downloads are written in the platform's export pool, off the event loop (issue 26 finding 3). */
const xlsxTasks = {
  rollup: task(moduleBeside(import.meta.url, './download'), 'assortmentXlsx', assortmentXlsx),
  products: task(moduleBeside(import.meta.url, './download'), 'productsXlsx', productsXlsx),
};

interface Scope {
  pivot: number;
  /** pivot first, then the selected competitors */
  sellers: number[];
  currency: string;
  selection: AssortmentSelection;
  periods: Periods;
  ownBrands: number[];
  /**
   * the zone of the answer's days (what today is): the organisation's market zone once its roll-up rows
   * are ready, else the deployment's (dayZone), for every figure and list alike
   */
  zone: string;
}

/** License-checked scope of an assortment request (docs/metrics.md "Assortment", "Scope"). */
async function resolveScope(req: FastifyRequest, pool: pg.Pool, f: Filters): Promise<Scope> {
  const who = requesterOf(req);
  const { principal } = who;
  const pivot = resolvePivot(who, f.pivot_id ?? null);
  const fromSession = f.sellers?.length ? resolveSellers(who, f.sellers, pivot) : null;
  const competitors = f.sellersIds?.length ? resolveSellers(who, f.sellersIds, pivot) : (fromSession ?? []);
  const currency = resolveCurrency(who, f.currency);
  const roots = principal.license.classifications;
  const outside = await classificationsOutside(pool, f.classificationsIds ?? [], roots);
  if (outside.length)
    throw forbidden(
      `Clasificación no incluida en la licencia: ${outside.join(', ')}`,
      'classification_not_licensed',
    );
  const zone = await dayZone(pool, principal.marketZone);
  const now = new Date();
  const period = resolvePeriod(
    { from: f.from_date, to: f.to_date },
    { from: 'from_date', to: 'to_date' },
    {
      maxDays: ASSORTMENT_MAX_PERIOD_DAYS,
      defaultFrom: (to) => addDays(to, -(ASSORTMENT_DEFAULT_PERIOD_DAYS - 1)),
      now,
      notAfterToday: true,
      zone,
    },
  );
  const length = daysInclusive(period.from, period.to);
  const sellers = [pivot, ...competitors];
  return {
    pivot,
    sellers,
    currency,
    zone,
    ownBrands: principal.license.brands,
    selection: {
      zone,
      sellers,
      roots,
      classificationsIds: f.classificationsIds,
      brands: f.brands,
      ownBrands: f.ownBrands ? principal.license.brands : undefined,
    },
    periods: {
      from: period.from,
      to: period.to,
      previousFrom: addDays(period.from, -length),
      previousTo: addDays(period.from, -1),
    },
  };
}

const noRate = (currency: string) =>
  badRequest(`currency: no hay tipo de cambio para ${currency}`, 'currency');

async function ratesAt(pool: pg.Pool, currency: string, day: string): Promise<Map<string, number>> {
  const rates = await selectRates(pool, currency, day);
  if (!rates) throw noRate(currency);
  return rates;
}

/** CLP per unit of every currency on `day` as exact texts (the values' exact sums); the currency's too. */
async function clpRatesAt(pool: pg.Pool, currency: string, day: string): Promise<Map<string, string>> {
  const rates = await selectClpRateTexts(pool, day);
  if (!rates.has(currency)) throw noRate(currency);
  return rates;
}

// Whole answers per (scope, period, group) at the market's data version (the read-model holder,
// platform/read-model.ts): the screens ask the same question again on every visit, sort and page.
const MEMO_SIZE = 64;

function rollupAnswer(pool: pg.Pool, s: Scope, group: 'brand' | 'seller'): Promise<AssortmentResult> {
  return readModelsOf(pool)
    .memo<AssortmentResult>('assortment-answers', MEMO_SIZE)
    .answer([s, group, today(undefined, s.zone)], () => computeAnswer(pool, s, group));
}

async function computeAnswer(pool: pg.Pool, s: Scope, group: 'brand' | 'seller'): Promise<AssortmentResult> {
  const [figures, sellerList, current, previous] = await Promise.all([
    selectAssortmentFigures(pool, s.selection, s.periods),
    selectSellers(pool, s.sellers),
    clpRatesAt(pool, s.currency, s.periods.to),
    clpRatesAt(pool, s.currency, s.periods.previousTo),
  ]);
  const sellers = new Map(sellerList.map((x) => [x.id, x]));
  const rates: Rates = { currency: s.currency, current, previous };
  const rows =
    group === 'brand'
      ? brandRows(
          figures,
          sellers,
          rates,
          await selectBrandNames(
            pool,
            [...new Set(figures.map((r) => r.brand_id))].filter((b): b is number => b !== null),
          ),
          s.ownBrands,
        )
      : sellerRows(figures, s.sellers, s.pivot, sellers, rates);
  const summary = rows[0];
  return {
    currency: s.currency,
    pivot_id: s.pivot,
    sellers_ids: s.sellers,
    from_date: s.periods.from,
    to_date: s.periods.to,
    previous_from_date: s.periods.previousFrom,
    previous_to_date: s.periods.previousTo,
    total_products: summary.total_products,
    average_value: summary.average_value,
    average_variation: summary.average_variation,
    participation: summary.participation,
    total_value: summary.total_value,
    total_variation: summary.total_variation,
    group,
    ...(group === 'brand' ? { brands: rows } : { sellers: rows }),
  };
}

/** Narrows a scope to the drill-down's seller (must be one of the selection) and brand (by name). */
async function drillScope(pool: pg.Pool, s: Scope, b: AssortmentProductsBody) {
  let sellers = s.sellers;
  if (b.seller_id !== undefined) {
    if (!s.sellers.includes(b.seller_id))
      throw badRequest('seller_id: el eCommerce no está en la selección (eCommerce)', 'seller_id');
    sellers = [b.seller_id];
  }
  let brandIds: (number | null)[] | undefined;
  if (b.brand !== undefined) {
    brandIds = b.brand === NO_BRAND_NAME ? [null] : await selectBrandIdsByName(pool, b.brand);
  }
  return { selection: { ...s.selection, sellers }, brandIds };
}

function productsOut(s: Scope, b: AssortmentProductsBody, rows: ProductRow[]) {
  return {
    currency: s.currency,
    from_date: s.periods.from,
    to_date: s.periods.to,
    total: rows[0]?.total ?? 0,
    page: b.page,
    page_size: b.page_size,
    items: rows.map(({ total: _t, brand, ...r }) => ({ ...r, brand: brand ?? NO_BRAND_NAME })),
  };
}

export default async function assortmentRoutes(app: FastifyInstance) {
  const { pool } = app.deps.db;
  const defs = routes.assortment;

  // registerRoute: authentication and the module (assortment) come before the body's validation.
  registerRoute(app, defs.brand, async (req) =>
    rollupAnswer(pool, await resolveScope(req, pool, req.body), 'brand'),
  );
  registerRoute(app, defs.ecommerce, async (req) =>
    rollupAnswer(pool, await resolveScope(req, pool, req.body), 'seller'),
  );
  registerRoute(app, defs.stock, async (req) =>
    rollupAnswer(pool, await resolveScope(req, pool, req.body), 'seller'),
  );

  /** A drill-down's rows: one page, or (download) the first XLSX_MAX_ROWS. */
  async function drillDown(
    req: FastifyRequest,
    b: AssortmentProductsBody & { stock?: AssortmentStockEvent },
    all = false,
  ) {
    const s = await resolveScope(req, pool, b);
    const d = await drillScope(pool, s, b);
    const q = {
      ...d,
      from: s.periods.from,
      to: s.periods.to,
      rates: await ratesAt(pool, s.currency, s.periods.to),
      sort: b.sort_by,
      dir: b.sort,
      limit: all ? XLSX_MAX_ROWS : b.page_size,
      offset: all ? 0 : (b.page - 1) * b.page_size,
    };
    const rows = await selectProductsPage(pool, { ...q, kind: b.stock ?? 'state' });
    return productsOut(s, b, rows);
  }

  registerRoute(app, defs.brandProducts, (req) => drillDown(req, req.body));
  registerRoute(app, defs.ecommerceProducts, (req) => drillDown(req, req.body));
  registerRoute(app, defs.stockProducts, (req) => drillDown(req, req.body));

  // ───────────── XLSX downloads: the same tables and drill-downs as files ─────────────

  for (const [kind, group, def] of [
    ['brand', 'brand', defs.brandXlsx],
    ['ecommerce', 'seller', defs.ecommerceXlsx],
    ['stock', 'seller', defs.stockXlsx],
  ] as const) {
    registerRoute(app, def, (req, reply) =>
      download(reply, async (write) => {
        const s = await resolveScope(req, pool, req.body);
        const res = await rollupAnswer(pool, s, group);
        const rows = (group === 'brand' ? res.brands : res.sellers) ?? [];
        const n = await filterNames(pool, { classifications: req.body.classificationsIds ?? [] });
        return {
          type: XLSX_TYPE,
          name: xlsxFileName(
            ASSORTMENT_FILE[kind],
            [namesPart(n.classifications)],
            s.periods.from,
            s.periods.to,
          ),
          body: await write(xlsxTasks.rollup, kind, rows, res.currency),
        };
      }),
    );
  }
  for (const [kind, def] of [
    ['brand', defs.brandProductsXlsx],
    ['ecommerce', defs.ecommerceProductsXlsx],
    ['stock', defs.stockProductsXlsx],
  ] as const) {
    registerRoute(app, def, (req, reply) =>
      download(reply, async (write) => {
        const b = req.body as AssortmentProductsBody & { stock?: AssortmentStockEvent };
        const out = await drillDown(req, b, true);
        const n = await filterNames(pool, {
          classifications: b.classificationsIds ?? [],
          sellers: b.seller_id ? [b.seller_id] : [],
        });
        const name = xlsxFileName(
          `${ASSORTMENT_FILE[kind]}_productos`,
          [
            b.brand ?? null,
            namesPart(n.sellers),
            b.stock ? ASSORTMENT_STOCK_LABELS[b.stock] : null,
            namesPart(n.classifications),
          ],
          out.from_date,
          out.to_date,
        );
        return {
          type: XLSX_TYPE,
          name,
          body: await write(xlsxTasks.products, out.items, kind === 'stock', out.currency),
        };
      }),
    );
  }
}

/** The screens' names in the files they download (issue 31 item 9). */
