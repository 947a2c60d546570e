import ArrowBackRoundedIcon from '@mui/icons-material/ArrowBackRounded';
import Button from '@mui/material/Button';
import { MESSAGES } from '@vigia/domain';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { useHasModule } from '../../../lib/license.js';
import { ProductMatches } from '../../matches/index.js';
import { NotFoundView } from '../components/NotFoundView.js';
import { ProductMatchView } from '../components/ProductMatchView.js';

/** product/{id} — 'Detalle de producto' (seed 001 §2). Reloads when the id changes. */
export default function ProductDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const productId = Number(id);
  const valid = Number.isInteger(productId) && productId > 0;
  const dpm = useHasModule('dpm');
  return (
    <>
      <PageHeader
        title={MESSAGES.productDetailTitle}
        description="Tu precio frente a cada eCommerce que vende este producto, su evolución y tu posición en el ranking."
        actions={
          <Button variant="outlined" startIcon={<ArrowBackRoundedIcon />} onClick={() => navigate(-1)}>
            Volver
          </Button>
        }
      />
      {/* key: a new id starts a fresh view (period, sort) as well as new loads */}
      {valid ? <ProductMatchView key={productId} id={productId} /> : <NotFoundView />}
      {/* its matches and 'reportar coincidencia incorrecta' (issue 29; module dpm) */}
      {valid && dpm && <ProductMatches key={`m${productId}`} productId={productId} />}
    </>
  );
}
