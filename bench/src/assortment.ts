// Assortment (Surtido) and brand price comparator endpoints under load (issue 14 targets on the medium
// market: every endpoint p95 ≤ 100 ms at concurrency 1 and ≤ 400 ms at 16). Called by run.ts with a
// running server and a token of demo@example.com. Requests use every licensed competitor (the screens'
// default, the heaviest case) and rotate over both pivots; "period varies" rows shift the period by a day
// per request, so that most of them miss the answer memo (the first question of a screen).
import { type assortmentRoutes, DEFAULT_TIMEZONE, isoDateInZone, routes } from '@vigia/domain';
import { brandComparatorEndpoints } from './brand-comparator.js';
import {
  type BenchEndpoint,
  type BenchOptions,
  type BenchTarget,
  callRoute,
  type LatencyResult,
  measureEndpoints,
  rowName,
} from './http.js';

const r = routes.assortment;
type Def = (typeof assortmentRoutes)[keyof typeof assortmentRoutes];

const TARGET = 'p95 ≤ 100 ms at c1, ≤ 400 ms at c16';
/** The day `offset` days before today in the market's zone (a UTC date is tomorrow there from 00:00 to 03:00 UTC). */
const day = (offset: number) => isoDateInZone(new Date(Date.now() - offset * 86_400_000), DEFAULT_TIMEZONE);

/** Request `i` of the "last 30 days" rows: every licensed seller, the pivots in turn, CLP. */
export const assortmentBase = (pivots: readonly number[], sellers: readonly number[], i: number) => ({
  currency: 'CLP',
  sellers: [...sellers],
  pivot_id: pivots[i % pivots.length],
});

/** Request `i` of the "period varies" rows: 30 days ending 1 to 40 days ago, shifted a day per request. */
export const assortmentShifted = (pivots: readonly number[], sellers: readonly number[], i: number) => ({
  ...assortmentBase(pivots, sellers, i),
  from_date: day(30 + (i % 40)),
  to_date: day(1 + (i % 40)),
});

/** The name of the brand with the most listings (its drill-down row), from the brand table. */
async function topBrand(post: (def: Def, body: object) => Promise<Response>, body: object): Promise<string> {
  const res = await post(r.brand, body);
  if (!res.ok) throw new Error(`assortment bench: ${rowName(r.brand)} ${res.status}`);
  const brands = ((await res.json()) as { brands: { name: string; summary: boolean }[] }).brands;
  return brands.find((b) => !b.summary)?.name ?? 'Sin marca';
}

export async function benchAssortment(
  target: BenchTarget,
  opts: BenchOptions = {},
): Promise<(LatencyResult & { target: string })[]> {
  const post = (def: Def, body: object) => callRoute(target, def, { body });
  const list = async (def: typeof routes.licenses.pivots | typeof routes.licenses.sellers) => {
    const res = await callRoute(target, def);
    if (!res.ok) throw new Error(`assortment bench: ${rowName(def)} ${res.status}`);
    return ((await res.json()) as { id: number }[]).map((x) => x.id);
  };
  const pivots = await list(routes.licenses.pivots);
  const sellers = await list(routes.licenses.sellers);
  const base = (i: number) => assortmentBase(pivots, sellers, i);
  const shifted = (i: number) => assortmentShifted(pivots, sellers, i);
  const seller = (i: number) => sellers[i % sellers.length];

  const endpoints: BenchEndpoint[] = [];
  for (const kind of ['brand', 'ecommerce', 'stock'] as const) {
    endpoints.push(
      {
        name: rowName(r[kind], 'last 30 days'),
        call: (i) => post(r[kind], base(i)),
      },
      {
        name: rowName(r[kind], 'period varies'),
        call: (i) => post(r[kind], shifted(i)),
      },
    );
  }
  // Drill-downs (issue 14 part 5): every sort, the summary rows ('Todas' / 'Todos'), pages, a period that
  // ends before the sellers' latest run (read from the history's spans), and the three stock lists.
  const brandName = await topBrand(post, base(0));
  const drill = (def: Def, extra: (i: number) => object) => (i: number) =>
    post(def, { ...base(i), ...extra(i) });
  const SORTS = ['name', 'price', 'seller', 'brand', 'date'] as const;
  const sortOf = (i: number) => ({
    sort_by: SORTS[i % SORTS.length],
    sort: i % 2 ? 'desc' : 'asc',
  });
  endpoints.push(
    {
      name: rowName(r.ecommerceProducts, 'one seller, page varies'),
      call: drill(r.ecommerceProducts, (i) => ({ seller_id: seller(i), page: 1 + (i % 5) })),
    },
    {
      name: rowName(r.ecommerceProducts, 'Todos, sort varies, page varies'),
      call: drill(r.ecommerceProducts, (i) => ({ ...sortOf(i), page: 1 + (i % 4) })),
    },
    {
      name: rowName(r.brandProducts, 'summary row, sort by price'),
      call: drill(r.brandProducts, () => ({ sort_by: 'price', sort: 'desc' })),
    },
    {
      name: rowName(r.brandProducts, 'summary row, sort varies, page varies'),
      call: drill(r.brandProducts, (i) => ({ ...sortOf(i), page: 1 + (i % 7) })),
    },
    {
      name: rowName(r.brandProducts, 'one brand, sort varies'),
      call: drill(r.brandProducts, (i) => ({ ...sortOf(i), brand: brandName })),
    },
    {
      name: rowName(r.brandProducts, 'summary row, period ends 20-60 days ago'),
      call: (i) =>
        post(r.brandProducts, {
          ...base(i),
          ...sortOf(i),
          from_date: day(49 + (i % 40)),
          to_date: day(20 + (i % 40)),
        }),
    },
    {
      name: rowName(r.ecommerceProducts, 'one seller, 180 days ago to 90 days ago'),
      call: (i) =>
        post(r.ecommerceProducts, {
          ...base(i),
          ...sortOf(i),
          seller_id: seller(i),
          from_date: day(180),
          to_date: day(90 + (i % 5)),
        }),
    },
    {
      name: rowName(r.stockProducts, 'one seller, went_out'),
      call: drill(r.stockProducts, (i) => ({ seller_id: seller(i), stock: 'went_out' })),
    },
    {
      name: rowName(r.stockProducts, 'one seller, back_in, sort varies'),
      call: drill(r.stockProducts, (i) => ({
        ...sortOf(i),
        seller_id: seller(i),
        stock: 'back_in',
      })),
    },
    {
      name: rowName(r.stockProducts, 'Todos, went_out, 180 days, sort varies, page varies'),
      call: drill(r.stockProducts, (i) => ({
        ...sortOf(i),
        stock: 'went_out',
        from_date: day(179),
        // today in the market's zone (the demo organisation's): day(0), a UTC date, is tomorrow there
        // between 00:00 and 03:00 UTC and the request was refused
        to_date: isoDateInZone(new Date(), DEFAULT_TIMEZONE),
        page: 1 + (i % 3),
      })),
    },
    {
      name: rowName(r.stockProducts, 'one seller, out at the end'),
      call: drill(r.stockProducts, (i) => ({ seller_id: seller(i), stock: 'out' })),
    },
    {
      name: rowName(r.stockProducts, 'Todos, out at the end, sort varies'),
      call: drill(r.stockProducts, (i) => ({ ...sortOf(i), stock: 'out' })),
    },
    ...(await brandComparatorEndpoints(target, pivots)),
  );

  return measureEndpoints('assortment', endpoints, opts, { c1: 60, c16: 160, targets: () => TARGET });
}
