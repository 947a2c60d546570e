import LeaderboardOutlinedIcon from '@mui/icons-material/LeaderboardOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { useQuery } from '@tanstack/react-query';
import { formatDate, formatPrice, isFound, MESSAGES, type ProductInfo } from '@vigia/domain';
import { useCallback, useMemo } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ChartContainer, type LoadStatus } from '../../../components/charts/ChartContainer.js';
import { LineChart } from '../../../components/charts/LineChart.js';
import { MarkerLegend } from '../../../components/charts/MarkerLegend.js';
import { ErrorState } from '../../../components/data/DataTable.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { useFailureNotice } from '../../../lib/load.js';
import { useUserSettings } from '../../../lib/settings.js';
import { detailQueries } from '../api/queries.js';
import { DownloadHistoryButton } from '../components/DownloadHistoryButton.js';
import { NotFoundView } from '../components/NotFoundView.js';
import { PeriodPicker } from '../components/PeriodPicker.js';
import { ProductHeader, type ProductHeaderData } from '../components/ProductHeader.js';
import { QmiInfoPanel } from '../components/QmiInfoPanel.js';
import { SectionCard } from '../components/SectionCard.js';
import { buildQmiHistoryChart } from '../history-series.js';
import { productPath } from '../links.js';
import { useUrlPeriod } from '../period.js';

function headerOf(info: ProductInfo): ProductHeaderData {
  return {
    name: info.name,
    image: info.image,
    brand: info.brand,
    sku: info.sku,
    ean: info.ean,
    breadcrumb: info.breadcrumb,
    seller: info.seller,
    url: info.url,
    classification: info.classification,
  };
}

function QmiHistory({
  info,
  productId,
  sellerId,
  currency,
}: {
  info: ProductInfo | null;
  productId: string;
  sellerId: number;
  currency: string;
}) {
  const [period, setPeriod] = useUrlPeriod();
  const query = useQuery(detailQueries.qmiHistory(productId, sellerId, currency, period));
  useFailureNotice(query, MESSAGES.priceHistoryFailed);
  const infoSeller = info?.seller;
  const seller = useMemo(
    () => infoSeller ?? { id: sellerId, name: 'eCommerce', color: '#6a1b9a' },
    [infoSeller, sellerId],
  );
  const chart = useMemo(
    () => (query.data ? buildQmiHistoryChart(query.data.prices, seller) : null),
    [query.data, seller],
  );
  const status: LoadStatus = query.isPending ? 'pending' : query.isError && !query.data ? 'error' : 'ready';
  const money = useCallback(
    (v: number) => formatPrice(v, query.data?.currency ?? currency),
    [query.data, currency],
  );
  return (
    <SectionCard
      title="Histórico"
      subtitle={`Precio diario de esta publicación entre el ${formatDate(period.from)} y el ${formatDate(period.to)}.`}
      actions={
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <PeriodPicker value={period} onChange={setPeriod} />
          <DownloadHistoryButton
            productId={productId}
            sellerId={sellerId}
            currency={currency}
            period={period}
            disabled={!info}
          />
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
        <ChartContainer
          status={status}
          empty={!chart || chart.labels.length === 0}
          emptyText="No hay precios registrados en este período. Prueba con un período más largo."
          errorText="No pudimos cargar el histórico de precios."
          onRetry={() => query.refetch()}
          height={340}
        >
          {chart && (
            <LineChart
              labels={chart.labels}
              series={chart.series}
              formatValue={money}
              ariaLabel={`Histórico de precios de la publicación en ${seller.name}`}
              height={340}
              stepped
            />
          )}
        </ChartContainer>
        <Box sx={{ mt: 1.5 }}>
          <MarkerLegend />
        </Box>
      </Box>
    </SectionCard>
  );
}

function QmiView({ productId, sellerId }: { productId: string; sellerId: number }) {
  const { currency } = useUserSettings();
  const query = useQuery(detailQueries.qmi(productId, sellerId, currency));
  useFailureNotice(query, MESSAGES.productInfoFailed);
  if (query.data && !isFound(query.data)) return <NotFoundView what="esta publicación" />;
  const info = query.data && isFound(query.data) ? query.data : null;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
      {query.isError && !info ? (
        <ErrorState message={MESSAGES.productInfoFailed} onRetry={() => query.refetch()} />
      ) : (
        <>
          <ProductHeader
            data={info ? headerOf(info) : null}
            loading={query.isPending}
            actions={
              info?.match && info.match.members > 1 ? (
                <Button
                  component={RouterLink}
                  to={productPath(info._id)}
                  variant="contained"
                  startIcon={<LeaderboardOutlinedIcon />}
                >
                  Ver ranking frente a competidores
                </Button>
              ) : undefined
            }
          />
          <QmiInfoPanel info={info} loading={query.isPending} />
        </>
      )}
      <QmiHistory info={info} productId={productId} sellerId={sellerId} currency={currency} />
    </Box>
  );
}

/** qmi-detail?productId=<seller's product id>&sellerId=<seller id>: one listing and its price history. */
export default function QmiDetailPage() {
  const [params] = useSearchParams();
  const productId = params.get('productId')?.trim() ?? '';
  const sellerId = Number(params.get('sellerId'));
  const valid = productId !== '' && Number.isInteger(sellerId) && sellerId > 0;
  return (
    <>
      <PageHeader description="Información de una publicación y la evolución de su precio, con descarga del histórico." />
      {valid ? (
        <QmiView key={`${sellerId}:${productId}`} productId={productId} sellerId={sellerId} />
      ) : (
        <NotFoundView what="esta publicación" />
      )}
    </>
  );
}
