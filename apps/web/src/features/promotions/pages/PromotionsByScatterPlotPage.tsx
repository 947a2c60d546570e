import { Paper, Typography } from '@mui/material';
import { formatNumber, formatPrice, PROMOTION_BUBBLE_RADIUS } from '@vigia/domain';
import { useMemo } from 'react';
import { BubbleChart, seriesColor } from '../../../components/charts/index.js';
import { singleQueryState, useScatter } from '../api/queries.js';
import { PromotionsFrame, windowText } from '../components/PromotionsFrame.js';
import { usePromotionSearch } from '../lib/use-promotion-search.js';

/** Lines under a bubble's figures: a few of its products and how many more (a long list ran off the chart). */
export function bubbleDetails(count: number, products: readonly { name: string }[], shown = 5): string[] {
  const names = products.slice(0, shown).map((p) => p.name);
  const more = count - names.length;
  return more > 0 && names.length ? [...names, `y ${formatNumber(more)} más`] : names;
}

/**
 * Dispersión de precios (seed 001 §2): a bubble per seller and promotion-price bucket, price against the
 * number of products promoted at it (seller colours, radius 7), tooltip with the formatted price.
 */
export default function PromotionsByScatterPlotPage() {
  const p = usePromotionSearch();
  const { state, data, retry } = singleQueryState(p, useScatter(p.scope));
  const currency = data?.currency ?? p.currency;
  const series = useMemo(
    () =>
      (data?.items ?? [])
        .filter((it) => it.prices.length)
        .map((it, i) => ({
          id: it.seller.id,
          label: it.seller.name,
          color: seriesColor(it.seller.color, i),
          data: it.prices.map((pt) => ({
            x: pt.price,
            y: pt.count,
            r: PROMOTION_BUBBLE_RADIUS,
            details: bubbleDetails(pt.count, pt.data ?? []),
          })),
        })),
    [data],
  );
  const empty = !!data && series.length === 0;
  return (
    <PromotionsFrame
      p={p}
      description="Precio en promoción contra cantidad de productos promocionados a ese precio, por eCommerce."
      download="scatter-plot"
      state={state}
      isEmpty={empty}
      window={windowText(data)}
      onRetry={retry}
    >
      <Paper variant="outlined" sx={{ p: 2 }} data-testid="promo-scatter">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Cada burbuja reúne los productos con precio de promoción entre su precio y{' '}
          {formatPrice(data?.bucket ?? 0, currency)} más.
        </Typography>
        <BubbleChart
          series={series}
          formatX={(v) => formatPrice(v, currency)}
          formatY={(v) => formatNumber(v)}
          xTitle="Precio de promoción"
          yTitle="Productos"
          ariaLabel="Dispersión de precios de promoción por eCommerce"
          height={420}
        />
      </Paper>
    </PromotionsFrame>
  );
}
