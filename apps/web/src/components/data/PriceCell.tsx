import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import HistoryIcon from '@mui/icons-material/History';
import { Box, Tooltip } from '@mui/material';
import { formatPrice } from '@vigia/domain';
import type { ReactNode } from 'react';

/**
 * How a competitor price is highlighted (seed 001 §4 "Item display"): the cheapest in the accent colour,
 * the dearest in red, historical prices (seen before today or out of stock) in grey, the rest plain.
 */
export type PriceTone = 'cheapest' | 'dearest' | 'historical' | 'default';

const TONE_LABEL: Record<PriceTone, string> = {
  cheapest: 'Precio más bajo',
  dearest: 'Precio más alto',
  historical: 'Precio histórico',
  default: '',
};

export interface PriceCellProps {
  value: number | null | undefined;
  currency: string;
  tone?: PriceTone;
  /** Extra tooltip text (e.g. 'Visto por última vez el 01-03-2025'). */
  hint?: string;
  /** Rendered under the price (price-type chip, availability). */
  children?: ReactNode;
  align?: 'right' | 'left';
}

/** A price, right-aligned, with its highlight; icons repeat the colour's meaning for colour-blind users. */
export function PriceCell({
  value,
  currency,
  tone = 'default',
  hint,
  children,
  align = 'right',
}: PriceCellProps) {
  const title = [TONE_LABEL[tone], hint].filter(Boolean).join(' · ');
  const text = (
    <Box
      component="span"
      sx={(t) => ({
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.25,
        px: tone === 'default' || tone === 'historical' ? 0 : 0.75,
        py: 0.125,
        borderRadius: 1,
        fontWeight: tone === 'cheapest' || tone === 'dearest' ? 700 : 500,
        fontVariantNumeric: 'tabular-nums',
        whiteSpace: 'nowrap',
        // Cheapest: blue, filled; dearest: vermillion on a light tint (the colour-blind-safe position pair)
        // — different at a glance, not only by hue, and the arrow says which.
        ...(tone === 'cheapest' && {
          color: t.palette.cheaper.contrastText,
          bgcolor: t.palette.cheaper.main,
        }),
        ...(tone === 'dearest' && {
          color: t.palette.dearer.dark,
          bgcolor: `color-mix(in srgb, ${t.palette.dearer.main} 12%, transparent)`,
        }),
        // historical: grey with the clock icon, still readable (4.5:1)
        ...(tone === 'historical' && { color: t.palette.text.secondary, fontStyle: 'italic' }),
      })}
    >
      {tone === 'cheapest' && <ArrowDownwardIcon sx={{ fontSize: 13 }} aria-hidden />}
      {tone === 'dearest' && <ArrowUpwardIcon sx={{ fontSize: 13 }} aria-hidden />}
      {tone === 'historical' && <HistoryIcon sx={{ fontSize: 13 }} aria-hidden />}
      {formatPrice(value, currency)}
    </Box>
  );
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: align === 'right' ? 'flex-end' : 'flex-start',
        gap: 0.25,
      }}
    >
      {title ? (
        <Tooltip title={title} arrow describeChild>
          <span>{text}</span>
        </Tooltip>
      ) : (
        text
      )}
      {children}
    </Box>
  );
}
