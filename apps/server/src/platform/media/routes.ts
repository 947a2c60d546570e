import { createHash } from 'node:crypto';
import { mediaRoutes as defs } from '@vigia/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '../../app.js'; // FastifyInstance.deps
import type { Queryable } from '../../db/database.js';
import { registerRoute } from '../../lib/route.js';
import { knownPicture } from './known.js';
import { renderProductSvg } from './svg.js';

// Product pictures (platform/media/svg.ts): GET /media/products/:key.svg and /media/reference/:key.svg.
// Public (no token: <img> tags cannot send one) and immutable for a key, so browsers and proxies cache
// them for a year. A key that is not a media key, or that no listing names (known.ts), answers the
// usual JSON 404.

const CACHE = 'public, max-age=31536000, immutable';

async function send(
  req: FastifyRequest,
  reply: FastifyReply,
  file: string,
  reference: boolean,
  pool: Queryable,
) {
  const key = file.endsWith('.svg') ? file.slice(0, -4) : '';
  // drawn only for a picture a listing names (known.ts): not for any name that fits the pattern
  const url = `/media/${reference ? 'reference' : 'products'}/${encodeURIComponent(file)}`;
  const svg = key && (await knownPicture(pool, url)) ? renderProductSvg(key, { reference }) : null;
  if (!svg) {
    return reply
      .code(404)
      .send({ detail: 'No se ha encontrado el recurso solicitado.', code: 'not_found', requestId: req.id });
  }
  const etag = `"${createHash('sha1').update(svg).digest('base64url').slice(0, 20)}"`;
  reply.header('cache-control', CACHE).header('etag', etag);
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type('image/svg+xml; charset=utf-8').send(svg);
}

export default async function mediaRoutes(app: FastifyInstance) {
  const { pool } = app.deps.db;
  registerRoute(app, defs.product, (req, reply) => send(req, reply, req.params.file, false, pool));
  registerRoute(app, defs.reference, (req, reply) => send(req, reply, req.params.file, true, pool));
}
