import {
  apiErrorSchema,
  isResponseRecord,
  type ModuleCode,
  type RouteDef,
  type RouteParsed,
  type RouteResponse,
  routeModules,
} from '@vigia/domain';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
  preValidationHookHandler,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** A handler's request: the route's params, query and body as parsed by its schemas. */
export type RouteRequest<D extends RouteDef> = FastifyRequest & RouteParsed<D>;
/** What a handler answers: the 200 body (before serialisation) or the reply it sent itself. */
export type RouteHandler<D extends RouteDef> = (
  req: RouteRequest<D>,
  reply: FastifyReply,
) => Promise<z.input<z.ZodType<RouteResponse<D>>> | FastifyReply> | RouteResponse<D> | FastifyReply;

export interface RouteExtras {
  /** Fastify route config (e.g. `{ rateLimit }`). */
  config?: Record<string, unknown>;
  /** Extra onRequest hooks (after the JWT check when the route has one): e.g. an API-key check. */
  onRequest?: onRequestHookHandler[];
  /** Largest request body of this route (bytes), when it is not the app's. */
  bodyLimit?: number;
  /** Extra preHandlers, run after authentication, the module check and validation. */
  preHandler?: preHandlerHookHandler[];
}

/**
 * The answers a route declares: its own, plus the error shape of 400 (input), 401/403 (signed-in routes),
 * 429 (rate-limited routes: every signed-in route, per user, and the sign-in routes; the others never
 * send it), 500 and 503 (database unavailable).
 */
function responsesOf(def: RouteDef, rateLimited: boolean): Record<number, z.ZodType> {
  const out: Record<number, z.ZodType> = {};
  if (def.params || def.query || def.body) out[400] = apiErrorSchema;
  if (def.auth) {
    out[401] = apiErrorSchema;
    out[403] = apiErrorSchema;
  }
  if (rateLimited || def.auth) out[429] = apiErrorSchema;
  out[500] = apiErrorSchema;
  out[503] = apiErrorSchema; // the database is unreachable for a moment (Retry-After; docs/operations.md)
  const own = isResponseRecord(def.response) ? def.response : { 200: def.response };
  for (const [status, schema] of Object.entries(own)) if (schema) out[Number(status)] = schema;
  return out;
}

/**
 * Registers one route of the table (packages/domain/src/routes) with its handler. One order for every
 * route: authentication (onRequest — before the body is read or validated), then the module the def
 * names, then the user's rate limit (plugins/user-rate-limit.ts), then validation of params/query/body,
 * then the handler. The schemas, operationId and
 * security of the OpenAPI document come from the def.
 */
export function registerRoute<D extends RouteDef>(
  app: FastifyInstance,
  def: D,
  handler: RouteHandler<D>,
  extras: RouteExtras = {},
): void {
  const onRequest: onRequestHookHandler[] = [];
  const preValidation: preValidationHookHandler[] = [];
  if (def.auth !== false) {
    onRequest.push(app.authenticate as onRequestHookHandler);
    const modules = routeModules(def);
    if (modules.length) onRequest.push(app.requireModule(...(modules as [ModuleCode, ...ModuleCode[]])));
    preValidation.push(app.limitUser(def) as preValidationHookHandler);
  }
  if (extras.onRequest) onRequest.push(...extras.onRequest);
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.path,
    schema: {
      operationId: def.id,
      tags: [def.id.split('.')[0]],
      ...(def.summary ? { summary: def.summary } : {}),
      description: def.description ?? def.summary ?? def.id,
      ...(def.auth !== false ? { security: [{ jwt: [] }] } : { security: [] }),
      ...(def.produces ? { produces: [def.produces] } : {}),
      ...(def.params ? { params: def.params } : {}),
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: def.body } : {}),
      response: responsesOf(def, Boolean(extras.config?.rateLimit)),
    },
    onRequest,
    ...(preValidation.length ? { preValidation } : {}),
    ...(extras.preHandler ? { preHandler: extras.preHandler } : {}),
    ...(extras.config ? { config: extras.config } : {}),
    ...(extras.bodyLimit ? { bodyLimit: extras.bodyLimit } : {}),
    handler: handler as never,
  });
}
