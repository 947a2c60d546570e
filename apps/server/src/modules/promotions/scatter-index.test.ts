import { round2 } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import { computeChart } from './charts.js';
import { niceStep, rangeChart, scatterChart, type WindowScope } from './distribution.js';
import { RUNNING, type SellerSpans } from './model.js';
import { fromIndex } from './scatter-index.js';

// The scatter plot from the kept index and pairs (scatter-index.ts) against the pass over the window's
// promotions (distribution.ts scatterChart, itself compared with the SQL in promotions-model.test.ts), on
// copies large enough for the index's sampled price bins: prices repeated by thousands (a bin of their own),
// spread prices, listings with several promotions in one bucket, running ones, prices without a rate,
// leaves asked twice.

const DAY = 20_000;
const DAYS = 90;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function copy(sellerId: number, listings: number, seed: number): SellerSpans {
  const r = rng(seed);
  const rows: { product: number; leaf: number; first: number; last: number; promo: number; cur: number }[] =
    [];
  for (let l = 0; l < listings; l++) {
    const product = sellerId * 1_000_000 + l;
    let day = DAY + Math.floor(r() * 20);
    const base = r() < 0.4 ? 9_990 : Math.round(1_000 + r() * 200_000); // a price thousands share
    while (day < DAY + DAYS) {
      const length = 1 + Math.floor(r() * 12);
      const last =
        day + length - 1 >= DAY + DAYS - 1 && r() < 0.7
          ? RUNNING
          : Math.min(day + length - 1, DAY + DAYS - 1);
      rows.push({
        product,
        leaf: 1 + Math.floor(r() * 6),
        first: day,
        last,
        promo: r() < 0.02 ? Number.NaN : r() < 0.5 ? base : base * (0.5 + r() * 0.5),
        cur: r() < 0.1 ? 1 : 0,
      });
      if (last === RUNNING) break;
      day = last + 1 + Math.floor(r() * 15);
    }
  }
  const n = rows.length;
  const col = <T extends { [k: number]: number }>(
    make: (k: number) => T,
    f: (x: (typeof rows)[0]) => number,
  ) => {
    const a = make(n);
    rows.forEach((x, i) => {
      a[i] = f(x);
    });
    return a;
  };
  return {
    sellerId,
    zone: 'America/Santiago',
    version: '1:0',
    deleted: '0',
    lastRunDay: DAY + DAYS - 1,
    n,
    minFirst: Math.min(...rows.map((x) => x.first)),
    product: col(
      (k) => new Float64Array(k),
      (x) => x.product,
    ),
    leaf: col(
      (k) => new Int32Array(k),
      (x) => x.leaf,
    ),
    first: col(
      (k) => new Uint16Array(k),
      (x) => x.first,
    ),
    last: col(
      (k) => new Uint16Array(k),
      (x) => x.last,
    ),
    promo: col(
      (k) => new Float64Array(k),
      (x) => x.promo,
    ),
    normal: col(
      (k) => new Float64Array(k),
      (x) => x.promo * 1.3,
    ),
    type: new Uint8Array(n),
    cur: col(
      (k) => new Uint8Array(k),
      (x) => x.cur,
    ),
  };
}

/** Factors: currency 0 at 1, currency 1 at a rate moving by day, missing on some days. */
function scopeOf(models: SellerSpans[], leaves: number[], from: number, to: number): WindowScope {
  const day0 = Math.min(...models.map((s) => s.minFirst));
  const span = to - day0 + 1;
  const fx = new Float64Array(2 * span);
  for (let d = 0; d < span; d++) {
    fx[d] = 1;
    fx[span + d] = d % 17 === 5 ? Number.NaN : 900 + (d % 7) * 3.25;
  }
  return { leaves, classes: leaves.map(() => 1), from, to, fx, day0, span, fxKey: 'CLP' };
}

function fromPairs(models: SellerSpans[], scope: WindowScope, sample: number) {
  const index = computeChart({ kind: 'scatter-index', models, scope });
  const fi = fromIndex(index, scope.from);
  const width = index.widths[fi];
  const pairs = computeChart({ kind: 'scatter-pairs', models, scope, width, index });
  return { width, rows: computeChart({ kind: 'scatter-answer', models, pairs, fi, width, sample }) };
}

describe('the scatter plot from its index and pairs (scatter-index.ts)', () => {
  const models = [copy(5, 6_000, 1), copy(116, 9_000, 2), copy(31, 3_000, 3)];
  const promotions = models.reduce((n, s) => n + s.n, 0);

  it('equals the pass over the window for every first day, up to and after the last', () => {
    expect(promotions).toBeGreaterThan(50_000); // more than the index's sample: its price bins are sampled
    let compared = 0;
    const widths = new Set<number>();
    for (const leaves of [
      [1, 2, 3, 4, 5, 6],
      [2, 3],
      [1, 1, 4],
    ])
      for (let from = DAY - 3; from <= DAY + DAYS + 2; from += leaves.length === 6 ? 1 : 4) {
        const scope = scopeOf(models, leaves, from, DAY + DAYS - 1 + (from % 3));
        const sample = from % 2 ? 5 : 0;
        const mine = fromPairs(models, scope, sample);
        expect(mine).toEqual(scatterChart(models, scope, niceStep, sample));
        compared += mine.rows.length;
        widths.add(mine.width);
      }
    expect(compared).toBeGreaterThan(5_000);
    expect(widths.size).toBeGreaterThan(1); // the width moves with the first day: several percentiles found
  });

  it('give the range chart of every first day from its bins (range-index.ts)', () => {
    let compared = 0;
    for (const leaves of [
      [1, 2, 3, 4, 5, 6],
      [2, 3],
      [1, 1, 4],
    ]) {
      const index = computeChart({
        kind: 'range-index',
        models,
        scope: scopeOf(models, leaves, DAY, DAY + DAYS),
      });
      for (let from = DAY - 2; from <= DAY + DAYS + 1; from += 3) {
        const scope = scopeOf(models, leaves, from, DAY + DAYS - 1 + (from % 3));
        const ranges = 2 + (from % 9);
        const mine = computeChart({
          kind: 'range-answer',
          models,
          scope,
          index,
          fi: fromIndex(index, from),
          ranges,
        });
        expect(mine).toEqual(rangeChart(models, scope, ranges, round2));
        compared += mine.counts.length;
      }
    }
    expect(compared).toBeGreaterThan(1_000);
  });

  it('knows no promotion when none is counted', () => {
    const scope = scopeOf(models, [99], DAY, DAY + DAYS - 1);
    expect(fromPairs(models, scope, 5)).toEqual({ width: niceStep(0), rows: [] });
    expect(scatterChart(models, scope, niceStep, 5)).toEqual({ width: niceStep(0), rows: [] });
  });
});
