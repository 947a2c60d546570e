import { createHash } from 'node:crypto';
import { mediaRoutes as defs } from '@vigia/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerRoute } from '../../lib/route.js';
import { renderProductSvg } from './svg.js';

// Product pictures (platform/media/svg.ts): GET /media/products/:key.svg and /media/reference/:key.svg.
// Public (no token: <img> tags cannot send one) and immutable for a key, so browsers and proxies cache
// them for a year. A key that is not a media key answers the usual JSON 404.

const CACHE = 'public, max-age=31536000, immutable';

function send(req: FastifyRequest, reply: FastifyReply, file: string, reference: boolean) {
  const key = file.endsWith('.svg') ? file.slice(0, -4) : '';
  const svg = key ? renderProductSvg(key, { reference }) : null;
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
  registerRoute(app, defs.product, (req, reply) => send(req, reply, req.params.file, false));
  registerRoute(app, defs.reference, (req, reply) => send(req, reply, req.params.file, true));
}
