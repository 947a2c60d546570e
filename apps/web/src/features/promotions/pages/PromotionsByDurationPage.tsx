import {
  Box,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { formatNumber, formatPercent, formatPrice, type PromotionItemsResponse } from '@vigia/domain';
import { useState } from 'react';
import { seriesColor } from '../../../components/charts/index.js';
import { NumberCell } from '../../../components/data/DataTable.js';
import { moduleState, useDuration } from '../api/queries.js';
import type { DrillTarget } from '../api/requests.js';
import { DrillDialog } from '../components/DrillDialog.js';
import { PctButton } from '../components/PctButton.js';
import { PromotionsFrame, windowText } from '../components/PromotionsFrame.js';
import { usePromotionSearch } from '../lib/use-promotion-search.js';

const dayLabel = (d: number) => (d === 1 ? '1 día' : `${d} días`);

function DurationTable({
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
    <Paper variant="outlined" data-testid="promo-duration">
      <Typography variant="subtitle1" sx={{ fontWeight: 600, px: 2, pt: 1.5 }}>
        {cls?.name}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
        % de las promociones de cada eCommerce según cuántos días duraron; debajo, el precio promedio en
        promoción.
      </Typography>
      {days.length === 0 ? (
        <Typography sx={{ px: 2, pb: 2 }} color="text.secondary">
          Sin promociones en esta clasificación.
        </Typography>
      ) : (
        <TableContainer>
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
                      <Box
                        component="span"
                        sx={{
                          display: 'inline-block',
                          width: 10,
                          height: 10,
                          borderRadius: '50%',
                          bgcolor: color,
                          mr: 1,
                        }}
                      />
                      {it.seller.name}
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
        </TableContainer>
      )}
    </Paper>
  );
}

/**
 * Promociones por duración (seed 001 §2): per classification (one call each), the share of each seller's
 * promotions that lasted 1, 2, 3 … days, with their average promotion price; a cell opens its products.
 */
export default function PromotionsByDurationPage() {
  const p = usePromotionSearch();
  const queries = useDuration(p.scope);
  const failed = queries.find((q) => q.isError);
  const state = moduleState(
    p.scope.filters
      ? {
          data: queries.map((q) => q.data),
          isPending: queries.some((q) => q.isPending),
          fetchStatus: queries.some((q) => q.fetchStatus !== 'idle') ? 'fetching' : 'idle',
          error: failed?.error ?? null,
        }
      : null,
    p.invalidFields,
  );
  const [drill, setDrill] = useState<DrillTarget | null>(null);
  const answers = queries.flatMap((q) => (q.data ? [q.data] : []));
  const empty =
    answers.length > 0 && answers.every((a) => a.items.every((i) => !i.classifications[0]?.total));
  return (
    <PromotionsFrame
      p={p}
      description="Cuánto duran las promociones de cada eCommerce: porcentaje por cantidad de días, con sus precios."
      download="duration"
      state={state}
      isEmpty={empty}
      window={windowText(answers[0])}
      onRetry={() => {
        for (const q of queries) if (q.isError) void q.refetch();
      }}
    >
      <Stack spacing={2}>
        {answers.map((a) => (
          <DurationTable
            key={a.items[0]?.classifications[0]?.id}
            answer={a}
            currency={a.currency}
            onDrill={setDrill}
          />
        ))}
      </Stack>
      <DrillDialog
        target={drill}
        filters={p.scope.filters}
        pivotId={p.scope.pivotId}
        currency={p.currency}
        onClose={() => setDrill(null)}
      />
    </PromotionsFrame>
  );
}
