// Minimal HTTP load helpers: latency percentiles of an endpoint at a given concurrency.

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
}

export const jsonHeaders = (token: string, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  authorization: `JWT ${token}`,
  ...extra,
});

/**
 * Measures each endpoint at concurrency 1 and 16 (the first failing answer of each is printed with
 * `tag`), every row carrying `target`.
 */
export async function measureEndpoints(
  tag: string,
  endpoints: { name: string; call: (i: number) => Promise<Response> }[],
  target: string,
  opts: { requestsC1?: number; requestsC16?: number } = {},
): Promise<(LatencyResult & { target: string })[]> {
  const out: (LatencyResult & { target: string })[] = [];
  for (const e of endpoints) {
    for (const [concurrency, requests] of [
      [1, opts.requestsC1 ?? 60],
      [16, opts.requestsC16 ?? 160],
    ] as const) {
      let i = 0;
      let reported = false;
      const call = async () => {
        const res = await e.call(i++);
        if (!res.ok && !reported) {
          reported = true;
          console.warn(`  [${tag}] ${e.name}: ${res.status} ${(await res.clone().text()).slice(0, 300)}`);
        }
        return res;
      };
      out.push({ ...(await measure(e.name, call, { concurrency, requests })), target });
    }
  }
  return out;
}
