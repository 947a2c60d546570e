import { Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { formatNumber, formatPercent, formatPrice, type PromotionItemsResponse } from '@vigia/domain';
import { memo } from 'react';
import { seriesColor } from '../../../components/charts/index.js';
import { NumberCell } from '../../../components/data/DataTable.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { perClassificationState, useDuration } from '../api/queries.js';
import type { DrillTarget } from '../api/requests.js';
import { PctButton } from '../components/PctButton.js';
import { NoPromotions, PromotionCard, SellerName, usePromotionDrill } from '../components/PromotionParts.js';
import { PromotionsFrame, windowText } from '../components/PromotionsFrame.js';
import { useDrawnInSteps } from '../lib/use-drawn-in-steps.js';
import { usePromotionSearch } from '../lib/use-promotion-search.js';

const dayLabel = (d: number) => (d === 1 ? '1 día' : `${d} días`);

/** Memoised: drawing the other classifications' tables (second step) leaves the first alone. */
const DurationTable = memo(function DurationTable({
  answer,
  currency,
  onDrill,
}: {
  answer: PromotionItemsResponse;
  currency: string;
  onDrill: (t: DrillTarget) => void;
}) {
  const cls = answer.items[0]?.classifications[0];
  const days = [
    ...new Set(answer.items.flatMap((i) => (i.classifications[0]?.days ?? []).map((d) => d.day))),
  ].sort((a, b) => a - b);
  return (
    <PromotionCard
      testId="promo-duration"
      title={cls?.name}
      description="% de las promociones de cada eCommerce según cuántos días duraron; debajo, el precio promedio en promoción."
    >
      {days.length === 0 ? (
        <NoPromotions sx={{ px: 2, pb: 2 }} />
      ) : (
        <ScrollTable label={`Promociones por duración: ${cls?.name ?? ''}`}>
          <Table size="small" aria-label={`Promociones por duración: ${cls?.name ?? ''}`}>
            <TableHead>
              <TableRow>
                <TableCell>eCommerce</TableCell>
                <TableCell align="right">Promociones</TableCell>
                {days.map((d) => (
                  <TableCell key={d} align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {dayLabel(d)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {answer.items.map((it, i) => {
                const c = it.classifications[0];
                const byDay = new Map((c?.days ?? []).map((d) => [d.day, d]));
                const color = seriesColor(it.seller.color, i);
                return (
                  <TableRow key={it.seller.id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <SellerName name={it.seller.name} color={color} />
                    </TableCell>
                    <NumberCell>{formatNumber(c?.total ?? 0)}</NumberCell>
                    {days.map((d) => {
                      const x = byDay.get(d);
                      return (
                        <TableCell key={d} align="right" sx={{ p: 0.5 }}>
                          {x ? (
                            <PctButton
                              value={x.percentage}
                              color={color}
                              label={`${dayLabel(d)}: ${formatNumber(x.count)} promociones${x.running ? `, ${formatNumber(x.running)} en curso` : ''}`}
                              sub={formatPrice(x.prices.promotion, currency)}
                              onClick={() =>
                                onDrill({
                                  promotion: 'duration',
                                  sellerId: it.seller.id,
                                  sellerName: it.seller.name,
                                  classification: c.id,
                                  classificationName: c.name,
                                  day: d,
                                  label: `Promociones de ${dayLabel(d)}: ${formatPercent(x.percentage)}`,
                                })
                              }
                            />
                          ) : (
                            '—'
                          )}
                        </TableCell>
                      );
                    })}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </ScrollTable>
      )}
    </PromotionCard>
  );
});

/**
 * Promociones por duración (seed 001 §2): per classification (one call each), the share of each seller's
 * promotions that lasted 1, 2, 3 … days, with their average promotion price; a cell opens its products.
 */
export default function PromotionsByDurationPage() {
  const p = usePromotionSearch();
  const { state, answers, retry } = perClassificationState(p, useDuration(p.scope));
  const drill = usePromotionDrill(p);
  const empty =
    answers.length > 0 && answers.every((a) => a.items.every((i) => !i.classifications[0]?.total));
  // the first classification's table with the answer, the others right after (8 × 12 × 14 cells took
  // ~0.6 s in one task under load)
  const drawn = useDrawnInSteps(answers.length, 1);
  return (
    <PromotionsFrame
      p={p}
      description="Cuánto duran las promociones de cada eCommerce: porcentaje por cantidad de días, con sus precios."
      download="duration"
      state={state}
      isEmpty={empty}
      window={windowText(answers[0])}
      onRetry={retry}
    >
      <Stack spacing={2}>
        {answers.slice(0, drawn).map((a) => (
          <DurationTable
            key={a.items[0]?.classifications[0]?.id}
            answer={a}
            currency={a.currency}
            onDrill={drill.open}
          />
        ))}
      </Stack>
      {drill.dialog}
    </PromotionsFrame>
  );
}
