import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateMatching, type LabelledPairInput } from './quality.js';

// The labelled set (bench/data/matching-pairs.json, made by bench/src/matching/generate-pairs.ts) held at
// a floor a little under the first measurement (docs/metrics.md "Matching quality"): auto precision
// 0.9966, auto recall 0.9867, suggestion recall 1.0, suggestion precision 0.8357.
const pairs: LabelledPairInput[] = JSON.parse(
  readFileSync(new URL('../../../../bench/data/matching-pairs.json', import.meta.url), 'utf8'),
);

describe('matching quality on the labelled set', () => {
  it('has at least 1,000 pairs, a quarter true matches', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(1000);
    expect(pairs.filter((p) => p.match).length / pairs.length).toBeCloseTo(0.25, 2);
  });
  it('keeps the floor: automatic precision ≥ 0.99, suggestions catch ≥ 0.98 of the true matches', () => {
    const r = evaluateMatching(pairs);
    expect(r.auto.precision).toBeGreaterThanOrEqual(0.99);
    expect(r.auto.recall).toBeGreaterThanOrEqual(0.95);
    expect(r.suggestions.recall).toBeGreaterThanOrEqual(0.98);
    expect(r.suggestions.precision).toBeGreaterThanOrEqual(0.8);
  });
});
