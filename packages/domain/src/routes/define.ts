import type { z } from 'zod';
import type { ModuleCode } from '../constants.js';

// The API's route table (issue 11): every endpoint's method, path, module and schemas, in one place.
// The server registers its routes from it (apps/server/src/lib/route.ts registerRoute), the web calls
// through it (apps/web/src/lib/api-client.ts callRoute), the OpenAPI document and the route-walk test
// read it. A feature adds one file in this folder and one line in index.ts.

export const HTTP_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Answers by status: `200` is the success body; other statuses document error bodies. */
export type ResponseSchemas = { 200: z.ZodType } & Partial<Record<number, z.ZodType>>;

export interface RouteDef {
  /** operationId: `<feature>.<name>`, e.g. `pricing.dpmKpi` */
  id: string;
  method: HttpMethod;
  /** Fastify path (`:name` for path parameters) */
  path: string;
  /** Module the license must grant; several = any of them grants; null = any signed-in user. */
  module: ModuleCode | readonly [ModuleCode, ...ModuleCode[]] | null;
  /** false only for public routes (login, password reset, app-config, media, health). */
  auth: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The 200 body, or answers by status where a route needs more. */
  response: z.ZodType | ResponseSchemas;
  /** Media type of the 200 answer when it is not JSON (e.g. image/svg+xml). */
  produces?: string;
  summary?: string;
  description?: string;
}

/** Declares one route (identity at run time; keeps the literal types for the server and the client). */
export function defineRoute<const D extends RouteDef>(def: D): D {
  return def;
}

/** The success (200) schema of a route. */
export function successSchema<D extends RouteDef>(def: D): SuccessSchema<D> {
  const r = def.response as z.ZodType | ResponseSchemas;
  return (isResponseRecord(r) ? r[200] : r) as SuccessSchema<D>;
}

export function isResponseRecord(r: z.ZodType | ResponseSchemas): r is ResponseSchemas {
  return !('_zod' in r);
}

export type SuccessSchema<D extends RouteDef> = D['response'] extends { 200: infer S extends z.ZodType }
  ? S
  : D['response'] extends z.ZodType
    ? D['response']
    : never;

/** The modules of a def as a list (empty for null). */
export function routeModules(def: Pick<RouteDef, 'module'>): ModuleCode[] {
  if (def.module === null) return [];
  return typeof def.module === 'string' ? [def.module] : [...def.module];
}

type Schema<S> = S extends z.ZodType ? S : never;
/** What a client sends (before coercion) for each part of a route. */
export type RouteInput<D extends RouteDef> = (D['params'] extends z.ZodType
  ? { params: z.input<Schema<D['params']>> }
  : { params?: undefined }) &
  (D['query'] extends z.ZodType ? { query: z.input<Schema<D['query']>> } : { query?: undefined }) &
  (D['body'] extends z.ZodType ? { body: z.input<Schema<D['body']>> } : { body?: undefined });
/** What a handler receives for each part of a route (after parsing). */
export type RouteParsed<D extends RouteDef> = {
  params: D['params'] extends z.ZodType ? z.output<Schema<D['params']>> : unknown;
  query: D['query'] extends z.ZodType ? z.output<Schema<D['query']>> : unknown;
  body: D['body'] extends z.ZodType ? z.output<Schema<D['body']>> : unknown;
};
/** The parsed success answer of a route. */
export type RouteResponse<D extends RouteDef> = z.output<SuccessSchema<D>>;

/** The path of a route with its `:name` parameters filled in (URI-encoded). */
export function routePath(def: Pick<RouteDef, 'path'>, params?: Record<string, unknown>): string {
  return def.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null) throw new Error(`${def.path}: falta el parámetro ${name}`);
    return encodeURIComponent(String(v));
  });
}
