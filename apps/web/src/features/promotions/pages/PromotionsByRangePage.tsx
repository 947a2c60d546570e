import { Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { formatNumber, formatPercent, formatPrice, type RangeChartData } from '@vigia/domain';
import { memo } from 'react';
import { BarChart } from '../../../components/charts/index.js';
import { NumberCell } from '../../../components/data/DataTable.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { perClassificationState, useRange } from '../api/queries.js';
import { NoPromotions, PromotionCard } from '../components/PromotionParts.js';
import { PromotionsFrame, windowText } from '../components/PromotionsFrame.js';
import { useDrawnInSteps } from '../lib/use-drawn-in-steps.js';
import { usePromotionSearch } from '../lib/use-promotion-search.js';

/** The four bar colours of the range chart (seed 001 §2), cheapest range first. */
export const RANGE_COLORS = ['#7B1FA2', '#E91E63', '#FFA000', '#00897B'] as const;

/** 'Precios desde X hasta Y' (seed 001 §2). */
export function rangeLabel(points: number[], i: number, currency: string): string {
  return `Precios desde ${formatPrice(points[i], currency)} hasta ${formatPrice(points[i + 1], currency)}`;
}

/** Memoised: drawing the other classifications (second step) leaves the first alone. */
const RangeChart = memo(function RangeChart({ data, currency }: { data: RangeChartData; currency: string }) {
  const ranges = Math.max(0, data.range_points.length - 1);
  const labels = Array.from({ length: ranges }, (_, i) => rangeLabel(data.range_points, i, currency));
  const sellers = data.sellers.filter((s) => s.total > 0);
  return (
    <PromotionCard
      padded
      testId="promo-range"
      title={data.classification.name}
      description="% de las promociones de cada eCommerce en cada rango de precio de promoción (cada rango reúne un cuarto de todas las promociones de la clasificación)."
    >
      {sellers.length === 0 ? (
        <NoPromotions />
      ) : (
        <>
          <BarChart
            labels={sellers.map((s) => s.name)}
            series={labels.map((label, i) => ({
              id: i,
              label,
              color: RANGE_COLORS[i % RANGE_COLORS.length],
              data: sellers.map((s) => s.prices[i]?.price ?? 0),
            }))}
            stacked
            min={0}
            max={100}
            formatValue={(v) => formatPercent(v)}
            ariaLabel={`Promociones por rango de precios: ${data.classification.name}`}
            height={300}
          />
          <ScrollTable label={`Rangos de precios: ${data.classification.name}`} sx={{ mt: 1 }}>
            <Table size="small" aria-label={`Rangos de precios: ${data.classification.name}`}>
              <TableHead>
                <TableRow>
                  <TableCell>eCommerce</TableCell>
                  {labels.map((l) => (
                    <TableCell key={l} align="right">
                      {l}
                    </TableCell>
                  ))}
                  <TableCell align="right">Promociones</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {sellers.map((s) => (
                  <TableRow key={s.id}>
                    <TableCell>{s.name}</TableCell>
                    {s.prices.map((p, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: ranges are positional
                      <NumberCell key={i}>
                        {formatPercent(p.price)} ({formatNumber(p.count)})
                      </NumberCell>
                    ))}
                    <NumberCell>{formatNumber(s.total)}</NumberCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ScrollTable>
        </>
      )}
    </PromotionCard>
  );
});

/**
 * Promociones por rango (seed 001 §2): one call per classification (range 4); a stacked bar chart per
 * classification with the four price ranges 'Precios desde X hasta Y' in four colours, and its table.
 */
export default function PromotionsByRangePage() {
  const p = usePromotionSearch();
  const { state, answers, retry } = perClassificationState(p, useRange(p.scope));
  const empty =
    answers.length > 0 && answers.every((a) => a.items.every((r) => r.sellers.every((s) => !s.total)));
  // the first classification's chart and table with the answer, the others right after (issue 31 item 11)
  const drawn = useDrawnInSteps(
    answers.reduce((n, a) => n + a.items.length, 0),
    1,
  );
  return (
    <PromotionsFrame
      p={p}
      description="Cómo se reparten los precios en promoción de cada eCommerce entre cuatro rangos de precio."
      download="range"
      state={state}
      isEmpty={empty}
      window={windowText(answers[0])}
      onRetry={retry}
    >
      <Stack spacing={2}>
        {answers
          .flatMap((a) => a.items.map((r) => ({ r, currency: a.currency })))
          .slice(0, drawn)
          .map(({ r, currency }) => (
            <RangeChart key={r.classification.id} data={r} currency={currency} />
          ))}
      </Stack>
    </PromotionsFrame>
  );
}
