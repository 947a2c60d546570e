import {
  apiErrorSchema,
  promotionBody,
  promotionDownloadBody,
  promotionItemsResponse,
  promotionOneClassBody,
  promotionPricesBody,
  promotionPricesResponse,
  promotionRangeResponse,
  promotionScatterResponse,
  scatterBody,
} from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type {} from '../../app.js'; // FastifyInstance.deps
import { badRequest } from '../../lib/errors.js';
import {
  durationAnswer,
  levelAnswer,
  pricesAnswer,
  rangeAnswer,
  scatterAnswer,
  typeAnswer,
} from './answers.js';
import {
  durationSheet,
  levelSheet,
  pricesSheet,
  rangeSheet,
  type Sheet,
  scatterSheet,
  sheetXlsx,
  typeSheet,
} from './download.js';
import './rollup.js';

// Promotions API (seed 001 §7 "Promotions"; contract packages/domain/src/promotions.ts; definitions
// docs/metrics.md "Promotions"). Every endpoint needs the module 'promotions' and is scoped to the
// caller's license; they read the promotions read model (promo_daily, promo_spans), never price history.

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };

/** First schema issue as a 400 naming its field (the download validates its body per kind). */
function parseOr400<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = String(issue.path[0] ?? 'body');
  throw badRequest(`${field}: ${issue.message}`, field);
}

export default async function promotionsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = app.deps.db;
  const guard = { preHandler: [app.authenticate, app.requireModule('promotions')] };
  const tags = { tags: ['promotions'], security: [{ jwt: [] }] };

  r.post(
    '/v1/promotion/level',
    {
      schema: {
        ...tags,
        summary: 'Promociones por día: porcentaje semanal en promoción por eCommerce y clasificación',
        body: promotionBody,
        response: { 200: promotionItemsResponse, ...errors },
      },
      ...guard,
    },
    (req) => levelAnswer(req, pool, req.body),
  );

  r.post(
    '/v1/promotion/duration',
    {
      schema: {
        ...tags,
        summary: 'Promociones por duración (una clasificación por llamada)',
        body: promotionOneClassBody,
        response: { 200: promotionItemsResponse, ...errors },
      },
      ...guard,
    },
    (req) => durationAnswer(req, pool, req.body),
  );

  r.post(
    '/v1/promotion/type',
    {
      schema: {
        ...tags,
        summary: 'Promociones por formato: oferta exclusiva, por cantidad y oferta',
        body: promotionBody,
        response: { 200: promotionItemsResponse, ...errors },
      },
      ...guard,
    },
    (req) => typeAnswer(req, pool, req.body),
  );

  r.post(
    '/v1/promotion/range',
    {
      schema: {
        ...tags,
        summary: 'Promociones por rango de precios (una clasificación por llamada, range 4)',
        body: promotionOneClassBody,
        response: { 200: promotionRangeResponse, ...errors },
      },
      ...guard,
    },
    (req) => rangeAnswer(req, pool, req.body),
  );

  r.post(
    '/v1/promotion/scatter-plot',
    {
      schema: {
        ...tags,
        summary: 'Dispersión: precio de promoción contra cantidad de productos por eCommerce',
        body: scatterBody,
        response: { 200: promotionScatterResponse, ...errors },
      },
      ...guard,
    },
    (req) => scatterAnswer(req, pool, req.body),
  );

  r.post(
    '/v1/promotion/prices',
    {
      schema: {
        ...tags,
        summary: 'Productos detrás de un porcentaje (promotion = level, duration o type)',
        body: promotionPricesBody,
        response: { 200: promotionPricesResponse, ...errors },
      },
      ...guard,
    },
    (req) => pricesAnswer(req, pool, req.body),
  );

  r.post(
    '/v1/promotion/download',
    {
      schema: {
        ...tags,
        summary: 'Descarga XLSX de una tabla de promociones (el cuerpo de la llamada y promotion)',
        body: promotionDownloadBody,
        response: errors,
      },
      ...guard,
    },
    async (req, reply) => {
      const { promotion, ...rest } = req.body;
      const perClass = async <T>(fn: (cls: number) => Promise<T>): Promise<T[]> => {
        const f = parseOr400(promotionBody, rest);
        if (!f.classificationsIds?.length)
          throw badRequest('classificationsIds: Clasificaciones es un campo requerido', 'classificationsIds');
        const out: T[] = [];
        for (const cls of f.classificationsIds) out.push(await fn(cls));
        return out;
      };
      let sheet: Sheet;
      switch (promotion) {
        case 'level':
          sheet = levelSheet(await levelAnswer(req, pool, parseOr400(promotionBody, rest)));
          break;
        case 'type':
          sheet = typeSheet(await typeAnswer(req, pool, parseOr400(promotionBody, rest)));
          break;
        case 'duration':
          sheet = durationSheet(
            await perClass((cls) =>
              durationAnswer(req, pool, parseOr400(promotionOneClassBody, { ...rest, classification: cls })),
            ),
          );
          break;
        case 'range':
          sheet = rangeSheet(
            await perClass((cls) =>
              rangeAnswer(req, pool, parseOr400(promotionOneClassBody, { ...rest, classification: cls })),
            ),
          );
          break;
        case 'scatter-plot':
          sheet = scatterSheet(await scatterAnswer(req, pool, parseOr400(scatterBody, rest)));
          break;
        default:
          sheet = pricesSheet(
            await pricesAnswer(
              req,
              pool,
              // the drill-down's own `promotion` (level, duration, type) travels as `drilldown`
              parseOr400(promotionPricesBody, { ...rest, promotion: rest.drilldown, limit: 500, offset: 0 }),
            ),
          );
      }
      const file = await sheetXlsx(sheet);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="promociones_${promotion}.xlsx"`)
        .send(file as never);
    },
  );
}
