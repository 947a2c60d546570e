import { createHash } from 'node:crypto';
import {
  classifySimilarity,
  IMAGE_CLASS_LABELS,
  IMAGE_VERIFICATION,
  IMAGE_VERIFICATION_FILE,
  IMAGE_XLSX_MAX_ROWS,
  routePath,
  routes,
} from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type {} from '../../app.js'; // FastifyInstance.deps
import { registerRoute } from '../../lib/route.js';
import { principalOf, requesterOf } from '../../lib/scope.js';
import { filterNames, namesPart, xlsxFileName } from '../../lib/workbook.js';
import { knownPicture } from '../../platform/media/index.js';
import { download, moduleBeside, task, XLSX_TYPE } from '../../platform/pool/index.js';
import { imageItemsXlsx } from './download.js';
import { demoPicture } from './pictures.js';
import { upsertReview } from './queries.js';
import { findCheck, findItems, findKpis } from './service.js';

// Image verification (issue 15; contract packages/domain/src/image-verification.ts; measure and classes
// docs/metrics.md "Image verification"). Module image_verification, scoped to the caller's license.

const defs = routes.imageVerification;
const NOT_FOUND = { detail: 'No se ha encontrado el recurso solicitado.', code: 'not_found' };
const XLSX_PATH = defs.itemsXlsx.path;
/** The XLSX is written in the platform's export pool, off the event loop (issue 26 finding 3). */
const itemsXlsxTask = task(moduleBeside(import.meta.url, './download'), 'imageItemsXlsx', imageItemsXlsx);

export default async function imageVerificationRoutes(app: FastifyInstance) {
  const { pool } = app.deps.db;
  const dataDir = app.deps.config.DATA_DIR;

  // A download link cannot send a header: the XLSX takes the token as `authToken` in the query and it is
  // checked exactly like the header (it becomes the header before authentication). Never logged: the
  // logger's request serializer redacts it (lib/redact.ts).
  app.addHook('onRequest', async (req) => {
    if (req.headers.authorization || req.url.split('?')[0] !== XLSX_PATH) return;
    const token = new URL(req.url, 'http://x').searchParams.get('authToken');
    if (token) req.headers.authorization = `JWT ${token}`;
  });

  registerRoute(app, defs.items, (req) => findItems(pool, requesterOf(req), req.query));
  registerRoute(app, defs.kpis, (req) => findKpis(pool, requesterOf(req), req.query));

  registerRoute(app, defs.itemsXlsx, (req, reply) =>
    download(reply, async (write) => {
      const res = await findItems(pool, requesterOf(req), {
        ...req.query,
        limit: IMAGE_XLSX_MAX_ROWS,
        skip: 0,
      });
      const q = req.query;
      const n = await filterNames(pool, {
        classifications: q.classificationsIds ?? [],
        sellers: q.sellersIds ?? [],
      });
      const name = xlsxFileName(
        IMAGE_VERIFICATION_FILE,
        [
          q.imageClass ? IMAGE_CLASS_LABELS[q.imageClass] : null,
          namesPart(n.sellers),
          namesPart(n.classifications),
        ],
        res.comparisonDate ?? null,
      );
      return { type: XLSX_TYPE, name, body: await write(itemsXlsxTask, res.items) };
    }),
  );

  registerRoute(app, defs.item, async (req, reply) => {
    const check = await findCheck(pool, requesterOf(req), req.query.id);
    return check ?? reply.code(404).send({ ...NOT_FOUND, requestId: req.id });
  });

  registerRoute(app, defs.review, async (req, reply) => {
    const who = requesterOf(req);
    const check = await findCheck(pool, who, req.body.id);
    if (!check) return reply.code(404).send({ ...NOT_FOUND, requestId: req.id });
    const cls = classifySimilarity(check.similarity, IMAGE_VERIFICATION.correctThreshold);
    if (cls !== 'forReview' && req.body.decision !== null) {
      return reply.code(409).send({
        detail: 'Solo una imagen para revisión admite una decisión',
        code: 'not_for_review',
        requestId: req.id,
      });
    }
    const principal = principalOf(req);
    await upsertReview(pool, {
      orgId: principal.orgId,
      productId: check.productId,
      imageUrl: check.imageUrl,
      decision: req.body.decision,
      userId: principal.userId,
    });
    return (
      (await findCheck(pool, who, req.body.id)) ?? reply.code(404).send({ ...NOT_FOUND, requestId: req.id })
    );
  });

  // The demo market's raster pictures: public (an <img> sends no token), immutable per name.
  // Drawn (and cached) only for a picture a listing or a reference names: not for any made-up name.
  registerRoute(app, defs.picture, async (req, reply) => {
    const known = await knownPicture(pool, routePath(defs.picture, { file: req.params.file }));
    const pic = known ? await demoPicture(req.params.file, dataDir) : null;
    if (!pic) return reply.code(404).send({ ...NOT_FOUND, requestId: req.id });
    const etag = `"${createHash('sha1').update(pic.bytes).digest('base64url').slice(0, 20)}"`;
    reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag);
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type(pic.contentType).send(pic.bytes);
  });
}
