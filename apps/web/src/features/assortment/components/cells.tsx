import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import { Box, Chip } from '@mui/material';
import { formatPercent, formatVariation, shownVariation, variationArrow } from '@vigia/domain';

// Cells of the assortment tables.

/** Decimals of the assortment's variations (of counts and values): "+1,4%", never "+1,438%" (issue 31 item 12). */
const VARIATION_DECIMALS = 1;

/**
 * A variation against the previous period: arrow and signed percentage with one decimal (a variation that
 * rounds to zero reads "0%" without an arrow); none (—) without a base.
 */
export function VariationText({ value }: { value: number | null }) {
  if (value === null)
    return (
      <Box component="span" sx={{ color: 'text.disabled' }} title="Sin base en el período anterior">
        —
      </Box>
    );
  const arrow = variationArrow(shownVariation(value, VARIATION_DECIMALS));
  const up = arrow === 'up';
  const down = arrow === 'down';
  const Icon = up ? ArrowUpwardIcon : ArrowDownwardIcon;
  return (
    <Box
      component="span"
      data-variation={arrow}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.25,
        fontWeight: 600,
        color: up ? 'success.main' : down ? 'error.main' : 'text.secondary',
      }}
    >
      {(up || down) && <Icon sx={{ fontSize: 16 }} aria-hidden />}
      {formatVariation(value, VARIATION_DECIMALS)}
    </Box>
  );
}

/** Participation: a bar and the percentage. */
export function ParticipationBar({ value }: { value: number | null }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, justifyContent: 'flex-end' }}>
      <Box
        aria-hidden
        sx={{
          width: 80,
          height: 8,
          borderRadius: 4,
          bgcolor: 'grey.200',
          overflow: 'hidden',
          flex: '0 0 auto',
        }}
      >
        <Box sx={{ width: `${Math.min(100, value ?? 0)}%`, height: '100%', bgcolor: 'secondary.main' }} />
      </Box>
      <Box component="span" sx={{ minWidth: 44, textAlign: 'right' }}>
        {formatPercent(value)}
      </Box>
    </Box>
  );
}

/** Name of a row: seller colour dot, and a chip for the pivot / own brands. */
export function RowName({
  name,
  color,
  chip,
  strong,
}: {
  name: string;
  color?: string | null;
  chip?: string | null;
  strong?: boolean;
}) {
  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, fontWeight: strong ? 700 : 500 }}
    >
      {color && (
        <Box
          component="span"
          sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: color, flex: '0 0 auto' }}
        />
      )}
      {name}
      {chip && <Chip size="small" label={chip} color="secondary" variant="outlined" sx={{ height: 20 }} />}
    </Box>
  );
}
