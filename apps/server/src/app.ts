import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { APP_VERSION, systemRoutes } from '@vigia/domain';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { DATABASE_RETRY_AFTER_SECONDS } from './lib/errors.js';
import { swaggerOptions } from './lib/openapi.js';
import { pgRateLimitStore } from './lib/pg-rate-limit-store.js';
import { redactUrl } from './lib/redact.js';
import { registerRoute } from './lib/route.js';
import './modules/rollups.js'; // every feature's subscriptions to ingest (roll-ups, match-change hooks), in its order
import { jobModules, modules } from './modules/index.js';
import exporterPlugin from './platform/exporter/plugin.js';
import jobsPlugin from './platform/jobs/plugin.js';
import mailPlugin from './platform/mail/plugin.js';
import { watchMemory } from './platform/memory.js';
import { readModelsOf } from './platform/read-model.js';
import authPlugin from './plugins/auth.js';
import { registerErrorHandling } from './plugins/errors.js';
import userRateLimitPlugin from './plugins/user-rate-limit.js';

/** What a process does (docs/operations.md): HTTP and in-memory models, jobs and schedules, or both. */
export type Role = 'api' | 'worker' | 'all';

export interface AppDeps {
  config: Config;
  db: Database;
  /** Default: config.VIGIA_ROLE ('all'). */
  role?: Role;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));
/** Largest request body accepted (bytes). */
export const BODY_LIMIT = 512 * 1024;
const API_PREFIX = /^\/(v1|v2|api|health|docs|socket\.io|media)(\/|$)/;
const APP_PATH = /^\/app(\/|$)/;

/**
 * The Content-Security-Policy of every answer. Scripts only from this server (Vite's built modules, no
 * inline script); styles from this server and inline, because MUI's emotion writes <style> elements at
 * run time (a nonce would need the HTML rendered per request — the app is static files); images from
 * this server, data: and blob: URLs (drawn charts, downloads) and https: (a seller's own picture URL);
 * connections (fetch, socket.io's websocket) to this server only; no plugins, no framing, no <base>.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
};

/**
 * Builds the application (no listening): used by main.ts, the API tests and the benchmarks. The role
 * 'worker' gets the platform (jobs, mail, the exporter channel for its events) and the features' jobs,
 * no routes but /health and no in-memory model; 'api' gets everything but running jobs and schedules.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const role = deps.role ?? deps.config.VIGIA_ROLE;
  const app = Fastify({
    logger:
      deps.config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: deps.config.LOG_LEVEL,
            // as pino's default, with secrets in the query (authToken, token) redacted (lib/redact.ts)
            serializers: {
              req: (req) => ({
                method: req.method,
                url: redactUrl(req.url),
                host: req.host,
                remoteAddress: req.ip,
                remotePort: req.socket?.remotePort,
              }),
            },
          },
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    // The largest legitimate body (a search with 100,000 characters of SKUs) is far below this; a
    // larger one is refused (413) from its Content-Length before it is read.
    bodyLimit: BODY_LIMIT,
    trustProxy: false,
    // maxParamLength: a long path parameter reaches authentication and validation (401, then 400 naming
    // it) instead of the router's bare 414 (ids in paths: Operaciones' /v1/operations/sources/:id …).
    routerOptions: { ignoreTrailingSlash: false, ignoreDuplicateSlashes: true, maxParamLength: 16_384 },
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('deps', deps);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // The requests being answered (every route's, added before any is registered), for the read models'
  // warm-ups to give way to them (platform/read-model.ts ReadModels.pause).
  const readModels = readModelsOf(deps.db.pool);
  const counted = new WeakSet<object>();
  const ended = (req: object) => {
    if (counted.delete(req)) readModels.requestEnded();
  };
  app.addHook('onRequest', async (req) => {
    counted.add(req);
    readModels.requestStarted();
  });
  app.addHook('onResponse', async (req) => ended(req));
  app.addHook('onRequestAbort', async (req) => ended(req));

  // Security headers on every answer (issue 26, finding 10; docs/architecture.md "Security headers").
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: 'deny' },
    // the app opens no cross-origin windows or resources that need these relaxed
    crossOriginEmbedderPolicy: false,
    // HTTPS is the proxy's concern (docs/operations.md): no HSTS from a server that may run on plain HTTP
    strictTransportSecurity: false,
  });
  if (role !== 'worker') {
    // route limits (the sign-in routes) counted in PostgreSQL: one budget for every API process
    await app.register(fastifyRateLimit, { global: false, store: pgRateLimitStore(deps.db.pool) });
    await app.register(fastifySwagger, swaggerOptions);
    // its own CSP on its pages (hashes of its inline scripts), in place of the app's
    await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: true });
    await app.register(authPlugin, { pool: deps.db.pool, secret: deps.config.JWT_SECRET });
    await app.register(userRateLimitPlugin, {
      perMinute: deps.config.USER_RATE_LIMIT_PER_MINUTE,
      pool: deps.db.pool,
    });
  }

  // Readiness: 200 while the database answers; 503 (database "down", Retry-After) while it does not.
  registerRoute(app, systemRoutes.health, async (_req, reply) => {
    const base = { version: APP_VERSION, database: deps.db.kind };
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        deps.db.pool.query('select 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout exceeded when trying to connect')), 3000);
        }),
      ]);
      return { status: 'ok' as const, ...base, databaseStatus: 'up' as const };
    } catch {
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ status: 'unavailable' as const, ...base, databaseStatus: 'down' as const });
    } finally {
      clearTimeout(timer);
    }
  });

  // The platform: the job queue (runs jobs in 'worker' and 'all'), mail, the socket.io channel.
  await app.register(jobsPlugin, { role });
  await app.register(mailPlugin);
  await app.register(exporterPlugin);
  for (const mod of jobModules) await app.register(mod);
  if (role === 'worker') return app;

  for (const mod of modules) await app.register(mod);

  // The read models the features registered (platform/read-model.ts): the change signal is listened to
  // and the warm-ups start once the app is ready; both stop when it closes.
  app.addHook('onReady', async () => {
    await readModels.start(app.log);
  });
  app.addHook('onClose', async () => {
    await readModels.close();
  });
  // The models' dead arrays freed when the warm-ups end and whenever the resident size passes the soft
  // limit (platform/memory.ts).
  const memory = watchMemory({
    softLimitBytes: deps.config.MEMORY_SOFT_LIMIT_MB * 2 ** 20,
    // (a second without requests: not the instant between two requests of one user's screen)
    idle: () => readModels.quietFor() >= 1000,
    onCollect: ({ reason, before, after, ms }) =>
      app.log.info(
        {
          reason,
          beforeMiB: Math.round(before / 2 ** 20),
          afterMiB: Math.round(after / 2 ** 20),
          ms: Math.round(ms),
        },
        'memory: full collection',
      ),
  });
  void readModels.warmUpsDone.then(() => memory.collectWhenIdle('warm-ups done'));
  app.addHook('onClose', async () => memory.stop());

  // The built web app at /, with SPA fallback for every non-API path.
  const webDist = deps.config.WEB_DIST ?? DEFAULT_WEB_DIST;
  const hasWeb = existsSync(`${webDist}/index.html`);
  if (hasWeb) {
    // wildcard: files are looked up per request, so a rebuilt web app is served without a restart.
    await app.register(fastifyStatic, { root: webDist, wildcard: true, index: false, maxAge: '1h' });
    app.get('/', { schema: { hide: true } }, (_req, reply) =>
      reply.header('cache-control', 'no-cache').sendFile('index.html'),
    );
  }
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    // A missing asset is a 404, not the app; a path under the app's own routes (/app/…, e.g. a shared
    // link /app/product/3320.5 or /app/dpm-by-brand.xlsx) always gets the app, which shows its not-found view.
    const isFile = !APP_PATH.test(path) && /\.[a-z0-9]{1,8}$/i.test(path);
    if (!API_PREFIX.test(path) && !isFile && hasWeb && (req.method === 'GET' || req.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply
      .code(404)
      .send({ detail: 'No se ha encontrado el recurso solicitado.', code: 'not_found', requestId: req.id });
  });

  return app;
}
