// Assortment (Surtido) and brand price comparator endpoints under load (issue 14 targets on the medium
// market: every endpoint p95 ≤ 100 ms at concurrency 1 and ≤ 400 ms at 16). Called by run.ts with a
// running server and a token of demo@example.com. Requests use every licensed competitor (the screens'
// default, the heaviest case) and rotate over both pivots; "period varies" rows shift the period by a day
// per request, so that most of them miss the answer memo (the first question of a screen).
import { brandComparatorEndpoints } from './brand-comparator.js';
import {
  type BenchEndpoint,
  type BenchOptions,
  type BenchTarget,
  jsonHeaders,
  type LatencyResult,
  measureEndpoints,
} from './http.js';

const TARGET = 'p95 ≤ 100 ms at c1, ≤ 400 ms at c16';
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The name of the brand with the most listings (its drill-down row), from /v1/assortment/brand. */
async function topBrand(
  post: (path: string, body: object) => Promise<Response>,
  body: object,
): Promise<string> {
  const res = await post('/v1/assortment/brand', body);
  if (!res.ok) throw new Error(`assortment bench: /v1/assortment/brand ${res.status}`);
  const brands = ((await res.json()) as { brands: { name: string; summary: boolean }[] }).brands;
  return brands.find((b) => !b.summary)?.name ?? 'Sin marca';
}

export async function benchAssortment(
  { baseUrl, token }: BenchTarget,
  opts: BenchOptions = {},
): Promise<(LatencyResult & { target: string })[]> {
  const headers = jsonHeaders(token);
  const post = (path: string, body: object) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const get = (path: string, q: Record<string, string | number | boolean>) =>
    fetch(`${baseUrl}${path}?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`, {
      headers,
    });
  const list = async (path: string) => {
    const res = await fetch(`${baseUrl}${path}`, { headers });
    if (!res.ok) throw new Error(`assortment bench: ${path} ${res.status}`);
    return ((await res.json()) as { id: number }[]).map((x) => x.id);
  };
  const pivots = await list('/v1/licenses/pivots/me');
  const sellers = await list('/v1/licenses/sellers/me');
  const base = (i: number) => ({ currency: 'CLP', sellers, pivot_id: pivots[i % pivots.length] });
  const day = (offset: number) => isoDay(new Date(Date.now() - offset * 86_400_000));
  const shifted = (i: number) => ({ ...base(i), from_date: day(30 + (i % 40)), to_date: day(1 + (i % 40)) });
  const seller = (i: number) => sellers[i % sellers.length];

  const endpoints: BenchEndpoint[] = [];
  for (const kind of ['brand', 'ecommerce', 'stock'] as const) {
    endpoints.push(
      {
        name: `POST /v1/assortment/${kind} (last 30 days)`,
        call: (i) => post(`/v1/assortment/${kind}`, base(i)),
      },
      {
        name: `POST /v1/assortment/${kind} (period varies)`,
        call: (i) => post(`/v1/assortment/${kind}`, shifted(i)),
      },
    );
  }
  // Drill-downs (issue 14 part 5): every sort, the summary rows ('Todas' / 'Todos'), pages, a period that
  // ends before the sellers' latest run (read from the history's spans), and the three stock lists.
  const brandName = await topBrand(post, base(0));
  const drill = (path: string, extra: (i: number) => object) => (i: number) =>
    post(path, { ...base(i), ...extra(i) });
  const SORTS = ['name', 'price', 'seller', 'brand', 'date'] as const;
  const sortOf = (i: number) => ({
    sort_by: SORTS[i % SORTS.length],
    sort: i % 2 ? 'desc' : 'asc',
  });
  endpoints.push(
    {
      name: 'POST /v1/assortment/ecommerce/products (one seller, page varies)',
      call: drill('/v1/assortment/ecommerce/products', (i) => ({ seller_id: seller(i), page: 1 + (i % 5) })),
    },
    {
      name: 'POST /v1/assortment/ecommerce/products (Todos, sort varies, page varies)',
      call: drill('/v1/assortment/ecommerce/products', (i) => ({ ...sortOf(i), page: 1 + (i % 4) })),
    },
    {
      name: 'POST /v1/assortment/brand/products (summary row, sort by price)',
      call: drill('/v1/assortment/brand/products', () => ({ sort_by: 'price', sort: 'desc' })),
    },
    {
      name: 'POST /v1/assortment/brand/products (summary row, sort varies, page varies)',
      call: drill('/v1/assortment/brand/products', (i) => ({ ...sortOf(i), page: 1 + (i % 7) })),
    },
    {
      name: 'POST /v1/assortment/brand/products (one brand, sort varies)',
      call: drill('/v1/assortment/brand/products', (i) => ({ ...sortOf(i), brand: brandName })),
    },
    {
      name: 'POST /v1/assortment/brand/products (summary row, period ends 20-60 days ago)',
      call: (i) =>
        post('/v1/assortment/brand/products', {
          ...base(i),
          ...sortOf(i),
          from_date: day(49 + (i % 40)),
          to_date: day(20 + (i % 40)),
        }),
    },
    {
      name: 'POST /v1/assortment/ecommerce/products (one seller, 180 days ago to 90 days ago)',
      call: (i) =>
        post('/v1/assortment/ecommerce/products', {
          ...base(i),
          ...sortOf(i),
          seller_id: seller(i),
          from_date: day(180),
          to_date: day(90 + (i % 5)),
        }),
    },
    {
      name: 'POST /v1/assortment/stock/products (one seller, went_out)',
      call: drill('/v1/assortment/stock/products', (i) => ({ seller_id: seller(i), stock: 'went_out' })),
    },
    {
      name: 'POST /v1/assortment/stock/products (one seller, back_in, sort varies)',
      call: drill('/v1/assortment/stock/products', (i) => ({
        ...sortOf(i),
        seller_id: seller(i),
        stock: 'back_in',
      })),
    },
    {
      name: 'POST /v1/assortment/stock/products (Todos, went_out, 180 days, sort varies, page varies)',
      call: drill('/v1/assortment/stock/products', (i) => ({
        ...sortOf(i),
        stock: 'went_out',
        from_date: day(179),
        to_date: day(0),
        page: 1 + (i % 3),
      })),
    },
    {
      name: 'POST /v1/assortment/stock/products (one seller, out at the end)',
      call: drill('/v1/assortment/stock/products', (i) => ({ seller_id: seller(i), stock: 'out' })),
    },
    {
      name: 'POST /v1/assortment/stock/products (Todos, out at the end, sort varies)',
      call: drill('/v1/assortment/stock/products', (i) => ({ ...sortOf(i), stock: 'out' })),
    },
    ...(await brandComparatorEndpoints(get, post, pivots)),
  );

  return measureEndpoints('assortment', endpoints, opts, { c1: 60, c16: 160, targets: () => TARGET });
}
