import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { formatDate, formatNumber, formatPrice, MESSAGES } from '@vigia/domain';
import { useCallback, useMemo } from 'react';
import { ChartContainer, type LoadStatus } from '../../../components/charts/ChartContainer.js';
import { LineChart } from '../../../components/charts/LineChart.js';
import { MarkerLegend } from '../../../components/charts/MarkerLegend.js';
import { useFailureNotice } from '../../../lib/load.js';
import { type DetailScope, detailQueries } from '../api/queries.js';
import { buildHistoryChart, isHistoryEmpty } from '../history-series.js';
import { useUrlPeriod } from '../period.js';
import { DownloadHistoryButton } from './DownloadHistoryButton.js';
import { PeriodPicker } from './PeriodPicker.js';
import { SectionCard } from './SectionCard.js';

export interface HistorySectionProps {
  /** Vigía listing id of the product */
  productId: number;
  scope: DetailScope;
  /** the listing's seller (sent as seller_id) */
  sellerId?: number;
  /** show the position-history chart under the prices */
  showPositions?: boolean;
  /** the listing whose daily history the download button gives (my listing of this product) */
  download?: { productId: string; sellerId: number } | null;
}

/**
 * 'Histórico': price lines per seller (seller colours, the seed's markers) over a period — one month
 * back to today by default — and the position of each seller in the daily ranking.
 */
export function HistorySection({
  productId,
  scope,
  sellerId,
  showPositions = true,
  download,
}: HistorySectionProps) {
  const [period, setPeriod] = useUrlPeriod();
  const query = useQuery(detailQueries.history(productId, period, scope, sellerId));
  useFailureNotice(query, MESSAGES.priceHistoryFailed);
  const chart = useMemo(() => (query.data ? buildHistoryChart(query.data.sellers) : null), [query.data]);
  const status: LoadStatus = query.isPending ? 'pending' : query.isError && !query.data ? 'error' : 'ready';
  const empty = !chart || isHistoryEmpty(chart);
  const currency = query.data?.currency ?? scope.currency;
  const money = useCallback((v: number) => formatPrice(v, currency), [currency]);
  const position = useCallback((v: number) => `${formatNumber(v)}.º`, []);
  const maxPosition = useMemo(
    () =>
      Math.max(1, ...(chart?.positions.flatMap((s) => s.data.filter((v): v is number => v !== null)) ?? [1])),
    [chart],
  );

  return (
    <SectionCard
      title="Histórico"
      subtitle={`Precio de cada eCommerce por día, del ${formatDate(period.from)} al ${formatDate(period.to)}. El marcador indica el tipo de precio y los quiebres de stock.`}
      actions={
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <PeriodPicker value={period} onChange={setPeriod} />
          {download && (
            <DownloadHistoryButton
              productId={download.productId}
              sellerId={download.sellerId}
              currency={currency}
              period={period}
            />
          )}
        </Box>
      }
    >
      <Box sx={{ position: 'relative' }}>
        {query.isFetching && !query.isPending && (
          <LinearProgress
            aria-label="Actualizando histórico"
            sx={{ position: 'absolute', top: -12, left: 0, right: 0, height: 2 }}
          />
        )}
        <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
          Precio por eCommerce
        </Typography>
        <ChartContainer
          status={status}
          empty={empty}
          emptyText="No hay precios registrados en este período. Prueba con un período más largo."
          errorText="No pudimos cargar el histórico de precios."
          onRetry={() => query.refetch()}
          height={340}
        >
          {chart && (
            <LineChart
              labels={chart.labels}
              series={chart.prices}
              formatValue={money}
              ariaLabel={`Histórico de precios por eCommerce entre ${chart.labels[0] ?? ''} y ${chart.labels.at(-1) ?? ''}`}
              height={340}
              stepped
            />
          )}
        </ChartContainer>
        <Box sx={{ mt: 1.5 }}>
          <MarkerLegend />
        </Box>
        {showPositions && (
          <Box sx={{ mt: 3 }}>
            <Typography variant="subtitle2" component="h3">
              Posición en el ranking
            </Typography>
            <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mb: 1 }}>
              1.º es el precio más bajo del día.
            </Typography>
            <ChartContainer
              status={status}
              empty={empty}
              emptyText="Sin posiciones en este período."
              height={240}
            >
              {chart && (
                <LineChart
                  labels={chart.labels}
                  series={chart.positions}
                  formatValue={position}
                  ariaLabel="Histórico de la posición de cada eCommerce en el ranking de precios"
                  height={240}
                  reverse
                  integerTicks
                  yMin={1}
                  yMax={maxPosition}
                />
              )}
            </ChartContainer>
          </Box>
        )}
      </Box>
    </SectionCard>
  );
}
