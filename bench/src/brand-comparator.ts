// Brand price comparator rows (issue 14: GET /v2/navigation/dpm/brand-comparator, p95 ≤ 100 ms at c1 and
// ≤ 400 ms at c16 on the medium market over 180 days, all competitors, several brand selections and
// periods). Used by assortment.ts's bench (the same target and request budget). Every row compares with
// every licensed competitor (the screen's default); the pivot alternates; "period varies" shifts the
// 180-day window by a day per request so most requests miss any answer memo.
import { DEFAULT_TIMEZONE, isoDateInZone, routes } from '@vigia/domain';
import { type BenchEndpoint, type BenchTarget, callRoute, type QueryValue, rowName } from './http.js';

const COMPARATOR = routes.brandComparator.comparator;
const get = (target: BenchTarget, query: Record<string, QueryValue>) =>
  callRoute(target, COMPARATOR, { query });
/** The day `offset` days before today in the market's zone (a UTC date is tomorrow there from 00:00 to 03:00 UTC). */
const day = (offset: number) => isoDateInZone(new Date(Date.now() - offset * 86_400_000), DEFAULT_TIMEZONE);

/** The comparator's rows: default selection, 180 days, own brands, picked brands, shifted periods. */
export async function brandComparatorEndpoints(
  target: BenchTarget,
  pivots: number[],
): Promise<BenchEndpoint[]> {
  const res = await callRoute(target, routes.licenses.brands, { body: { sellers: pivots } });
  const brands = res.ok ? ((await res.json()) as { id: number; own: boolean }[]) : [];
  const others = brands.filter((b) => !b.own).map((b) => b.id);
  const pick = (i: number, n: number) =>
    Array.from({ length: n }, (_, j) => others[(i * n + j) % Math.max(1, others.length)]).join(',');
  const pivot = (i: number) => pivots[i % pivots.length];
  // The server loads the trend's price history in the background after start (brand-comparator/history.ts;
  // requests meanwhile read the database): the rows measure the steady state, after that warm-up.
  const started = performance.now();
  for (const p of pivots) {
    for (;;) {
      const t = performance.now();
      await (
        await get(target, { pivot_id: p, ownBrands: true, from_date: day(179), to_date: day(0) })
      ).arrayBuffer();
      if (performance.now() - t < 300 || performance.now() - started > 180_000) break;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  console.log(`  brand comparator: warm-up ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const days180 = { from_date: day(179), to_date: day(0) };
  return [
    {
      name: rowName(COMPARATOR, 'default: own brands, 30 days'),
      call: (i) => get(target, { pivot_id: pivot(i) }),
    },
    {
      name: rowName(COMPARATOR, 'own brands, 180 days'),
      call: (i) => get(target, { pivot_id: pivot(i), ownBrands: true, ...days180 }),
    },
    {
      name: rowName(COMPARATOR, '3 picked brands vary, 180 days'),
      call: (i) => get(target, { pivot_id: pivot(i), brands: pick(i, 3), ...days180 }),
    },
    {
      name: rowName(COMPARATOR, '10 picked brands vary, 180 days'),
      call: (i) => get(target, { pivot_id: pivot(i), brands: pick(i, 10), ...days180 }),
    },
    {
      name: rowName(COMPARATOR, 'own brands, 180-day period varies'),
      call: (i) => get(target, { pivot_id: pivot(i), from_date: day(179 + (i % 40)), to_date: day(i % 40) }),
    },
  ];
}
