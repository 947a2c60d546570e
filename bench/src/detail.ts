// Product detail, product list and dashboard endpoints under load (issue targets on the medium market:
// detail and history p95 ≤ 50 ms, dashboard p95 ≤ 150 ms, product list page p95 ≤ 100 ms). Called by
// run.ts with a running server and a token of demo@example.com. Requests rotate over up to 40 matched
// pivot products (and their competitor listings), both pivots and every licensed competitor (the
// screens' default, the heaviest case).
import { type RouteDef, routes } from '@vigia/domain';
import {
  type BenchEndpoint,
  type BenchOptions,
  type BenchTarget,
  callRoute,
  type LatencyResult,
  measureEndpoints,
  rowName,
} from './http.js';

const { match, info, history, qmi, qmiHistory } = routes.detail;
const { indicators, cards, quickFind } = routes.dashboard;
const productList = routes.productList.list;

/** A matched pivot product the detail rows open, and one competitor listing of its group. */
export interface Sample {
  pivot: number;
  id: number;
  competitor: { product_id: string; seller_id: number } | null;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Up to 20 matched products of each pivot (the product list's first page with `match`), in turn. */
export async function matchedSamples(target: BenchTarget, pivots: readonly number[]): Promise<Sample[]> {
  const post = (def: Pick<RouteDef, 'method' | 'path'>, body: object) => callRoute(target, def, { body });
  const samples: Sample[] = [];
  for (const pivot of pivots) {
    const res = await post(productList, { pivot_id: pivot, match: true, page_size: 20 });
    if (!res.ok) throw new Error(`detail bench: list-products ${res.status} ${await res.text()}`);
    const { items } = (await res.json()) as { items: { id: number }[] };
    for (const it of items) {
      const d = await post(match, { pivot_id: pivot, product_id: it.id });
      const info = (await d.json()) as {
        qm_items?: { is_pivot: boolean; product_id: string; seller_id: number }[];
      };
      const comp = info.qm_items?.find((q) => !q.is_pivot) ?? null;
      samples.push({
        pivot,
        id: it.id,
        competitor: comp && { product_id: comp.product_id, seller_id: comp.seller_id },
      });
    }
  }
  if (!samples.length) throw new Error('detail bench: no matched pivot products in the market');
  return samples;
}

const SEARCH_WORDS = ['leche', 'arroz', 'aceite', 'cafe', 'audifono', 'tv', 'jabon', 'galleta'];

/** The body of request `i` of the product list's search row: a word in turn, dearest first. */
export function searchBody(pivots: readonly number[], i: number) {
  return {
    pivot_id: pivots[i % pivots.length],
    search: SEARCH_WORDS[i % SEARCH_WORDS.length],
    sort: 'price' as const,
    order: 'desc' as const,
  };
}

/** The body of the history row ("1 month"): the sample's price history over the month ending `today`. */
export function historyBody(s: Sample, today: Date) {
  return {
    pivot_id: s.pivot,
    product_id: s.id,
    from_date: isoDay(new Date(today.getTime() - 30 * 86_400_000)),
    to_date: isoDay(today),
  };
}

/** A competitor selection of the dashboard's rows: the pivot and its competitors. */
export interface Selection {
  pivot: number;
  sellers: number[];
}

/**
 * The dashboard's "new competitors each request": selections of 2 to 4 licensed sellers per pivot, taken
 * from a run-dependent start so that no request of a run (nor, almost surely, of an earlier run on the
 * same database) asks for one seen before — request `i` asks for `selection(i)`. Also asked of DuckDB
 * (duckdb.ts).
 */
export function newSelections(
  pivots: readonly number[],
  licensed: readonly number[],
): (i: number) => Selection {
  const selections: Selection[] = [];
  for (const pivot of pivots) {
    const others = licensed.filter((s) => s !== pivot);
    const choose = (start: number, cur: number[], k: number) => {
      if (cur.length === k) selections.push({ pivot, sellers: [...cur] });
      else for (let j = start; j < others.length; j++) choose(j + 1, [...cur, others[j]], k);
    };
    for (const k of [2, 3, 4]) choose(0, [], k);
  }
  const selectionStart = Date.now() % Math.max(1, selections.length);
  return (i) => selections[(selectionStart + i * 7919) % selections.length];
}

export async function benchDetail(
  target: BenchTarget,
  opts: BenchOptions = {},
): Promise<(LatencyResult & { target: string })[]> {
  const post = (def: Pick<RouteDef, 'method' | 'path'>, body: object) => callRoute(target, def, { body });

  // Matched pivot products of each licensed pivot, and one competitor listing of each.
  const pivotsRes = await callRoute(target, routes.licenses.pivots);
  if (!pivotsRes.ok) throw new Error(`detail bench: pivots ${pivotsRes.status}`);
  const pivots = ((await pivotsRes.json()) as { id: number }[]).map((p) => p.id);
  const samples = await matchedSamples(target, pivots);
  // Competitor selections of 2 to 4 licensed sellers (newSelections): the dashboard's first answer for a
  // new selection (issue 30).
  const sellersRes = await callRoute(target, routes.licenses.sellers);
  if (!sellersRes.ok) throw new Error(`detail bench: sellers ${sellersRes.status}`);
  const licensed = ((await sellersRes.json()) as { id: number }[]).map((s) => s.id);
  const selection = newSelections(pivots, licensed);
  const withComp = samples.filter((s) => s.competitor);
  const pick = (i: number) => samples[i % samples.length];
  const pickComp = (i: number) => (withComp.length ? withComp[i % withComp.length] : samples[0]);
  const today = new Date();
  const weekAgo = new Date(today.getTime() - 7 * 86_400_000);

  const DETAIL = 'p95 ≤ 50 ms';
  const DASHBOARD = 'p95 ≤ 150 ms';
  const LIST = 'p95 ≤ 100 ms';
  const endpoints: (BenchEndpoint & { target: string })[] = [
    {
      name: rowName(match),
      target: DETAIL,
      call: (i) => post(match, { pivot_id: pick(i).pivot, product_id: pick(i).id, currency: 'CLP' }),
    },
    {
      name: rowName(info),
      target: DETAIL,
      call: (i) => post(info, { product_id: pick(i).id }),
    },
    {
      name: rowName(history, '1 month'),
      target: DETAIL,
      call: (i) => post(history, historyBody(pick(i), today)),
    },
    {
      name: rowName(qmi),
      target: DETAIL,
      call: (i) => {
        const s = pickComp(i);
        return post(qmi, {
          productId: s.competitor?.product_id ?? String(s.id),
          sellerId: s.competitor?.seller_id ?? s.pivot,
        });
      },
    },
    {
      name: rowName(qmiHistory, '1 month'),
      target: DETAIL,
      call: (i) => {
        const s = pickComp(i);
        return post(qmiHistory, {
          productId: s.competitor?.product_id ?? String(s.id),
          sellerId: s.competitor?.seller_id ?? s.pivot,
        });
      },
    },
    {
      name: rowName(qmiHistory, 'XLSX download'),
      target: DETAIL,
      call: (i) => {
        const s = pickComp(i);
        return post(qmiHistory, {
          productId: s.competitor?.product_id ?? String(s.id),
          sellerId: s.competitor?.seller_id ?? s.pivot,
          justPipeline: true,
          downloadablePipeline: true,
        });
      },
    },
    {
      name: rowName(indicators),
      target: DASHBOARD,
      call: (i) => post(indicators, { pivot_id: pivots[i % pivots.length] }),
    },
    {
      name: rowName(cards, 'last 7 days'),
      target: DASHBOARD,
      call: (i) => post(cards, { pivot_id: pivots[i % pivots.length] }),
    },
    {
      name: rowName(cards, 'closed week'),
      target: DASHBOARD,
      call: (i) =>
        post(cards, {
          pivot_id: pivots[i % pivots.length],
          from_date: isoDay(new Date(weekAgo.getTime() - 6 * 86_400_000)),
          to_date: isoDay(weekAgo),
        }),
    },
    {
      name: rowName(cards, 'new competitors each request'),
      target: DASHBOARD,
      call: (i) => post(cards, { pivot_id: selection(i).pivot, sellers: selection(i).sellers }),
    },
    {
      name: rowName(productList, 'page varies'),
      target: LIST,
      call: (i) => post(productList, { pivot_id: pivots[i % pivots.length], page: 1 + (i % 20) }),
    },
    {
      name: rowName(productList, 'search, sort by price'),
      target: LIST,
      call: (i) => post(productList, searchBody(pivots, i)),
    },
    {
      name: rowName(quickFind),
      target: LIST,
      call: (i) =>
        post(quickFind, {
          pivot_id: pivots[i % pivots.length],
          query: SEARCH_WORDS[i % SEARCH_WORDS.length],
        }),
    },
  ];

  // The targets of the detail, list and dashboard issue are for one user at a time (c1); the c16 rows show
  // how they degrade when 16 requests share the machine's two cores.
  return measureEndpoints('detail', endpoints, opts, {
    c1: 60,
    c16: 160,
    targets: (c, e) => (c === 1 ? (e.target ?? '') : `${e.target} at c1; c16 informative`),
  });
}
