// Image verification (issue 15): the screen's endpoints under load (target: items and kpis p95 ≤ 100 ms at
// concurrency 1 on the medium market) and the measure's throughput in pictures per second (the cost of
// the backfill: pairs waiting ÷ this rate, per worker). Called by run.ts with a running server and a token
// of demo@example.com. The throughput rows run in the bench process on the built modules (one core).
import { routes } from '@vigia/domain';
import {
  type BenchOptions,
  type BenchTarget,
  callRoute,
  type LatencyResult,
  measure,
  measureEndpoints,
  percentile,
  type QueryValue,
  rowName,
} from './http.js';

const TARGET = 'p95 ≤ 100 ms at c1';
type Row = LatencyResult & { target: string };

const built = (path: string) => new URL(`../../apps/server/dist/${path}`, import.meta.url).href;

/** Pictures per second of the measure alone (pictures already encoded) and of drawing + measuring. */
async function throughput(): Promise<Row[]> {
  const pictures = (await import(
    built('platform/media/pictures.js')
  )) as typeof import('../../apps/server/src/platform/media/pictures.js');
  const similarity = (await import(
    built('modules/image-verification/similarity.js')
  )) as typeof import('../../apps/server/src/modules/image-verification/similarity.js');
  const icons = ['fridge', 'washer', 'tv', 'phone', 'can', 'bottle', 'box', 'bag', 'kettle', 'laptop'];
  const keys = icons.map((icon, i) => `${icon}-BENCH-${7_801_234_500_000 + i * 7919}`);
  const drawTimes: number[] = [];
  const pairs: { ref: Buffer; img: Buffer }[] = [];
  for (const key of keys) {
    const ref = (await pictures.renderPicture(pictures.pictureFileOf(key)))?.bytes as Buffer;
    for (const kind of pictures.PICTURE_KINDS) {
      const t = performance.now();
      const img = (await pictures.renderPicture(pictures.pictureFileOf(key, kind)))?.bytes as Buffer;
      drawTimes.push(performance.now() - t);
      pairs.push({ ref, img });
    }
  }
  const times: number[] = [];
  const t0 = performance.now();
  for (const p of pairs) {
    const t = performance.now();
    await similarity.measureSimilarity(p.ref, p.img);
    times.push(performance.now() - t);
  }
  const rate = pairs.length / ((performance.now() - t0) / 1000);
  const row = (name: string, ts: number[]): Row => {
    const sorted = [...ts].sort((a, b) => a - b);
    return {
      name,
      concurrency: 1,
      requests: sorted.length,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      max: sorted[sorted.length - 1],
      errors: 0,
      target: 'throughput (ms per picture)',
    };
  };
  return [
    row(`image measure, one pair (all 7 kinds): ${rate.toFixed(1)} pictures/s on one core`, times),
    row('image drawing, one demo seller picture (sharp, cached on disk after)', drawTimes),
  ];
}

export async function benchImageVerification(target: BenchTarget, opts: BenchOptions = {}): Promise<Row[]> {
  const r = routes.imageVerification;
  const get = (def: typeof r.items | typeof r.kpis, query: Record<string, QueryValue>) =>
    callRoute(target, def, { query });
  const res = await callRoute(target, routes.licenses.pivots);
  const pivots = ((await res.json()) as { id: number }[]).map((x) => x.id);
  const pivot = (i: number) => pivots[i % pivots.length];
  const endpoints = [
    {
      name: rowName(r.items, 'latest date, page varies'),
      call: (i: number) => get(r.items, { pivotId: pivot(i), skip: (i % 8) * 25 }),
    },
    {
      name: rowName(r.items, 'for review'),
      call: (i: number) => get(r.items, { pivotId: pivot(i), imageClass: 'forReview' }),
    },
    {
      name: rowName(r.kpis),
      call: (i: number) => get(r.kpis, { pivotId: pivot(i) }),
    },
  ];
  const out = await measureEndpoints('image-verification', endpoints, opts, {
    c1: 60,
    c16: 160,
    targets: () => TARGET,
  });
  // The XLSX of the whole latest date (no class filter, up to IMAGE_XLSX_MAX_ROWS rows), token in the query
  // as the browser's download link sends it: a few sequential downloads.
  const xlsx = rowName(r.itemsXlsx, 'whole latest date, token in the query');
  // the download and the throughput rows are not latency rows at a concurrency: left out of a c16-only run
  if (opts.concurrencies) return out;
  if (!opts.only || opts.only.test(xlsx)) {
    const download = (i: number) =>
      callRoute(target, r.itemsXlsx, { query: { pivotId: pivot(i), authToken: target.token }, token: null });
    let i = 0;
    const row = { ...(await measure(xlsx, () => download(i++), { requests: 6, warmup: 1 })), target: 'time' };
    opts.onResult?.(row);
    out.push(row);
  }
  const throughputRows = /image (measure|drawing)/;
  if (!opts.only || opts.only.test('image measure') || opts.only.test('image drawing')) {
    for (const row of await throughput()) {
      if (opts.only && !throughputRows.test(row.name)) continue;
      opts.onResult?.(row);
      out.push(row);
    }
  }
  return out;
}
