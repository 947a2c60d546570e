import { round2 } from '@vigia/domain';
import type { WindowScope } from './distribution.js';
import {
  niceStep,
  rangeChart,
  releaseScratch,
  type ScatterRow,
  scatterChart,
  typeChart,
} from './distribution.js';
import type { SellerSpans } from './model.js';
import { buildRangeIndex, type RangeIndex, rangeFromIndex } from './range-index.js';
import {
  buildScatterIndex,
  buildScatterPairs,
  type ScatterIndex,
  type ScatterPairs,
  scatterFromPairs,
} from './scatter-index.js';
import { buildTypeIndex, type TypeIndex } from './type-index.js';

// The jobs of the chart threads (chart-pool.ts runs computeChart there; tests call it here): the range,
// scatter-plot and type charts (distribution.ts) and, for the scatter plot of a window ending on or after
// the copies' latest first day, its index, its pairs per width and the answer from them (scatter-index.ts),
// the type sums and the range chart's bins of such windows (type-index.ts, range-index.ts).

/** One chart to compute (here or in a thread of chart-pool.ts; the columns travel shared). */
export type ChartJob =
  | { kind: 'scatter'; models: SellerSpans[]; scope: WindowScope; sample: number }
  | { kind: 'range'; models: SellerSpans[]; scope: WindowScope; ranges: number }
  | { kind: 'type'; models: SellerSpans[]; scope: WindowScope }
  | { kind: 'scatter-index'; models: SellerSpans[]; scope: WindowScope }
  | { kind: 'type-index'; models: SellerSpans[]; scope: WindowScope }
  | { kind: 'range-index'; models: SellerSpans[]; scope: WindowScope }
  | {
      kind: 'range-answer';
      models: SellerSpans[];
      scope: WindowScope;
      index: RangeIndex;
      fi: number;
      ranges: number;
    }
  | {
      kind: 'scatter-pairs';
      models: SellerSpans[];
      scope: WindowScope;
      width: number;
      index: Pick<ScatterIndex, 'd0' | 'cap'>;
    }
  | {
      kind: 'scatter-answer';
      models: SellerSpans[];
      pairs: ScatterPairs[];
      fi: number;
      width: number;
      sample: number;
    };

export type ChartResult<J extends ChartJob> = J extends { kind: 'scatter' }
  ? ReturnType<typeof scatterChart>
  : J extends { kind: 'range' } | { kind: 'range-answer' }
    ? ReturnType<typeof rangeChart>
    : J extends { kind: 'type' }
      ? ReturnType<typeof typeChart>
      : J extends { kind: 'scatter-index' }
        ? ScatterIndex
        : J extends { kind: 'scatter-pairs' }
          ? ScatterPairs[]
          : J extends { kind: 'type-index' }
            ? TypeIndex
            : J extends { kind: 'range-index' }
              ? RangeIndex
              : ScatterRow[];

export function computeChart<J extends ChartJob>(job: J): ChartResult<J> {
  try {
    return run(job) as ChartResult<J>;
  } finally {
    releaseScratch();
  }
}

function run(job: ChartJob) {
  switch (job.kind) {
    case 'scatter':
      return scatterChart(job.models, job.scope, niceStep, job.sample);
    case 'range':
      return rangeChart(job.models, job.scope, job.ranges, round2);
    case 'type':
      return typeChart(job.models, job.scope);
    case 'scatter-index':
      return buildScatterIndex(job.models, job.scope, niceStep);
    case 'range-index':
      return buildRangeIndex(job.models, job.scope);
    case 'range-answer':
      return rangeFromIndex(job.models, job.scope, job.index, job.fi, job.ranges, round2);
    case 'type-index':
      return buildTypeIndex(job.models, job.scope);
    case 'scatter-pairs':
      return buildScatterPairs(job.models, job.scope, job.width, job.index);
    case 'scatter-answer':
      return scatterFromPairs(job.models, job.pairs, job.fi, job.width, job.sample);
  }
}
