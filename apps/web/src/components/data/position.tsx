import ArrowDropDownRoundedIcon from '@mui/icons-material/ArrowDropDownRounded';
import ArrowDropUpRoundedIcon from '@mui/icons-material/ArrowDropUpRounded';
import Box from '@mui/material/Box';
import { formatNumber, mpiBucket } from '@vigia/domain';
import type { ReactNode } from 'react';
import { POSITION } from './position-colors.js';

// Cheaper / dearer everywhere (position bar, stacked bars, head-to-head numbers, differences, price
// highlights) in one colour-blind-safe pair, and never by colour alone: ▼ marks cheaper, ▲ dearer, and
// differences carry their sign.

export type PositionKind = 'cheaper' | 'dearer' | 'neutral';

/** Colours of the position split (bars and legends). */
export const POSITION_COLORS = {
  cheapest: POSITION.cheaper.main,
  in_range: POSITION.inRange.main,
  dearer: POSITION.dearer.main,
  tie: POSITION.tie.main,
} as const;

/** Text colour of a figure of that kind (4.5:1 on white). */
export function positionTextColor(kind: PositionKind): string {
  if (kind === 'cheaper') return POSITION.cheaper.text;
  if (kind === 'dearer') return POSITION.dearer.text;
  return 'text.secondary';
}

/** The arrow that repeats a colour's meaning: ▼ cheaper, ▲ dearer. */
export function PositionArrow({ kind, size = 18 }: { kind: PositionKind; size?: number }) {
  if (kind === 'neutral') return null;
  const Icon = kind === 'cheaper' ? ArrowDropDownRoundedIcon : ArrowDropUpRoundedIcon;
  return <Icon aria-hidden sx={{ fontSize: size, mx: -0.5, verticalAlign: 'middle' }} />;
}

/** A figure in its position's colour with the arrow before it ("▼ 740"); `label` is for screen readers. */
export function PositionFigure({
  kind,
  children,
  label,
  bold = true,
}: {
  kind: PositionKind;
  children: ReactNode;
  label?: string;
  bold?: boolean;
}) {
  return (
    <Box
      component="span"
      title={label}
      sx={{
        color: positionTextColor(kind),
        fontWeight: bold ? 700 : 500,
        whiteSpace: 'nowrap',
        display: 'inline-flex',
        alignItems: 'center',
      }}
    >
      <PositionArrow kind={kind} />
      {children}
    </Box>
  );
}

/** Kind of a signed difference in percent (I am dearer when positive); |v| below half a tenth is neutral. */
export function differenceKind(value: number): PositionKind {
  return value >= 0.05 ? 'dearer' : value <= -0.05 ? 'cheaper' : 'neutral';
}

/** '+12,3%' / '-4,0%' / '0,0%': signed, one decimal, never "-0,0%". */
export function formatSignedPercent(value: number): string {
  const r = Math.round(value * 10) / 10 || 0;
  return `${r > 0 ? '+' : ''}${formatNumber(r, 1)}%`;
}

/**
 * The band a position split was computed with (mpi_value): "hasta +10%" over the lowest competitor price.
 * Screens use different bands (DPM 10, price navigation and dashboard 5; docs/metrics.md), so every
 * split says its own next to "En rango".
 */
export function bandText(mpiValue: number): string {
  return `hasta +${formatNumber(mpiValue, Number.isInteger(mpiValue) ? 0 : 1)}%`;
}

/** "En rango (hasta +10%)". */
export function inRangeLabel(mpiValue: number | null | undefined): string {
  return mpiValue === null || mpiValue === undefined ? 'En rango' : `En rango (${bandText(mpiValue)})`;
}

/** Position of a price index in the market band `mpiValue`: cheapest → cheaper, dearer → dearer. */
export function indexKind(index: number, mpiValue: number): PositionKind {
  const bucket = mpiBucket(index, mpiValue);
  return bucket === 'cheapest' ? 'cheaper' : bucket === 'dearer' ? 'dearer' : 'neutral';
}

/** Header text of a competitor column: a colour dot and the seller's name (pricing, brand comparator). */
export function SellerLabel({ name, color }: { name: string; color?: string }) {
  return (
    <Box
      component="span"
      // a long seller name wraps on a phone, so that the figures beside it stay on screen (issue 31 item 6)
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.75,
        whiteSpace: { xs: 'normal', sm: 'nowrap' },
      }}
    >
      <Box
        component="span"
        sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: color ?? 'grey.400', flex: '0 0 auto' }}
      />
      {name}
    </Box>
  );
}
