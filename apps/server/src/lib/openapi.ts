import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { APP_VERSION, routeList } from '@vigia/domain';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

// The published API description (/docs/json), generated from the route table's schemas. `npm run
// lint:api` checks it with Spectral and the OWASP API ruleset (.spectral.mjs).

type Json = Record<string, unknown>;

/** int32 when the declared range fits in 32 bits, else int64 (the OWASP lint asks every integer for one). */
function addIntegerFormats(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) addIntegerFormats(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.type === 'integer' && o.format === undefined) {
    const min = typeof o.minimum === 'number' ? o.minimum : Number.NEGATIVE_INFINITY;
    const max = typeof o.maximum === 'number' ? o.maximum : Number.POSITIVE_INFINITY;
    o.format = min >= -(2 ** 31) && max <= 2 ** 31 - 1 ? 'int32' : 'int64';
  }
  for (const v of Object.values(o)) addIntegerFormats(v);
}

/** Drops component schemas nothing refers to (zod registers an input twin of each output schema). */
function dropUnusedSchemas(doc: Json): void {
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Json;
  const refsIn = (v: unknown) =>
    [...JSON.stringify(v).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  const used = new Set(refsIn(doc.paths));
  for (let grew = true; grew; ) {
    grew = false;
    for (const name of [...used])
      for (const ref of refsIn(schemas[name]))
        if (!used.has(ref)) {
          used.add(ref);
          grew = true;
        }
  }
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': {
    description: 'Peticiones permitidas en la ventana',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 1_000_000 },
  },
  'X-RateLimit-Remaining': {
    description: 'Peticiones que quedan en la ventana',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 1_000_000 },
  },
  'X-RateLimit-Reset': {
    description: 'Segundos hasta que la ventana se renueva',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 86_400 },
  },
};
const RETRY_AFTER = {
  'Retry-After': {
    description: 'Segundos que esperar antes de reintentar',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 86_400 },
  },
};

/**
 * The rate-limited operations (the ones that declare a 429) send the rate-limit headers on their 2xx and
 * 4xx answers and Retry-After on the 429 (@fastify/rate-limit's headers); the document says so.
 */
function addRateLimitHeaders(paths: Json): void {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item as Json)) {
      const responses = (op as Json).responses as Record<string, Json> | undefined;
      if (!responses?.['429']) continue;
      for (const [status, response] of Object.entries(responses)) {
        if (/^[24]/.test(status)) response.headers = { ...(response.headers as Json), ...RATE_LIMIT_HEADERS };
        if (status === '429') response.headers = { ...(response.headers as Json), ...RETRY_AFTER };
      }
    }
  }
}

const FEATURES = [...new Set(routeList.map((d) => d.id.split('.')[0]))];

export const swaggerOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    info: { title: 'Vigía API', description: 'API de inteligencia de precios', version: APP_VERSION },
    // One process serves the web app and the API (production or local), for its own users only.
    servers: [
      { url: '/', description: 'Este servidor (production o local)', 'x-internal': false } as { url: string },
    ],
    tags: FEATURES.map((name) => ({ name })),
    components: { securitySchemes: { jwt: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
  },
  transform: jsonSchemaTransform,
  transformObject: (doc) => {
    // jsonSchemaTransformObject adds the schemas registered with an id (the recursive trees) as
    // components, so that their $refs resolve.
    const out = jsonSchemaTransformObject(doc) as Json;
    addRateLimitHeaders((out.paths ?? {}) as Json);
    dropUnusedSchemas(out);
    addIntegerFormats(out);
    return out as ReturnType<typeof jsonSchemaTransformObject>;
  },
};
