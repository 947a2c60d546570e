import EmojiEventsOutlinedIcon from '@mui/icons-material/EmojiEventsOutlined';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import TrendingDownIcon from '@mui/icons-material/TrendingDown';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import Box from '@mui/material/Box';
import { formatNumber, formatPrice, type ProductMatchInfo } from '@vigia/domain';
import { KpiCard, KpiGrid } from '../../../components/data/KpiCard.js';
import { PriceTypeChip } from '../../../components/data/PriceTypeChip.js';
import { RankingIcon } from '../../../components/data/RankingIcon.js';
import { PriceMove } from './VariationBadge.js';

/**
 * The detail panel: my price with its variation, my position in the ranking with the 1–9 icon, and
 * the cheapest and the dearest seller. All figures come computed from /v1/new-detail/.
 */
export function DetailPanel({ detail, loading }: { detail: ProductMatchInfo | null; loading?: boolean }) {
  const busy = loading || !detail;
  const currency = detail?.currency ?? 'CLP';
  const pivotItem = detail?.qm_items.find((i) => i.is_pivot) ?? null;
  const priced = detail?.qm_items.filter((i) => i.min_price !== null).length ?? 0;
  return (
    <KpiGrid min={220}>
      <KpiCard
        label="Mi precio"
        tone="primary"
        icon={<LocalOfferOutlinedIcon />}
        loading={busy}
        help="Precio efectivo actual de tu producto (el menor entre normal, oferta y oferta exclusiva)."
        value={
          <Box
            component="span"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
          >
            {formatPrice(detail?.min_price, currency)}
            {pivotItem && <PriceTypeChip type={pivotItem.price_type} />}
          </Box>
        }
        caption={
          detail && (
            <PriceMove
              variation={detail.pivotPriceVariation}
              current={detail.min_price}
              previous={detail.pivotPreviousPrice}
              currency={currency}
            />
          )
        }
      />
      <KpiCard
        label="Posición"
        tone="secondary"
        icon={<EmojiEventsOutlinedIcon />}
        loading={busy}
        help="Lugar de tu precio entre los eCommerce ordenados de menor a mayor precio."
        value={
          detail?.pivotQmItemPosition ? (
            <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1.25 }}>
              <span>
                {formatNumber(detail.pivotQmItemPosition)}.º
                <Box component="span" sx={{ fontSize: 15, fontWeight: 500, color: 'text.secondary' }}>
                  {' '}
                  de {formatNumber(priced)}
                </Box>
              </span>
              <RankingIcon
                step={detail.ranking_icon}
                size={26}
                detail={`${detail.pivotQmItemPosition}.º de ${priced} eCommerce con precio`}
              />
            </Box>
          ) : (
            '—'
          )
        }
        caption={detail ? `${formatNumber(detail.qmitemsQuantity)} eCommerce con este producto` : undefined}
      />
      <KpiCard
        label="Más barato"
        tone="cheaper"
        icon={<TrendingDownIcon />}
        loading={busy}
        help="eCommerce con el precio más bajo hoy."
        value={
          <Box component="span" sx={{ color: 'cheaper.dark' }}>
            {detail?.cheaper ? formatPrice(detail.cheaper.price, currency) : '—'}
          </Box>
        }
        caption={detail?.cheaper?.seller_name ?? 'Sin precios para comparar'}
      />
      <KpiCard
        label="Más caro"
        tone="dearer"
        icon={<TrendingUpIcon />}
        loading={busy}
        help="eCommerce con el precio más alto hoy."
        value={
          <Box component="span" sx={{ color: 'dearer.dark' }}>
            {detail?.expensive ? formatPrice(detail.expensive.price, currency) : '—'}
          </Box>
        }
        caption={detail?.expensive?.seller_name ?? 'Sin precios para comparar'}
      />
    </KpiGrid>
  );
}
