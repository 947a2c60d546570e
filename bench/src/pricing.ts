// Pricing endpoints under load (issue: p95 ≤ 100 ms at concurrency 1, ≤ 400 ms at concurrency 16 on the
// medium demo market). Called by run.ts with a running server and a token of demo@example.com.
// Requests alternate between the user's pivots (116 and 5) and between sort orders, with every licensed
// competitor selected (the screens' default, the heaviest case), so that each one recomputes the index.
import { licensesRoutes, routes } from '@vigia/domain';
import {
  type BenchEndpoint,
  type BenchOptions,
  type BenchTarget,
  callRoute,
  type LatencyResult,
  measureEndpoints,
  type QueryValue,
  rowName,
} from './http.js';

const r = routes.pricing;

const TARGET_C1 = 'p95 ≤ 100 ms';

/** The user's pivots the pricing rows alternate between (request i asks for `PRICING_PIVOTS[i % 2]`). */
export const PRICING_PIVOTS = [116, 5] as const;

/**
 * The competitors of request `i` of the row numbered `run` ("new competitors each request"): a different
 * subset of the licensed competitors per request (up to 1023 of them), never empty. `rivals`: the
 * licensed sellers other than the pivots. Also asked of DuckDB (duckdb.ts) with the same arguments.
 */
export function competitorSubset(rivals: readonly number[], run: number, i: number): number[] {
  const mask = ((run * 131 + i) % 1023) + 1;
  const set = rivals.filter((_, j) => j >= 10 || ((mask >> j) & 1) === 1);
  return set.length ? set : [...rivals];
}

const TARGET_C16 = 'p95 ≤ 400 ms';

export async function benchPricing(
  target: BenchTarget,
  opts: BenchOptions = {},
): Promise<(LatencyResult & { target: string })[]> {
  const pivots: readonly number[] = PRICING_PIVOTS;
  const sorts = ['index', 'price', 'name', 'difference'];
  type Def = (typeof r)[keyof typeof r];
  const get = (def: Def, i: number, query: Record<string, QueryValue> = {}) =>
    callRoute(target, def, { query: { pivot_id: pivots[i % 2], ...query } });
  const post = (def: Def, body: object) => callRoute(target, def, { body });

  // A competitor of the license for the comparator, and cursors of a second page per pivot.
  const sellersRes = await callRoute(target, licensesRoutes.sellers);
  const licensed = sellersRes.ok ? ((await sellersRes.json()) as { id: number }[]).map((s) => s.id) : [];
  const rival = licensed.find((id) => !pivots.includes(id)) ?? 125;
  const cursors = new Map<string, string>();
  for (const pivot of pivots) {
    const nav = await post(r.navigationItems, { pivot_id: pivot, page_size: 50 });
    const dpm = await callRoute(target, r.dpmItems, { query: { pivot_id: pivot } });
    if (!nav.ok || !dpm.ok) throw new Error(`pricing bench: ${nav.status} / ${dpm.status}`);
    cursors.set(`nav${pivot}`, ((await nav.json()) as { next_cursor: string }).next_cursor ?? '');
    cursors.set(`dpm${pivot}`, ((await dpm.json()) as { next_cursor: string }).next_cursor ?? '');
  }

  let run = 0;
  const fresh = (i: number) => (5 + ((run * 7919 + i) % 100_000) / 100_000).toFixed(5);
  // A different subset of the licensed competitors per request (up to 1023 of them), never empty.
  const rivals = licensed.filter((id) => !pivots.includes(id));
  const competitorsFor = (i: number) => competitorSubset(rivals, run, i).join(',');
  const endpoints: BenchEndpoint[] = [
    { name: rowName(r.dpmKpi), call: (i) => get(r.dpmKpi, i) },
    {
      name: rowName(r.dpmItems, 'page 1, sort varies'),
      call: (i) => get(r.dpmItems, i, { sort_by: sorts[i % 4], sort: i % 3 ? 'desc' : 'asc' }),
    },
    {
      name: rowName(r.dpmItems, 'cursor page'),
      call: (i) => get(r.dpmItems, i, { cursor: cursors.get(`dpm${pivots[i % 2]}`) }),
    },
    { name: rowName(r.dpmBrands), call: (i) => get(r.dpmBrands, i) },
    { name: rowName(r.dpmClassifications), call: (i) => get(r.dpmClassifications, i) },
    { name: rowName(r.dpmSellers), call: (i) => get(r.dpmSellers, i) },
    {
      name: rowName(r.brandFilterOptions),
      call: (i) => callRoute(target, r.brandFilterOptions, { query: { pivotId: pivots[i % 2] } }),
    },
    {
      name: rowName(r.navigationItems, '50 items, sort varies'),
      call: (i) => post(r.navigationItems, { pivot_id: pivots[i % 2], page_size: 50, sort_by: sorts[i % 4] }),
    },
    {
      name: rowName(r.navigationItems, 'cursor page'),
      call: (i) =>
        post(r.navigationItems, {
          pivot_id: pivots[i % 2],
          page_size: 50,
          cursor: cursors.get(`nav${pivots[i % 2]}`),
        }),
    },
    {
      name: rowName(r.navigationItems, 'comparator, one seller, match'),
      call: (i) => post(r.navigationItems, { pivot_id: pivots[i % 2], sellersIds: [rival], match: true }),
    },
    { name: rowName(r.navigationKpi), call: (i) => get(r.navigationKpi, i) },
    {
      name: rowName(r.navigationOldItems),
      call: (i) => post(r.navigationOldItems, { pivot_id: pivots[i % 2], page_size: 50 }),
    },
    { name: rowName(r.navigationOldKpi), call: (i) => get(r.navigationOldKpi, i) },
    { name: rowName(r.navigationSummary), call: (i) => get(r.navigationSummary, i) },
    {
      name: rowName(r.newNavigationPrices),
      call: (i) => post(r.newNavigationPrices, { pivot_id: pivots[i % 2], page_size: 50 }),
    },
    { name: rowName(r.priceRangeScores), call: (i) => get(r.priceRangeScores, i) },
    { name: rowName(r.priceRangeScoresQmp), call: (i) => get(r.priceRangeScoresQmp, i) },
    // Every request a different selection, so no earlier answer can be reused. "New filters" (here the
    // market range and the price range) reuse the competitive position of the pivot's products;
    // "new competitors" recompute it for the whole pivot: the worst case.
    {
      name: rowName(r.dpmKpi, 'new filters each request'),
      call: (i) => get(r.dpmKpi, i, { mpi_value: fresh(i), minPrice: i % 997 }),
    },
    {
      name: rowName(r.dpmItems, 'new filters each request'),
      call: (i) => get(r.dpmItems, i, { mpi_value: fresh(i), minPrice: i % 997 }),
    },
    {
      name: rowName(r.navigationItems, 'new filters each request'),
      call: (i) =>
        post(r.navigationItems, {
          pivot_id: pivots[i % 2],
          page_size: 50,
          mpi_value: fresh(i),
          minPrice: i % 997,
        }),
    },
    {
      name: rowName(r.dpmKpi, 'new competitors each request'),
      call: (i) => get(r.dpmKpi, i, { sellersIds: competitorsFor(i) }),
    },
    {
      name: rowName(r.dpmItems, 'new competitors each request'),
      call: (i) => get(r.dpmItems, i, { sellersIds: competitorsFor(i) }),
    },
    {
      name: rowName(r.dpmSellers, 'new competitors each request'),
      call: (i) => get(r.dpmSellers, i, { sellersIds: competitorsFor(i) }),
    },
    {
      name: rowName(r.dpmClassifications, 'new competitors each request'),
      call: (i) => get(r.dpmClassifications, i, { sellersIds: competitorsFor(i) }),
    },
    {
      name: rowName(r.navigationItems, 'new competitors each request'),
      call: (i) =>
        post(r.navigationItems, {
          pivot_id: pivots[i % 2],
          page_size: 50,
          sellersIds: competitorsFor(i).split(',').map(Number),
        }),
    },
    {
      name: rowName(r.dpmItems, 'filtered: text, price range, match'),
      call: (i) => get(r.dpmItems, i, { metaSearch: 'a', minPrice: 1000, maxPrice: 50000, match: true }),
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
