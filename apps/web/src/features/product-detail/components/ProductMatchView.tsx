import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import {
  breadcrumb,
  formatNumber,
  isFound,
  MESSAGES,
  type ProductInfo,
  type ProductMatchInfo,
} from '@vigia/domain';
import { useMemo } from 'react';
import { ErrorState } from '../../../components/data/DataTable.js';
import { useFailureNotice } from '../../../lib/load.js';
import { useUserSettings } from '../../../lib/settings.js';
import { type DetailScope, detailQueries } from '../api/queries.js';
import { CompetitorsTable } from './CompetitorsTable.js';
import { DetailPanel } from './DetailPanel.js';
import { HistorySection } from './HistorySection.js';
import { NotFoundView } from './NotFoundView.js';
import { ProductHeader, type ProductHeaderData } from './ProductHeader.js';
import { SectionCard } from './SectionCard.js';

function headerFrom(info: ProductInfo | null, match: ProductMatchInfo | null): ProductHeaderData | null {
  if (info) {
    const members = info.match?.members ?? 0;
    return {
      name: info.name,
      image: info.image,
      brand: info.brand,
      sku: info.sku,
      ean: info.ean,
      breadcrumb: info.breadcrumb || breadcrumb(info.categories),
      seller: info.seller,
      url: info.url,
      classification: info.classification,
      badges: (
        <>
          <Chip
            size="small"
            label={info.availability}
            color={info.availability === MESSAGES.available ? 'success' : 'default'}
            variant="outlined"
          />
          {members > 1 ? (
            <Chip
              size="small"
              color="secondary"
              variant="outlined"
              label={`Con match · ${formatNumber(members - 1)} eCommerce`}
            />
          ) : (
            <Chip size="small" variant="outlined" label="Sin match" />
          )}
        </>
      ),
    };
  }
  if (match) {
    const pivot = match.qm_items.find((i) => i.is_pivot);
    return {
      name: match.name,
      image: match.image,
      brand: match.brand,
      sku: match.sku,
      ean: match.ean,
      breadcrumb: breadcrumb(pivot?.categories),
      seller: { name: match.seller_name, color: pivot?.seller_color },
      url: match.url,
    };
  }
  return null;
}

/** My listing of the product (its daily history is what the product page downloads), if known. */
function pivotListing(
  match: { qm_items: { is_pivot: boolean; product_id: string; seller_id: number }[] } | null,
) {
  const pivot = match?.qm_items.find((i) => i.is_pivot);
  return pivot ? { productId: pivot.product_id, sellerId: pivot.seller_id } : null;
}

/**
 * A product and its match: header, detail panel, 'Histórico' and 'Competidores'. Shared by product/{id}
 * and qmp-detail. Every load reruns when the id or the user's settings change.
 */
export function ProductMatchView({ id }: { id: number }) {
  const settings = useUserSettings();
  const scope: DetailScope = useMemo(
    () => ({ pivotId: settings.pivotId, currency: settings.currency, sellers: settings.selectedSellers }),
    [settings.pivotId, settings.currency, settings.selectedSellers],
  );
  const match = useQuery(detailQueries.match(id, scope));
  const info = useQuery(detailQueries.info(id, scope));
  useFailureNotice(info, MESSAGES.productInfoFailed);

  const matchData = match.data && isFound(match.data) ? match.data : null;
  const infoData = info.data && isFound(info.data) ? info.data : null;
  const notFound = (match.data && !matchData) || (info.data && !infoData && !matchData);

  if (notFound) return <NotFoundView />;

  const header = headerFrom(infoData, matchData);
  const headerLoading = !header && (info.isPending || match.isPending);
  const currency = matchData?.currency ?? settings.currency;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
      <ProductHeader data={header} loading={headerLoading} />
      {match.isError && !matchData ? (
        <SectionCard title="Ranking de precios">
          <ErrorState
            message="No pudimos cargar los precios de los competidores."
            onRetry={() => match.refetch()}
          />
        </SectionCard>
      ) : (
        <DetailPanel detail={matchData} loading={match.isPending} />
      )}
      <HistorySection productId={id} scope={scope} download={pivotListing(matchData)} />
      {matchData && (
        <SectionCard
          title="Competidores"
          dense
          subtitle={
            <>
              {matchData.qmitemsQuantity === 1
                ? '1 publicación de este producto.'
                : `${formatNumber(matchData.qmitemsQuantity)} publicaciones de este producto, ordenadas de menor a mayor precio.`}{' '}
              Diferencia = precio del competidor − mi precio.
            </>
          }
        >
          <CompetitorsTable items={matchData.qm_items} currency={currency} />
          <Box
            sx={{
              px: 2.5,
              py: 1.25,
              borderTop: 1,
              borderColor: 'divider',
              display: 'flex',
              gap: 2.5,
              flexWrap: 'wrap',
            }}
          >
            <Legend color="cheaper.main" text="▼ Precio más bajo" />
            <Legend color="dearer.main" text="▲ Precio más alto" />
            <Legend color="text.disabled" text="Histórico (reloj): sin stock o no visto hoy" />
          </Box>
        </SectionCard>
      )}
    </Box>
  );
}

function Legend({ color, text }: { color: string; text: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
      <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '3px', bgcolor: color }} />
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {text}
      </Typography>
    </Box>
  );
}
