import { Paper, Typography } from '@mui/material';
import { type AssortmentRow, formatNumber, formatPercent } from '@vigia/domain';
import { BarChart, ChartContainer } from '../../../components/charts/index.js';
import { POSITION } from '../../../components/data/position-colors.js';
import type { AssortmentKind } from '../api/requests.js';
import { ASSORTMENT_TEXT } from '../lib/texts.js';

const TOP = 12;

/**
 * The picture of the table: participation of the largest brands / sellers (by brand, by e-commerce), or
 * the period's availability changes per seller (by stock).
 */
export function AssortmentChart({
  kind,
  rows,
  loading,
  error,
  onRetry,
}: {
  kind: AssortmentKind;
  rows: AssortmentRow[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
}) {
  const list = (rows ?? []).filter((r) => !r.summary);
  const stock = kind === 'stock';
  const top = stock ? list : [...list].sort((a, b) => b.total_products - a.total_products).slice(0, TOP);
  const series = stock
    ? [
        {
          id: 'out',
          label: ASSORTMENT_TEXT.columns.wentOut,
          // the product's position palette (colour-blind safe) and a hatch: never red vs green alone
          color: POSITION.dearer.main,
          pattern: 'hatch' as const,
          data: top.map((r) => r.went_out_of_stock),
        },
        {
          id: 'back',
          label: ASSORTMENT_TEXT.columns.backIn,
          color: POSITION.cheaper.main,
          data: top.map((r) => r.back_in_stock),
        },
      ]
    : [
        {
          id: 'participation',
          label: ASSORTMENT_TEXT.columns.participation,
          data: top.map((r) => r.participation),
        },
      ];
  const status = loading ? 'pending' : error ? 'error' : 'ready';
  const empty = stock ? top.every((r) => !r.went_out_of_stock && !r.back_in_stock) : top.length === 0;
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {stock ? ASSORTMENT_TEXT.stockChartTitle : ASSORTMENT_TEXT.chartTitle}
      </Typography>
      {stock && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="stock-chart-key">
          {ASSORTMENT_TEXT.stockChartKey}
        </Typography>
      )}
      <ChartContainer
        status={status}
        empty={empty}
        onRetry={onRetry}
        height={Math.max(220, top.length * 28 + 60)}
        emptyText={stock ? 'Ningún producto cambió de disponibilidad en el período.' : undefined}
      >
        <BarChart
          labels={top.map((r) => r.name)}
          series={series}
          horizontal
          height={Math.max(220, top.length * 28 + 60)}
          showLegend={stock}
          min={0}
          formatValue={(v) => (stock ? formatNumber(v) : formatPercent(v))}
          ariaLabel={
            stock
              ? `Productos que salieron y volvieron a stock por eCommerce: ${top.map((r) => `${r.name} ${r.went_out_of_stock} y ${r.back_in_stock}`).join(', ')}`
              : `Participación en productos: ${top.map((r) => `${r.name} ${formatPercent(r.participation)}`).join(', ')}`
          }
        />
      </ChartContainer>
    </Paper>
  );
}
