import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import Box from '@mui/material/Box';
import { formatPrice, type PriceVariation } from '@vigia/domain';

const ARROW_LABEL = { up: 'Variación positiva', down: 'Variación negativa', none: 'Sin variación' } as const;

/** The seed's price variation: arrow (none / up / down) and the signed percentage, as the domain computes it. */
export function VariationBadge({ variation }: { variation: PriceVariation }) {
  if (variation.variation === null) {
    return (
      <Box component="span" sx={{ color: 'text.secondary' }}>
        Sin variación registrada
      </Box>
    );
  }
  return (
    <Box
      component="span"
      title="Variación respecto del precio anterior: 100 × (1 − actual / anterior)"
      aria-label={`${ARROW_LABEL[variation.arrow]}: ${variation.text}`}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.25,
        fontWeight: 700,
        fontVariantNumeric: 'tabular-nums',
        // 100 × (1 − actual / anterior): the sign reads opposite to the price move, so no good/bad colour.
        color: variation.arrow === 'none' ? 'text.secondary' : 'text.primary',
      }}
    >
      {variation.arrow === 'up' && <ArrowUpwardIcon sx={{ fontSize: 15 }} aria-hidden />}
      {variation.arrow === 'down' && <ArrowDownwardIcon sx={{ fontSize: 15 }} aria-hidden />}
      {variation.text}
    </Box>
  );
}

/**
 * What the price did, in words, next to the seed's figure (whose sign reads opposite to the move):
 * "bajó de $27.990 a $25.990", "subió de … a …", "sin cambio ($25.990)"; null without both prices.
 */
export function priceMoveText(
  current: number | null | undefined,
  previous: number | null | undefined,
  currency: string,
): string | null {
  if (current === null || current === undefined || previous === null || previous === undefined) return null;
  const from = formatPrice(previous, currency);
  const to = formatPrice(current, currency);
  if (from === to) return `sin cambio (${to})`;
  return `${current < previous ? 'bajó' : 'subió'} de ${from} a ${to}`;
}

/** The seed's variation and, beside it, what the price did ("bajó de $27.990 a $25.990"). */
export function PriceMove({
  variation,
  current,
  previous,
  currency,
}: {
  variation: PriceVariation;
  current: number | null | undefined;
  previous: number | null | undefined;
  currency: string;
}) {
  const move = priceMoveText(current, previous, currency);
  return (
    <Box component="span" sx={{ display: 'inline-flex', gap: 1, flexWrap: 'wrap' }}>
      <VariationBadge variation={variation} />
      {move && <span>{move}</span>}
    </Box>
  );
}
