import {
  apiErrorSchema,
  authRoutes,
  filtersToSearchParams,
  type HttpMethod,
  MODULE_HEADER,
  type ModuleCode,
  PIVOT_HEADER,
  type RouteDef,
  type RouteInput,
  type RouteResponse,
  refreshResponse,
  routeModules,
  routePath,
  STATUS_MESSAGES,
  statusMessage,
  successSchema,
} from '@vigia/domain';
import type { ZodType } from 'zod';
import { currentPath, currentPathAndQuery, navigateTo, reloadAt } from './navigation.js';
import { flash, notify } from './notifier.js';
import { PATHS, withReturnPath } from './paths.js';
import { clearSession, getToken, setToken } from './session.js';

// The one HTTP client of the SPA (ARCHITECTURE.md "Web"): sets `Authorization: JWT <token>` and the
// optional module and pivot headers, tries one token refresh on 401/403, maps statuses to the seed's
// Spanish messages (seed 000 §8) and reports failures in the snackbar.

/** A failed call: HTTP status (0 = no answer), the server's detail/code/field and the message to show. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly field?: string;
  readonly requestId?: string;

  constructor(init: { status: number; detail: string; code: string; field?: string; requestId?: string }) {
    super(messageFor(init.status, init.detail));
    this.name = 'ApiError';
    this.status = init.status;
    this.detail = init.detail;
    this.code = init.code;
    this.field = init.field;
    this.requestId = init.requestId;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Code of the error thrown when the session could not be refreshed (the user is already told). */
export const SESSION_EXPIRED = 'session_expired';

/**
 * True when the call failed because the session ended: the client has already shown the message and
 * is taking the user to /login, so screens should not add their own error message.
 */
export function isSessionExpired(error: unknown): boolean {
  return error instanceof ApiError && error.code === SESSION_EXPIRED;
}

/** The user-facing message of a status: the seed's table, else the server's own message. */
export function messageFor(status: number, detail?: string): string {
  if (status === 0) return STATUS_MESSAGES[500];
  return statusMessage(status, detail);
}

export type QueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number | boolean)[];
/** Query parameters; arrays are sent comma-separated (`sellers=1,2,3`), null/undefined are left out. */
export type Query = Record<string, QueryValue>;

export interface RequestOptions<T = unknown> {
  /** Sent as X-Module-Authorization (e.g. 'assortment', 'promotions', 'reports'). */
  module?: ModuleCode;
  /** Sent as X-Pivot-Id when given. */
  pivotId?: number | null;
  /** zod schema of the answer (from @vigia/domain); the result is parsed with it. */
  schema?: ZodType<T>;
  /** false for the calls made without a session (login, password recovery). Default true. */
  auth?: boolean;
  /** false when the caller shows its own message. 401/403 handling happens either way. Default true. */
  notify?: boolean;
  signal?: AbortSignal;
  /** Abort after this many ms (reported as 504). Default 120000. */
  timeoutMs?: number;
  headers?: Record<string, string>;
}

type Method = HttpMethod;

export interface ApiClientHooks {
  notify: (message: string) => void;
  /** The session could not be refreshed: it has been cleared; tell the user and go to /login. */
  onSessionExpired: () => void;
  /** A 403 that survived a refresh: tell the user, go to Home and reload. */
  onForbidden: () => void;
}

const defaultHooks: ApiClientHooks = {
  notify: (message) => notify(message, 'error'),
  onSessionExpired: () => {
    notify(STATUS_MESSAGES[401], 'warning');
    // Login brings the user back to the page the session expired on.
    navigateTo(withReturnPath(PATHS.login, currentPathAndQuery()), { replace: true });
  },
  onForbidden: () => {
    // Already at Home: reloading would loop; just say it.
    if (currentPath() === PATHS.home || currentPath() === '/app') {
      notify(STATUS_MESSAGES[403], 'warning');
      return;
    }
    flash(STATUS_MESSAGES[403], 'warning');
    reloadAt(PATHS.home);
  },
};
let hooks: ApiClientHooks = defaultHooks;

/** Replaces the client's side effects (tests; the app uses the defaults). */
export function configureApiClient(overrides: Partial<ApiClientHooks> | null): void {
  hooks = overrides ? { ...defaultHooks, ...overrides } : defaultHooks;
}

const REFRESH_PATH = authRoutes.refresh.path;
const DEFAULT_TIMEOUT_MS = 120_000;

export function buildUrl(path: string, query?: Query | URLSearchParams): string {
  if (!query) return path;
  const params = query instanceof URLSearchParams ? query : new URLSearchParams();
  if (!(query instanceof URLSearchParams)) {
    for (const [key, value] of Object.entries(query)) {
      if (value === null || value === undefined) continue;
      params.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

async function send(
  method: Method,
  url: string,
  body: unknown,
  opts: RequestOptions<unknown>,
  token: string | null,
): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  if (opts.auth !== false && token) headers.Authorization = `JWT ${token}`;
  if (opts.module) headers[MODULE_HEADER] = opts.module;
  if (opts.pivotId !== undefined && opts.pivotId !== null) headers[PIVOT_HEADER] = String(opts.pivotId);
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (typeof Blob !== 'undefined' && body instanceof Blob) {
    // a file sent as it is (feed uploads)
    headers['Content-Type'] = 'application/octet-stream';
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    return await fetch(url, { method, headers, body: payload, signal: controller.signal });
  } catch (error) {
    if (opts.signal?.aborted) throw error; // the caller cancelled (e.g. React Query): not a failure
    throw new ApiError(
      timedOut
        ? { status: 504, detail: 'timeout', code: 'timeout' }
        : { status: 0, detail: (error as Error)?.message ?? 'network', code: 'network_error' },
    );
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

async function errorFrom(res: Response): Promise<ApiError> {
  let detail = res.statusText || `HTTP ${res.status}`;
  let code = `http_${res.status}`;
  let field: string | undefined;
  let requestId = res.headers.get('x-request-id') ?? undefined;
  try {
    const text = await res.text();
    if (text) {
      const parsed = apiErrorSchema.safeParse(JSON.parse(text));
      if (parsed.success) {
        ({ detail, code, field } = parsed.data);
        requestId = parsed.data.requestId ?? requestId;
      }
    }
  } catch {
    // Not JSON: keep the status text.
  }
  return new ApiError({ status: res.status, detail, code, field, requestId });
}

let refreshing: Promise<string | null> | null = null;

/** One refresh at a time: concurrent 401s wait for the same attempt. Resolves the new token or null. */
export function refreshToken(): Promise<string | null> {
  refreshing ??= (async () => {
    const token = getToken();
    if (!token) return null;
    try {
      const res = await send('POST', REFRESH_PATH, { token }, { auth: false }, null);
      if (!res.ok) return null;
      const parsed = refreshResponse.safeParse(await res.json());
      if (!parsed.success || !parsed.data.token) return null;
      setToken(parsed.data.token);
      return parsed.data.token;
    } catch {
      return null;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function expired(error: ApiError): ApiError {
  return new ApiError({
    status: 401,
    detail: error.detail,
    code: SESSION_EXPIRED,
    requestId: error.requestId,
  });
}

let expiring = false;
function expireSession(): void {
  if (expiring) return;
  expiring = true;
  clearSession();
  try {
    hooks.onSessionExpired();
  } finally {
    // Let a later session expire again.
    setTimeout(() => {
      expiring = false;
    }, 1000);
  }
}

/**
 * Sends a request with the session's headers and the refresh/expiry/forbidden rules; resolves the
 * successful Response or throws ApiError (already reported in the snackbar unless notify: false).
 */
async function execute(
  method: Method,
  path: string,
  input: { body?: unknown; query?: Query | URLSearchParams },
  opts: RequestOptions<unknown>,
): Promise<Response> {
  const url = buildUrl(path, input.query);
  const auth = opts.auth !== false;
  const report = (error: ApiError): ApiError => {
    if (opts.notify !== false) hooks.notify(error.message);
    return error;
  };

  let res: Response;
  try {
    res = await send(method, url, input.body, opts, auth ? getToken() : null);
  } catch (error) {
    throw error instanceof ApiError ? report(error) : error;
  }
  if (res.ok) return res;
  if (!auth || (res.status !== 401 && res.status !== 403)) throw report(await errorFrom(res));

  // 401/403 on an authenticated call: one refresh, then one retry (seed 000 §4).
  const firstError = await errorFrom(res);
  const newToken = await refreshToken();
  if (!newToken) {
    expireSession();
    throw expired(firstError);
  }
  try {
    res = await send(method, url, input.body, opts, newToken);
  } catch (error) {
    throw error instanceof ApiError ? report(error) : error;
  }
  if (res.ok) return res;
  const error = await errorFrom(res);
  if (res.status === 401) {
    expireSession();
    throw expired(error);
  }
  if (res.status === 403) hooks.onForbidden();
  else report(error);
  throw error;
}

async function parseBody<T>(res: Response, schema?: ZodType<T>): Promise<T> {
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = text;
  if (text && (res.headers.get('content-type') ?? '').includes('json')) data = JSON.parse(text);
  if (!text) data = undefined;
  if (!schema) return data as T;
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  console.error('Respuesta inesperada del servidor', res.url, parsed.error.issues);
  throw new ApiError({ status: 0, detail: 'invalid_response', code: 'invalid_response' });
}

/** Any method and path; screens call `callRoute` with a def of the route table instead. */
export async function apiRequest<T = unknown>(
  method: Method,
  path: string,
  input: { body?: unknown; query?: Query | URLSearchParams } = {},
  opts: RequestOptions<T> = {},
): Promise<T> {
  const res = await execute(method, path, input, opts as RequestOptions<unknown>);
  try {
    return await parseBody(res, opts.schema);
  } catch (error) {
    if (error instanceof ApiError && opts.notify !== false) hooks.notify(error.message);
    throw error;
  }
}

/** Options of a call through the route table (the rest comes from the route's def). */
export type CallOptions = Pick<RequestOptions, 'pivotId' | 'signal' | 'notify' | 'timeoutMs' | 'headers'> & {
  /** For a route that several modules grant: the one to send (the caller's license has it). */
  module?: ModuleCode;
};

/** Method, URL, module header and session of a call to `def`. */
function requestOf<D extends RouteDef>(def: D, input: RouteInput<D>, opts: CallOptions) {
  const { params, query, body } = input as {
    params?: Record<string, unknown>;
    query?: unknown;
    body?: unknown;
  };
  const modules = routeModules(def);
  const module = opts.module && modules.includes(opts.module) ? opts.module : modules[0];
  return {
    path: routePath(def, params),
    // GET querystrings: lists as comma lists, empty values left out (the domain's wire format).
    query: query ? filtersToSearchParams(query as Record<string, unknown>) : undefined,
    body,
    opts: { ...opts, module, auth: def.auth !== false } satisfies RequestOptions,
  };
}

/**
 * Calls one route of the table (packages/domain/src/routes): builds its path and query, sends the
 * module header from `def.module` (and the session unless the route is public), and parses the answer
 * with the route's response schema.
 */
export function callRoute<D extends RouteDef>(
  def: D,
  input: RouteInput<D>,
  opts: CallOptions = {},
): Promise<RouteResponse<D>> {
  const r = requestOf(def, input, opts);
  return apiRequest(
    def.method,
    r.path,
    { body: r.body, query: r.query },
    {
      ...r.opts,
      schema: successSchema(def) as ZodType<RouteResponse<D>>,
    },
  );
}

/** File name from a Content-Disposition header, if any. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain ? plain[1].trim() : null;
}

/**
 * Downloads a file through the same auth/refresh rules and saves it in the browser.
 * `filename` is used unless the server names the file.
 */
export async function downloadRoute<D extends RouteDef>(
  def: D,
  input: RouteInput<D>,
  filename: string,
  opts: CallOptions = {},
): Promise<void> {
  const r = requestOf(def, input, opts);
  const res = await execute(
    def.method,
    r.path,
    { body: r.body, query: r.query },
    { ...r.opts, headers: { Accept: '*/*', ...opts.headers } },
  );
  const blob = await res.blob();
  const name = filenameFromDisposition(res.headers.get('content-disposition')) ?? filename;
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
