import {
  promotionsRoutes as defs,
  PROMOTION_FILE,
  promotionBody,
  promotionOneClassBody,
  promotionPricesBody,
  scatterBody,
} from '@vigia/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type {} from '../../app.js'; // FastifyInstance.deps
import { badRequest } from '../../lib/errors.js';
import { registerRoute } from '../../lib/route.js';
import { filterNames, namesPart, xlsxFileName } from '../../lib/workbook.js';
import { download, moduleBeside, task, XLSX_TYPE } from '../../platform/pool/index.js';
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
import { promotionsReadModels } from './model.js';
import './rollup.js';

// Promotions API (seed 001 §7 "Promotions"; route table packages/domain/src/routes/promotions.ts;
// contract packages/domain/src/promotions.ts; definitions docs/metrics.md "Promotions"). Every endpoint
// needs the module 'promotions' (registerRoute) and is scoped to the caller's license; they read the
// promotions read model (promo_daily, promo_spans and the roll-ups; range and scatter plot its
// in-memory copy, model.ts), never price history.

// The memoised answers (answers.ts) are the same objects while valid: each is checked against the
// route's response schema and serialised once (what the route's serializer does on every reply),
// then sent as that JSON text.
/** The XLSX downloads are written in the platform's export pool, off the event loop (issue 26 finding 3). */
const sheetXlsxTask = task(moduleBeside(import.meta.url, './download'), 'sheetXlsx', sheetXlsx);

const jsonOf = new WeakMap<object, string>();

/** Rows of a drill-down file at most; beyond, the sheet's note says "primeras N de M". */
const DRILL_FILE_MAX = 20_000;

function sendJson(reply: FastifyReply, schema: z.ZodType, answer: object): FastifyReply {
  let json = jsonOf.get(answer);
  if (json === undefined) {
    json = JSON.stringify(z.encode(schema, answer));
    jsonOf.set(answer, json);
  }
  return reply.type('application/json; charset=utf-8').send(json);
}

/** First schema issue as a 400 naming its field (the download validates its body per kind). */
function parseOr400<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = String(issue.path[0] ?? 'body');
  throw badRequest(`${field}: ${issue.message}`, field);
}

/** The screens' names in the files they download (issue 31 item 9). */
const KIND_FILE = { exclusive: 'exclusivo', quantity: 'por-cantidad', sale: 'oferta' } as const;

/**
 * `promociones_por_dia_Hogar-Total_2026-10-05_2026-10-11.xlsx`: the screen, the classifications asked
 * (a drill-down: its seller, classification and week / duration / format), the window.
 */
async function downloadName(
  pool: Parameters<typeof filterNames>[0],
  b: z.output<typeof defs.download.body>,
): Promise<string> {
  if (b.promotion === 'prices') {
    const n = await filterNames(pool, {
      classifications: b.classification ? [b.classification] : [],
      sellers: b.seller_id ? [b.seller_id] : [],
    });
    const detail =
      // level: the week is the file's window, its dates say it
      b.drilldown === 'duration' && b.day
        ? `${b.day}-dias`
        : b.drilldown === 'type' && b.kind
          ? KIND_FILE[b.kind]
          : null;
    return xlsxFileName(
      PROMOTION_FILE.prices,
      [namesPart(n.sellers), namesPart(n.classifications), detail],
      b.from_date,
      b.to_date,
    );
  }
  const n = await filterNames(pool, { classifications: b.classificationsIds ?? [] });
  return xlsxFileName(PROMOTION_FILE[b.promotion], [namesPart(n.classifications)], b.from_date, b.to_date);
}

export default async function promotionsRoutes(app: FastifyInstance) {
  const { pool } = app.deps.db;

  // Every seller's promotions in memory (model.ts), loaded after start-up and kept current by the change
  // signal (the read-model holder).
  promotionsReadModels(pool);

  registerRoute(app, defs.level, async (req, reply) =>
    sendJson(reply, defs.level.response, await levelAnswer(req, pool, req.body)),
  );
  registerRoute(app, defs.duration, async (req, reply) =>
    sendJson(reply, defs.duration.response, await durationAnswer(req, pool, req.body)),
  );
  registerRoute(app, defs.type, async (req, reply) =>
    sendJson(reply, defs.type.response, await typeAnswer(req, pool, req.body)),
  );
  registerRoute(app, defs.range, async (req, reply) =>
    sendJson(reply, defs.range.response, await rangeAnswer(req, pool, req.body)),
  );
  registerRoute(app, defs.scatterPlot, async (req, reply) =>
    sendJson(reply, defs.scatterPlot.response, await scatterAnswer(req, pool, req.body)),
  );
  registerRoute(app, defs.prices, async (req, reply) =>
    sendJson(reply, defs.prices.response, await pricesAnswer(req, pool, req.body)),
  );

  registerRoute(app, defs.download, (req, reply) =>
    download(reply, async (write) => {
      const { promotion, ...rest } = req.body;
      let sheet: Sheet;
      // the window the answers used (the default one when the body names none): the file's dates
      let win: { from_date: string; to_date: string } | undefined;
      const seen = <T extends { from_date: string; to_date: string }>(a: T): T => {
        win ??= a;
        return a;
      };
      // a one-classification answer asked for each classification of the body, in order
      const perClass = async <T extends { from_date: string; to_date: string }>(
        answer: (r: typeof req, p: typeof pool, body: z.infer<typeof promotionOneClassBody>) => Promise<T>,
      ): Promise<T[]> => {
        const f = parseOr400(promotionBody, rest);
        if (!f.classificationsIds?.length)
          throw badRequest('classificationsIds: Clasificaciones es un campo requerido', 'classificationsIds');
        const out: T[] = [];
        for (const cls of f.classificationsIds)
          out.push(
            seen(
              await answer(req, pool, parseOr400(promotionOneClassBody, { ...rest, classification: cls })),
            ),
          );
        return out;
      };
      switch (promotion) {
        case 'level':
          sheet = levelSheet(seen(await levelAnswer(req, pool, parseOr400(promotionBody, rest))));
          break;
        case 'type':
          sheet = typeSheet(seen(await typeAnswer(req, pool, parseOr400(promotionBody, rest))));
          break;
        case 'duration':
          sheet = durationSheet(await perClass(durationAnswer));
          break;
        case 'range':
          sheet = rangeSheet(await perClass(rangeAnswer));
          break;
        case 'scatter-plot':
          sheet = scatterSheet(seen(await scatterAnswer(req, pool, parseOr400(scatterBody, rest))));
          break;
        default: {
          // every promotion the dialog counts, page after page (issue 31 item 3: the file once stopped
          // at the first 500 while the dialog said 695); past DRILL_FILE_MAX rows the sheet says so
          // the drill-down's own `promotion` (level, duration, type) travels as `drilldown`
          const page = (offset: number) =>
            pricesAnswer(
              req,
              pool,
              parseOr400(promotionPricesBody, { ...rest, promotion: rest.drilldown, limit: 500, offset }),
            );
          const first = seen(await page(0));
          const items = [...first.items];
          while (items.length < Math.min(first.total, DRILL_FILE_MAX)) {
            const next = await page(items.length);
            if (!next.items.length) break;
            items.push(...next.items);
          }
          sheet = pricesSheet({ ...first, items: items.slice(0, DRILL_FILE_MAX) });
        }
      }
      return {
        type: XLSX_TYPE,
        name: await downloadName(pool, { ...req.body, ...win }),
        body: await write(sheetXlsxTask, sheet),
      };
    }),
  );
}
