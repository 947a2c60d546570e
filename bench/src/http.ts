// Minimal HTTP load helpers: latency percentiles of an endpoint at a given concurrency, and the calls of
// the API's routes through the route table (packages/domain/src/routes): the bench writes no path of its
// own (scripts/import-graph.test.ts fails on a path literal under bench/src).
import { type RouteDef, routePath } from '@vigia/domain';

export interface LatencyResult {
  name: string;
  concurrency: number;
  requests: number;
  p50: number;
  p95: number;
  max: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

/** Runs `fn` `requests` times with `concurrency` in flight; the first `warmup` calls are not measured. */
export async function measure(
  name: string,
  fn: () => Promise<Response>,
  { concurrency = 1, requests = 50, warmup = 3 } = {},
): Promise<LatencyResult> {
  for (let i = 0; i < warmup; i++) await (await fn()).arrayBuffer();
  const times: number[] = [];
  let errors = 0;
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      next++;
      const t = performance.now();
      const res = await fn();
      await res.arrayBuffer();
      times.push(performance.now() - t);
      if (!res.ok) errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  times.sort((a, b) => a - b);
  return {
    name,
    concurrency,
    requests: times.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: times[times.length - 1],
    errors,
  };
}

export interface BenchTarget {
  baseUrl: string;
  token: string;
  /**
   * The API processes to call (`--apis 2`): each route call goes to the next one in turn (round-robin,
   * as a proxy in front of them would). Absent: every call goes to `baseUrl`.
   */
  baseUrls?: readonly string[];
  /** The pid of the process that runs the jobs (the worker, `--apis N`); absent: the one server. */
  workerPid?: number;
}

let turn = 0;
/** The base URL of the next call: round-robin over `baseUrls`, else `baseUrl`. */
export function nextBase(target: BenchTarget): string {
  const all = target.baseUrls;
  if (!all?.length) return target.baseUrl;
  return all[turn++ % all.length];
}

type RouteRef = Pick<RouteDef, 'method' | 'path'>;
export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

export interface RouteCall {
  params?: Record<string, unknown>;
  /** Query string values; lists are sent comma-separated (the API's convention), empty values left out. */
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** The signed-in user's token (default: the target's); null for a public route. */
  token?: string | null;
  headers?: Record<string, string>;
}

/** The URL of a route of the table, its parameters filled in and its query string appended. */
export function routeUrl(
  base: string,
  def: RouteRef,
  call: Pick<RouteCall, 'params' | 'query'> = {},
): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(call.query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    qs.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const q = qs.toString();
  return `${base}${routePath(def, call.params)}${q ? `?${q}` : ''}`;
}

/** Calls one route of the table on the target (the next API process when there are several). */
export function callRoute(target: BenchTarget, def: RouteRef, call: RouteCall = {}): Promise<Response> {
  const token = call.token === undefined ? target.token : call.token;
  const headers: Record<string, string> = {
    ...(token ? { authorization: `JWT ${token}` } : {}),
    ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...call.headers,
  };
  return fetch(routeUrl(nextBase(target), def, call), {
    method: def.method,
    headers,
    body: call.body !== undefined ? JSON.stringify(call.body) : undefined,
  });
}

/** A row's name: the route's method and path, and what the row varies (`note`). */
export const rowName = (def: RouteRef, note?: string) =>
  `${def.method} ${def.path}${note ? ` (${note})` : ''}`;

export const jsonHeaders = (token: string, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  authorization: `JWT ${token}`,
  ...extra,
});

/** Options of a feature bench: request counts, the rows to run, a callback per finished row. */
export interface BenchOptions {
  requestsC1?: number;
  requestsC16?: number;
  only?: RegExp;
  /** The concurrencies to run (default 1 then 16); `--apis N` runs only the c16 rows. */
  concurrencies?: readonly (1 | 16)[];
  onResult?: (row: LatencyResult & { target: string }) => void;
}

export interface BenchEndpoint {
  name: string;
  call: (i: number) => Promise<Response>;
  /** the row's target; `targets` gives one per concurrency instead */
  target?: string;
}

/**
 * Each endpoint at concurrency 1 then 16 (`opts.only` keeps the names it matches); the first failed
 * answer of each row is printed with `tag`. `i` counts the calls of the endpoint across both rows.
 */
export async function measureEndpoints(
  tag: string,
  endpoints: BenchEndpoint[],
  opts: BenchOptions,
  defaults: { c1: number; c16: number; targets: (concurrency: number, e: BenchEndpoint) => string },
): Promise<(LatencyResult & { target: string })[]> {
  const out: (LatencyResult & { target: string })[] = [];
  for (const e of endpoints) {
    if (opts.only && !opts.only.test(e.name)) continue;
    let i = 0;
    for (const [concurrency, requests] of [
      [1, opts.requestsC1 ?? defaults.c1],
      [16, opts.requestsC16 ?? defaults.c16],
    ] as const) {
      if (opts.concurrencies && !opts.concurrencies.includes(concurrency)) continue;
      let reported = false;
      const call = async () => {
        const res = await e.call(i++);
        if (!res.ok && !reported) {
          reported = true;
          console.warn(`  [${tag}] ${e.name}: ${res.status} ${(await res.clone().text()).slice(0, 300)}`);
        }
        return res;
      };
      const result = await measure(e.name, call, { concurrency, requests });
      const row = { ...result, target: defaults.targets(concurrency, e) };
      opts.onResult?.(row);
      out.push(row);
    }
  }
  return out;
}
