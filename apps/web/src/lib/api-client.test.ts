import { authRoutes, defineRoute, licensesRoutes, STATUS_MESSAGES } from '@vigia/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ApiError,
  buildUrl,
  callRoute,
  configureApiClient,
  filenameFromDisposition,
  isSessionExpired,
} from './api-client.js';
import { getToken } from './session.js';
import { localStore, MemoryStorage, STORAGE_KEYS, setStoresForTesting } from './storage.js';

// Routes of a pretend feature (not the API's): the client's behaviour does not depend on the path.
const anyAnswer = z.unknown();
const testGet = defineRoute({
  id: 'test.get',
  method: 'GET',
  path: '/test/items',
  module: 'promotions',
  auth: true,
  query: z.object({ sellers: z.array(z.number()).optional(), q: z.string().optional(), none: z.null() }),
  response: anyAnswer,
});
const plainGet = (name: string) =>
  defineRoute({
    id: `test.${name}`,
    method: 'GET',
    path: `/test/${name}`,
    module: null,
    auth: true,
    response: anyAnswer,
  });
const x = plainGet('x');
const testPost = defineRoute({
  id: 'test.post',
  method: 'POST',
  path: '/test/subscriptions',
  module: null,
  auth: true,
  body: z.object({}),
  response: anyAnswer,
});
const REFRESH = authRoutes.refresh.path;

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

let calls: { url: string; init: RequestInit }[] = [];
function stubFetch(handler: Handler) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return handler(url, init);
    }),
  );
}
const header = (i: number, name: string) => new Headers(calls[i].init.headers).get(name);

const unexpected = (): never => {
  throw new Error('expected the call to fail');
};
const asApiError = (e: unknown) => e as ApiError;

const hooks = { notify: vi.fn(), onSessionExpired: vi.fn(), onForbidden: vi.fn() };

beforeEach(() => {
  setStoresForTesting(new MemoryStorage());
  localStore().setString(STORAGE_KEYS.token, 'old-token');
  localStore().set(STORAGE_KEYS.session, { isLoggedIn: true, loginStatus: 'successful' });
  for (const h of Object.values(hooks)) h.mockReset();
  configureApiClient(hooks);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  configureApiClient(null);
});

describe('api client', () => {
  it('sends the JWT, module and pivot headers and serialises the query', async () => {
    stubFetch(() => json(200, { ok: 1 }));
    const data = await callRoute(
      testGet,
      { query: { sellers: [1, 2], q: 'a b', none: null } },
      { pivotId: 116 },
    );
    expect(data).toEqual({ ok: 1 });
    expect(calls[0].url).toBe('/test/items?sellers=1%2C2&q=a+b');
    expect(header(0, 'authorization')).toBe('JWT old-token');
    expect(header(0, 'x-module-authorization')).toBe('promotions');
    expect(header(0, 'x-pivot-id')).toBe('116');
  });

  it('maps a status to the seed message and keeps detail, code and field', async () => {
    stubFetch(() =>
      json(404, { detail: 'Producto no existe', code: 'not_found', field: 'id', requestId: 'r1' }),
    );
    const error = await callRoute(x, {}).then(unexpected, asApiError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      detail: 'Producto no existe',
      code: 'not_found',
      field: 'id',
    });
    expect(error.message).toBe(STATUS_MESSAGES[404]);
    expect(hooks.notify).toHaveBeenCalledWith(STATUS_MESSAGES[404]);
  });

  it('shows the original message for a status outside the table', async () => {
    stubFetch(() => json(409, { detail: 'Ya existe una suscripción', code: 'conflict' }));
    const error = await callRoute(testPost, { body: {} }).then(unexpected, asApiError);
    expect(error.message).toBe('Ya existe una suscripción');
  });

  it('does not report when notify is false', async () => {
    stubFetch(() => json(500, { detail: 'x', code: 'internal' }));
    const error = await callRoute(x, {}, { notify: false }).then(unexpected, asApiError);
    expect(error.message).toBe(STATUS_MESSAGES[500]);
    expect(hooks.notify).not.toHaveBeenCalled();
  });

  it('refreshes the token once on 401 and retries with the new one', async () => {
    const modules = licensesRoutes.roleModules;
    stubFetch((url, init) => {
      if (url === REFRESH) return json(200, { token: 'new-token' });
      const auth = new Headers(init.headers).get('authorization');
      return auth === 'JWT new-token'
        ? json(200, [{ module_code: 'dpm' }])
        : json(401, { detail: 'expired', code: 'unauthorized' });
    });
    await expect(callRoute(modules, {})).resolves.toEqual([{ module_code: 'dpm' }]);
    expect(calls.map((c) => c.url)).toEqual([modules.path, REFRESH, modules.path]);
    expect(JSON.parse(String(calls[1].init.body))).toEqual({ token: 'old-token' });
    expect(header(1, 'authorization')).toBeNull();
    expect(getToken()).toBe('new-token');
    expect(hooks.onSessionExpired).not.toHaveBeenCalled();
  });

  it('clears the session and signals expiry when the refresh fails', async () => {
    stubFetch((url) =>
      url === REFRESH
        ? json(401, { detail: 'no', code: 'unauthorized' })
        : json(401, { detail: 'expired', code: 'unauthorized' }),
    );
    localStore().set(STORAGE_KEYS.brands, [1]);
    localStore().set(STORAGE_KEYS.sellers, [2]);
    const error = await callRoute(x, {}).then(unexpected, asApiError);
    expect(error.status).toBe(401);
    expect(isSessionExpired(error)).toBe(true);
    expect(hooks.onSessionExpired).toHaveBeenCalledTimes(1);
    expect(getToken()).toBeNull();
    expect(localStore().getString(STORAGE_KEYS.brands)).toBeNull();
    expect(localStore().getString(STORAGE_KEYS.sellers)).toBeNull();
  });

  it('a 403 that survives the refresh goes to Home (onForbidden)', async () => {
    stubFetch((url) =>
      url === REFRESH
        ? json(200, { token: 'new-token' })
        : json(403, { detail: 'Módulo no incluido', code: 'module_not_licensed' }),
    );
    const error = await callRoute(plainGet('assortment'), {}).then(unexpected, asApiError);
    expect(error.status).toBe(403);
    expect(error.message).toBe(STATUS_MESSAGES[403]);
    expect(hooks.onForbidden).toHaveBeenCalledTimes(1);
    expect(hooks.onSessionExpired).not.toHaveBeenCalled();
  });

  it('concurrent 401s share one refresh', async () => {
    let refreshes = 0;
    stubFetch(async (url, init) => {
      if (url === REFRESH) {
        refreshes++;
        await new Promise((r) => setTimeout(r, 5));
        return json(200, { token: 'new-token' });
      }
      return new Headers(init.headers).get('authorization') === 'JWT new-token'
        ? json(200, { url })
        : json(401, { detail: 'expired', code: 'unauthorized' });
    });
    await Promise.all(['a', 'b', 'c'].map((n) => callRoute(plainGet(n), {})));
    expect(refreshes).toBe(1);
  });

  it('calls without a session send no Authorization and are never refreshed', async () => {
    stubFetch(() => json(401, { detail: 'bad', code: 'unauthorized' }));
    const error = await callRoute(authRoutes.login, { body: { email: 'a@b.cl', password: 'x' } }).then(
      unexpected,
      asApiError,
    );
    expect(error.status).toBe(401);
    expect(calls).toHaveLength(1);
    expect(header(0, 'authorization')).toBeNull();
    expect(hooks.onSessionExpired).not.toHaveBeenCalled();
  });

  it('a network failure is an ApiError with status 0', async () => {
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await callRoute(x, {}).then(unexpected, asApiError);
    expect(error).toMatchObject({ status: 0, code: 'network_error', message: STATUS_MESSAGES[500] });
  });

  it('parses the answer with the given schema', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() => json(200, { wrong: true }));
    const error = await callRoute(licensesRoutes.appConfig, {}).then(unexpected, asApiError);
    expect(error).toMatchObject({ code: 'invalid_response' });
  });
});

describe('helpers', () => {
  it('buildUrl appends to an existing query', () => {
    expect(buildUrl('/a?x=1', { y: 2 })).toBe('/a?x=1&y=2');
    expect(buildUrl('/a', {})).toBe('/a');
  });
  it('reads file names from Content-Disposition', () => {
    expect(filenameFromDisposition('attachment; filename="reporte.xlsx"')).toBe('reporte.xlsx');
    expect(filenameFromDisposition("attachment; filename*=UTF-8''precios%20hist%C3%B3ricos.csv")).toBe(
      'precios históricos.csv',
    );
    expect(filenameFromDisposition(null)).toBeNull();
  });
});
