import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useQuery } from '@tanstack/react-query';
import { isFound, MESSAGES } from '@vigia/domain';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorState } from '../../../components/data/DataTable.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { useFailureNotice } from '../../../lib/load.js';
import { useUserSettings } from '../../../lib/settings.js';
import { detailQueries } from '../api/queries.js';
import { NotFoundView } from '../components/NotFoundView.js';
import { ProductMatchView } from '../components/ProductMatchView.js';

function positiveInt(value: string | null): number | null {
  const n = Number(value);
  return value !== null && Number.isInteger(n) && n > 0 ? n : null;
}

const DESCRIPTION =
  'Ranking de precios del producto entre los eCommerce que lo venden, con la evolución de precios y posiciones.';

/** The listing given as the seller's own id: resolve its Vigía id through /v2/detail/qmi first. */
function ResolvedMatch({ productId, sellerId }: { productId: string; sellerId: number }) {
  const { currency } = useUserSettings();
  const q = useQuery(detailQueries.qmi(productId, sellerId, currency));
  useFailureNotice(q, MESSAGES.productInfoFailed);
  if (q.isPending) {
    return (
      <Box
        sx={{ display: 'grid', placeItems: 'center', minHeight: 240 }}
        role="progressbar"
        aria-label="Cargando producto"
      >
        <CircularProgress />
      </Box>
    );
  }
  if (q.isError) return <ErrorState message="No pudimos cargar el producto." onRetry={() => q.refetch()} />;
  if (!isFound(q.data)) return <NotFoundView />;
  return <ProductMatchView key={q.data._id} id={q.data._id} />;
}

/**
 * qmp-detail: the product's price ranking, competitor table, price history and position history.
 * Opened with ?id=<Vigía listing id>, or with ?productId=<seller's product id>&sellerId=<seller id>.
 */
export default function QmpDetailPage() {
  const [params] = useSearchParams();
  const id = positiveInt(params.get('id'));
  const productId = params.get('productId')?.trim() || null;
  const sellerId = positiveInt(params.get('sellerId'));

  let body: ReactNode;
  if (id !== null) body = <ProductMatchView key={id} id={id} />;
  else if (productId && sellerId !== null)
    body = <ResolvedMatch key={`${sellerId}:${productId}`} productId={productId} sellerId={sellerId} />;
  else if (positiveInt(productId) !== null)
    body = <ProductMatchView key={productId} id={positiveInt(productId) as number} />;
  else body = <NotFoundView />;

  return (
    <>
      <PageHeader description={DESCRIPTION} />
      {body}
    </>
  );
}
