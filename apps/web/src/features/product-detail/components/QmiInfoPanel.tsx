import EventAvailableOutlinedIcon from '@mui/icons-material/EventAvailableOutlined';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import SellOutlinedIcon from '@mui/icons-material/SellOutlined';
import Box from '@mui/material/Box';
import { formatDate, formatPrice, MESSAGES, type ProductInfo } from '@vigia/domain';
import { KpiCard, KpiGrid } from '../../../components/data/KpiCard.js';
import { PriceTypeChip } from '../../../components/data/PriceTypeChip.js';
import { PriceMove } from './VariationBadge.js';

/** One listing's current state: price with its type and variation, normal price, availability, dates. */
export function QmiInfoPanel({ info, loading }: { info: ProductInfo | null; loading?: boolean }) {
  const busy = loading || !info;
  const currency = info?.currency ?? 'CLP';
  const promo =
    info && info.normal_price !== null && info.min_price !== null && info.min_price < info.normal_price;
  return (
    <KpiGrid min={220}>
      <KpiCard
        label="Precio actual"
        icon={<LocalOfferOutlinedIcon />}
        loading={busy}
        value={
          <Box
            component="span"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
          >
            {formatPrice(info?.min_price, currency)}
            {info && <PriceTypeChip type={info.price_type} />}
          </Box>
        }
        caption={
          info && (
            <PriceMove
              variation={info.variation}
              current={info.min_price}
              previous={info.previous_price}
              currency={currency}
            />
          )
        }
      />
      <KpiCard
        label="Precio normal"
        tone="secondary"
        icon={<SellOutlinedIcon />}
        loading={busy}
        value={formatPrice(info?.normal_price, currency)}
        caption={promo ? 'El precio actual es una promoción' : 'Sin promoción vigente'}
      />
      <KpiCard
        label="Disponibilidad"
        tone={info?.availability === MESSAGES.available ? 'success' : 'neutral'}
        icon={<Inventory2OutlinedIcon />}
        loading={busy}
        value={
          <Box component="span" sx={{ fontSize: 20 }}>
            {info?.availability ?? '—'}
          </Box>
        }
        caption={info && !info.published ? 'Publicación despublicada' : undefined}
      />
      <KpiCard
        label="Visto por última vez"
        tone="info"
        icon={<EventAvailableOutlinedIcon />}
        loading={busy}
        value={
          <Box component="span" sx={{ fontSize: 20 }}>
            {formatDate(info?.last_seen)}
          </Box>
        }
        caption={info ? `Visto por primera vez el ${formatDate(info.first_seen)}` : undefined}
      />
    </KpiGrid>
  );
}
