import { classifyScore, DEFAULT_MATCH_THRESHOLDS, type MatchThresholds, scoreTitles } from './score.js';

// Quality of the title scorer on a labelled set of pairs (bench/data/matching-pairs.json): precision,
// recall and F1 of the automatic decisions (score ≥ auto) and of the suggestions (score ≥ suggest, i.e.
// everything a person would see or that was matched automatically). Printed by `npm run bench`, held by
// quality.test.ts at a floor.

export interface LabelledPairInput {
  a: { title: string; brand?: string | null };
  b: { title: string; brand?: string | null };
  match: boolean;
  kind?: string;
}

export interface PrecisionRecall {
  predicted: number;
  truePositives: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface QualityReport {
  pairs: number;
  matches: number;
  auto: PrecisionRecall;
  suggestions: PrecisionRecall;
  /** wrongly auto-matched / wrongly suggested pairs by how they were made (trap kinds) */
  falseByKind: Record<string, { auto: number; suggested: number }>;
  /** true matches below the suggestion threshold (missed) */
  missed: number;
}

const pr = (predicted: number, tp: number, positives: number): PrecisionRecall => {
  const precision = predicted ? tp / predicted : 1;
  const recall = positives ? tp / positives : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  const r = (x: number) => Math.round(x * 10000) / 10000;
  return { predicted, truePositives: tp, precision: r(precision), recall: r(recall), f1: r(f1) };
};

export function evaluateMatching(
  pairs: LabelledPairInput[],
  t: MatchThresholds = DEFAULT_MATCH_THRESHOLDS,
): QualityReport {
  let positives = 0;
  let autoN = 0;
  let autoTp = 0;
  let sugN = 0;
  let sugTp = 0;
  const falseByKind: QualityReport['falseByKind'] = {};
  for (const p of pairs) {
    const c = classifyScore(scoreTitles(p.a, p.b).score, t);
    if (p.match) positives++;
    if (c === 'auto') {
      autoN++;
      if (p.match) autoTp++;
    }
    if (c !== 'none') {
      sugN++;
      if (p.match) sugTp++;
      else {
        const kind = p.kind ?? 'other';
        const k = falseByKind[kind] ?? { auto: 0, suggested: 0 };
        falseByKind[kind] = k;
        if (c === 'auto') k.auto++;
        else k.suggested++;
      }
    }
  }
  return {
    pairs: pairs.length,
    matches: positives,
    auto: pr(autoN, autoTp, positives),
    suggestions: pr(sugN, sugTp, positives),
    falseByKind,
    missed: positives - sugTp,
  };
}
