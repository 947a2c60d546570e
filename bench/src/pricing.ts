// Pricing endpoints under load (issue: p95 ≤ 100 ms at concurrency 1, ≤ 400 ms at concurrency 16 on the
// medium demo market). Called by run.ts with a running server and a token of demo@example.com.
// Requests alternate between the user's pivots (116 and 5) and between sort orders, with every licensed
// competitor selected (the screens' default, the heaviest case), so that each one recomputes the index.
import {
  type BenchEndpoint,
  type BenchOptions,
  type BenchTarget,
  jsonHeaders,
  type LatencyResult,
  measureEndpoints,
} from './http.js';

const TARGET_C1 = 'p95 ≤ 100 ms';
const TARGET_C16 = 'p95 ≤ 400 ms';

export async function benchPricing(
  { baseUrl, token }: BenchTarget,
  opts: BenchOptions = {},
): Promise<(LatencyResult & { target: string })[]> {
  const headers = jsonHeaders(token);
  const pivots = [116, 5];
  const sorts = ['index', 'price', 'name', 'difference'];
  const get = (path: string, i: number, extra = '') =>
    fetch(`${baseUrl}${path}?pivot_id=${pivots[i % 2]}${extra}`, { headers });
  const post = (path: string, body: object) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

  // A competitor of the license for the comparator, and cursors of a second page per pivot.
  const sellersRes = await fetch(`${baseUrl}/v1/licenses/sellers/me`, { headers });
  const licensed = sellersRes.ok ? ((await sellersRes.json()) as { id: number }[]).map((s) => s.id) : [];
  const rival = licensed.find((id) => !pivots.includes(id)) ?? 125;
  const cursors = new Map<string, string>();
  for (const pivot of pivots) {
    const nav = await post('/v2/navigation/', { pivot_id: pivot, page_size: 50 });
    const dpm = await fetch(`${baseUrl}/v2/navigation/dpm/items?pivot_id=${pivot}`, { headers });
    if (!nav.ok || !dpm.ok) throw new Error(`pricing bench: ${nav.status} / ${dpm.status}`);
    cursors.set(`nav${pivot}`, ((await nav.json()) as { next_cursor: string }).next_cursor ?? '');
    cursors.set(`dpm${pivot}`, ((await dpm.json()) as { next_cursor: string }).next_cursor ?? '');
  }

  let run = 0;
  const fresh = (i: number) => (5 + ((run * 7919 + i) % 100_000) / 100_000).toFixed(5);
  // A different subset of the licensed competitors per request (up to 1023 of them), never empty.
  const rivals = licensed.filter((id) => !pivots.includes(id));
  const competitorsFor = (i: number) => {
    const mask = ((run * 131 + i) % 1023) + 1;
    const set = rivals.filter((_, j) => j >= 10 || ((mask >> j) & 1) === 1);
    return (set.length ? set : rivals).join(',');
  };
  const endpoints: BenchEndpoint[] = [
    { name: 'GET /v2/navigation/dpm/kpi', call: (i) => get('/v2/navigation/dpm/kpi', i) },
    {
      name: 'GET /v2/navigation/dpm/items (page 1, sort varies)',
      call: (i) =>
        get('/v2/navigation/dpm/items', i, `&sort_by=${sorts[i % 4]}&sort=${i % 3 ? 'desc' : 'asc'}`),
    },
    {
      name: 'GET /v2/navigation/dpm/items (cursor page)',
      call: (i) => get('/v2/navigation/dpm/items', i, `&cursor=${cursors.get(`dpm${pivots[i % 2]}`)}`),
    },
    { name: 'GET /v2/navigation/dpm/brands', call: (i) => get('/v2/navigation/dpm/brands', i) },
    {
      name: 'GET /v2/navigation/dpm/classifications',
      call: (i) => get('/v2/navigation/dpm/classifications', i),
    },
    { name: 'GET /v2/navigation/dpm/sellers', call: (i) => get('/v2/navigation/dpm/sellers', i) },
    {
      name: 'GET /v2/navigation/dpm/brandFilterOptions/',
      call: (i) =>
        fetch(`${baseUrl}/v2/navigation/dpm/brandFilterOptions/?pivotId=${pivots[i % 2]}`, { headers }),
    },
    {
      name: 'POST /v2/navigation/ (50 items, sort varies)',
      call: (i) => post('/v2/navigation/', { pivot_id: pivots[i % 2], page_size: 50, sort_by: sorts[i % 4] }),
    },
    {
      name: 'POST /v2/navigation/ (cursor page)',
      call: (i) =>
        post('/v2/navigation/', {
          pivot_id: pivots[i % 2],
          page_size: 50,
          cursor: cursors.get(`nav${pivots[i % 2]}`),
        }),
    },
    {
      name: 'POST /v2/navigation/ (comparator, one seller, match)',
      call: (i) => post('/v2/navigation/', { pivot_id: pivots[i % 2], sellersIds: [rival], match: true }),
    },
    { name: 'GET /v2/navigation/kpi', call: (i) => get('/v2/navigation/kpi', i) },
    {
      name: 'POST /v2/navigationOld/',
      call: (i) => post('/v2/navigationOld/', { pivot_id: pivots[i % 2], page_size: 50 }),
    },
    { name: 'GET /v2/navigationOld/kpi', call: (i) => get('/v2/navigationOld/kpi', i) },
    { name: 'GET /v2/navigation/summary', call: (i) => get('/v2/navigation/summary', i) },
    {
      name: 'POST /v1/new-navigation/prices/',
      call: (i) => post('/v1/new-navigation/prices/', { pivot_id: pivots[i % 2], page_size: 50 }),
    },
    {
      name: 'GET /v2/navigation/price-range-scores',
      call: (i) => get('/v2/navigation/price-range-scores', i),
    },
    {
      name: 'GET /v2/navigation/price-range-scores-qmp',
      call: (i) => get('/v2/navigation/price-range-scores-qmp', i),
    },
    // Every request a different selection, so no earlier answer can be reused. "New filters" (here the
    // market range and the price range) reuse the competitive position of the pivot's products;
    // "new competitors" recompute it for the whole pivot: the worst case.
    {
      name: 'GET /v2/navigation/dpm/kpi (new filters each request)',
      call: (i) => get('/v2/navigation/dpm/kpi', i, `&mpi_value=${fresh(i)}&minPrice=${i % 997}`),
    },
    {
      name: 'GET /v2/navigation/dpm/items (new filters each request)',
      call: (i) => get('/v2/navigation/dpm/items', i, `&mpi_value=${fresh(i)}&minPrice=${i % 997}`),
    },
    {
      name: 'POST /v2/navigation/ (new filters each request)',
      call: (i) =>
        post('/v2/navigation/', {
          pivot_id: pivots[i % 2],
          page_size: 50,
          mpi_value: fresh(i),
          minPrice: i % 997,
        }),
    },
    {
      name: 'GET /v2/navigation/dpm/kpi (new competitors each request)',
      call: (i) => get('/v2/navigation/dpm/kpi', i, `&sellersIds=${competitorsFor(i)}`),
    },
    {
      name: 'GET /v2/navigation/dpm/items (new competitors each request)',
      call: (i) => get('/v2/navigation/dpm/items', i, `&sellersIds=${competitorsFor(i)}`),
    },
    {
      name: 'GET /v2/navigation/dpm/sellers (new competitors each request)',
      call: (i) => get('/v2/navigation/dpm/sellers', i, `&sellersIds=${competitorsFor(i)}`),
    },
    {
      name: 'GET /v2/navigation/dpm/classifications (new competitors each request)',
      call: (i) => get('/v2/navigation/dpm/classifications', i, `&sellersIds=${competitorsFor(i)}`),
    },
    {
      name: 'POST /v2/navigation/ (new competitors each request)',
      call: (i) =>
        post('/v2/navigation/', {
          pivot_id: pivots[i % 2],
          page_size: 50,
          sellersIds: competitorsFor(i).split(',').map(Number),
        }),
    },
    {
      name: 'GET /v2/navigation/dpm/items (filtered: text, price range, match)',
      call: (i) =>
        get('/v2/navigation/dpm/items', i, '&metaSearch=a&minPrice=1000&maxPrice=50000&match=true'),
    },
  ];

  return measureEndpoints(
    'pricing',
    endpoints.map((e, k) => ({
      ...e,
      call: (i: number) => {
        run = k + 1; // each endpoint its own fresh filters and competitor subsets
        return e.call(i);
      },
    })),
    opts,
    { c1: 60, c16: 160, targets: (c) => (c === 1 ? TARGET_C1 : TARGET_C16) },
  );
}
