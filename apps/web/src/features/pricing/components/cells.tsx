import { Box, Link, Stack, TableCell, Typography } from '@mui/material';
import {
  availabilityText,
  type CompetitorPrice,
  formatDate,
  formatNumber,
  MESSAGES,
  type PricingItem,
} from '@vigia/domain';
import { NumberCell, ProductLink, ProductThumb } from '../../../components/data/DataTable.js';
import { PriceCell, type PriceTone } from '../../../components/data/PriceCell.js';
import { PriceFreshness } from '../../../components/data/PriceFreshness.js';
import { PriceTypeChip } from '../../../components/data/PriceTypeChip.js';
import { differenceKind, formatSignedPercent, PositionFigure } from '../../../components/data/position.js';

// The seller label is shared with the brand comparator: it lives in components/data.
export { SellerLabel } from '../../../components/data/position.js';

import { PRICING_TEXT } from '../lib/texts.js';

/** Width of a name column on a phone (DPM and navigation tables). */
export const PHONE_NAME_WIDTH = 104;

/** Product cell: thumbnail, name linking to /app/product/<id>, SKU and brand. */
export function ProductCell({ item, width = 320 }: { item: PricingItem; width?: number }) {
  const sub = [item.sku ? `${PRICING_TEXT.sku} ${item.sku}` : null, item.brand?.name]
    .filter(Boolean)
    .join(' · ');
  return (
    // On a phone the sticky product column takes at most 150 px of 390, so that the prices beside it show
    // (issue 31 item 6: only the name column was visible); the thumbnail is left out there.
    <TableCell sx={{ minWidth: { xs: PHONE_NAME_WIDTH, sm: width }, maxWidth: { xs: 150, sm: width + 80 } }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <Box sx={{ display: { xs: 'none', sm: 'block' } }}>
          <ProductThumb src={item.image_url} alt={item.name} />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <ProductLink id={item.id} name={item.name} maxWidth={{ xs: PHONE_NAME_WIDTH, sm: width }} />
          {sub && (
            <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }} noWrap>
              {sub}
            </Typography>
          )}
        </Box>
      </Stack>
    </TableCell>
  );
}

/** Signed percentage: '▲ +12,3%' (I am dearer) / '▼ -4,0%' (cheaper) in the position colours; never "-0,0%". */
export function DifferenceText({ value }: { value: number | null }) {
  if (value === null)
    return (
      <Box component="span" sx={{ color: 'text.secondary' }}>
        —
      </Box>
    );
  return (
    <PositionFigure kind={differenceKind(value)} bold={false}>
      <Box component="span" sx={{ fontWeight: 600 }}>
        {formatSignedPercent(value)}
      </Box>
    </PositionFigure>
  );
}

export function IndexText({ value }: { value: number | null }) {
  if (value === null)
    return (
      <Box component="span" sx={{ color: 'text.disabled' }}>
        —
      </Box>
    );
  return <>{formatNumber(value, 1)}</>;
}

function availabilityColor(text: string): string {
  return text === MESSAGES.available ? 'success.main' : 'text.secondary';
}

/** My price: the price (grey when historical), its type and, when not current, my availability. */
export function MyPriceCell({
  item,
  tone,
  currency,
}: {
  item: PricingItem;
  tone: PriceTone;
  currency: string;
}) {
  const availability = availabilityText(item);
  return (
    <NumberCell sx={{ bgcolor: 'rgba(106, 27, 154, 0.035)' }}>
      <PriceCell
        value={item.my_price}
        currency={currency}
        tone={tone}
        hint={item.historical ? `Visto por última vez el ${formatDate(item.last_seen)}` : undefined}
      >
        <PriceTypeChip type={item.price_type} />
        <PriceFreshness lastSeen={item.last_seen} />
        {availability !== MESSAGES.available && (
          <Typography variant="caption" sx={{ color: availabilityColor(availability) }}>
            {availability}
          </Typography>
        )}
      </PriceCell>
    </NumberCell>
  );
}

/** A competitor's price in a row: highlighted price, price-type chip and availability (or a dash). */
export function CompetitorCell({
  competitor,
  tone,
  currency,
  detailed = true,
}: {
  competitor: CompetitorPrice | undefined;
  tone: PriceTone;
  currency: string;
  detailed?: boolean;
}) {
  if (!competitor || competitor.price === null) {
    return (
      <NumberCell>
        <Box component="span" sx={{ color: 'text.disabled' }} title="Sin match en este eCommerce">
          —
        </Box>
      </NumberCell>
    );
  }
  const availability = availabilityText(competitor);
  const hint = competitor.historical
    ? `Visto por última vez el ${formatDate(competitor.last_seen)}`
    : undefined;
  return (
    <NumberCell>
      <PriceCell value={competitor.price} currency={currency} tone={tone} hint={hint}>
        {detailed && (
          <>
            <PriceTypeChip type={competitor.price_type} />
            <PriceFreshness lastSeen={competitor.last_seen} />
            <Typography variant="caption" sx={{ color: availabilityColor(availability), lineHeight: 1.2 }}>
              {competitor.url ? (
                <Link
                  href={competitor.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  color="inherit"
                  underline="hover"
                  title={`Abrir en ${competitor.seller_name}`}
                >
                  {availability}
                </Link>
              ) : (
                availability
              )}
            </Typography>
          </>
        )}
      </PriceCell>
    </NumberCell>
  );
}
