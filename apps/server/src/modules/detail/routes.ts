import { detailRoutes as defs } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../lib/route.js';
import { principalOf, requesterOf } from '../../lib/scope.js';
import { optionalPivot, resolveCurrency, resolveSellers } from '../../market/index.js';
import {
  CSV_TYPE,
  download,
  moduleBeside,
  task,
  warmExportPool,
  XLSX_TYPE,
} from '../../platform/pool/index.js';
import { readModelsOf } from '../../platform/read-model.js';
import { historyCsv, historyFileName, historyXlsx, warmInput } from './download.js';
import {
  historicalComplete,
  NOT_FOUND,
  productInfoById,
  productMatchInfo,
  qmiHistory,
  qmiInfo,
} from './service.js';

/**
 * Product detail (seed 001 §2 product/{id}, qmp-detail, qmi-detail; §7 "Dashboard and product detail").
 * No module code: authentication, then the license's sellers, pivots, currencies and classifications.
 * A listing outside the license or unknown answers 200 without `_id` (the page's not-found view);
 * a seller, pivot or currency REQUESTED outside the license is a 403.
 */
/** The downloads are written in the platform's export pool, off the event loop (issue 26 finding 3). */
const historyTasks = {
  csv: task(moduleBeside(import.meta.url, './download'), 'historyCsv', historyCsv),
  xlsx: task(moduleBeside(import.meta.url, './download'), 'historyXlsx', historyXlsx),
};

export default async function detailRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  // The first XLSX downloads of a thread compile ExcelJS (download.ts warmInput): the export pool's
  // threads write a few small ones first, once the read models' warm-ups are done — not at start-up,
  // where the two threads' compiling (~2 s of both cores on the large market, CPU profile of a cold
  // start) slowed the first answers and model loads; tests skip it.
  if (!process.env.VITEST) {
    let closed = false;
    app.addHook('onReady', async () => {
      void readModelsOf(db.pool).warmUpsDone.then(() => {
        if (closed) return;
        warmExportPool(historyTasks.xlsx, [warmInput()]).catch((err) =>
          app.log.warn({ err }, 'XLSX warm-up failed'),
        );
      });
    });
    app.addHook('onClose', async () => {
      closed = true;
    });
  }

  registerRoute(app, defs.match, async (req) => {
    const { license } = principalOf(req);
    const pivot = optionalPivot(requesterOf(req), req.body.pivot_id);
    const currency = resolveCurrency(requesterOf(req), req.body.currency);
    const sellers = resolveSellers(requesterOf(req), req.body.sellers, pivot ?? undefined);
    const info = await productMatchInfo(db.pool, {
      license,
      productId: req.body.product_id,
      pivot,
      sellers,
      currency,
      zone: principalOf(req).marketZone,
    });
    return info ?? NOT_FOUND;
  });

  registerRoute(app, defs.info, async (req) => {
    const { license } = principalOf(req);
    optionalPivot(requesterOf(req), req.body.pivot_id);
    const currency = resolveCurrency(requesterOf(req), req.body.currency);
    return (
      (await productInfoById(db.pool, {
        license,
        productId: req.body.product_id,
        currency,
        zone: principalOf(req).marketZone,
      })) ?? NOT_FOUND
    );
  });

  registerRoute(app, defs.history, async (req) => {
    const { license } = principalOf(req);
    const b = req.body;
    const pivot = optionalPivot(requesterOf(req));
    const currency = resolveCurrency(requesterOf(req), b.currency);
    const sellers = resolveSellers(requesterOf(req), b.sellers, pivot ?? undefined);
    return historicalComplete(db.pool, {
      license,
      productId: b.product_id,
      sellerId: b.seller_id,
      pivot,
      sellers,
      currency,
      from: b.from_date,
      to: b.to_date,
      zone: principalOf(req).marketZone,
    });
  });

  registerRoute(app, defs.qmi, async (req) => {
    const { license } = principalOf(req);
    const currency = resolveCurrency(requesterOf(req), req.body.currency);
    resolveSellers(requesterOf(req), [req.body.sellerId]); // 403 outside the license
    return (
      (await qmiInfo(db.pool, {
        license,
        sellerId: req.body.sellerId,
        productId: String(req.body.productId),
        currency,
        zone: principalOf(req).marketZone,
      })) ?? NOT_FOUND
    );
  });

  registerRoute(app, defs.qmiHistory, async (req, reply) => {
    const { license } = principalOf(req);
    const b = req.body;
    const currency = resolveCurrency(requesterOf(req), b.currency);
    resolveSellers(requesterOf(req), [b.sellerId]);
    const productId = String(b.productId);
    const history = () =>
      qmiHistory(db.pool, {
        license,
        sellerId: b.sellerId,
        productId,
        currency,
        from: b.fromDate,
        to: b.toDate,
        zone: principalOf(req).marketZone,
      });
    if (b.downloadablePipeline) {
      return download(reply, async (write) => {
        const h = await history();
        const input = {
          sellerName: h.row?.seller_name ?? String(b.sellerId),
          productId,
          name: h.row?.name ?? null,
          currency,
          prices: h.prices,
        };
        const csv = b.format === 'csv';
        return {
          type: csv ? CSV_TYPE : XLSX_TYPE,
          name: historyFileName(input, h.from, h.to, csv ? 'csv' : 'xlsx'),
          body: csv ? await write(historyTasks.csv, input) : await write(historyTasks.xlsx, input),
        };
      });
    }
    const h = await history();
    return {
      ...(h.row ? { _id: h.row.id } : {}),
      product_id: productId,
      seller_id: b.sellerId,
      currency,
      fromDate: h.from,
      toDate: h.to,
      prices: h.prices,
    };
  });
}
