import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { Box, ButtonBase, Tooltip } from '@mui/material';
import { formatPercent } from '@vigia/domain';
import type { ReactNode } from 'react';
import { withAlpha } from '../../../components/charts/index.js';

/**
 * A percentage that opens the products behind it; shaded with the seller's colour by its value, and
 * marked when it is a spike.
 */
export function PctButton({
  value,
  color,
  onClick,
  spike = false,
  label,
  sub,
}: {
  value: number | null;
  color: string;
  onClick?: () => void;
  spike?: boolean;
  label: string;
  sub?: ReactNode;
}) {
  // capped so the dark figures stay readable on every seller colour (white on a light orange was not)
  const shade = value === null ? 0 : Math.min(0.45, 0.08 + value / 100);
  const content = (
    <Box
      sx={{
        px: 1,
        py: 0.5,
        borderRadius: 1,
        minWidth: 64,
        textAlign: 'right',
        bgcolor: value === null ? 'transparent' : withAlpha(color, shade),
        color: 'text.primary',
        outline: spike ? 2 : 0,
        outlineColor: 'secondary.main',
        fontVariantNumeric: 'tabular-nums',
        whiteSpace: 'nowrap',
      }}
    >
      {spike && <TrendingUpIcon sx={{ fontSize: 14, mr: 0.5, verticalAlign: 'middle' }} aria-hidden />}
      {formatPercent(value)}
      {sub && <Box sx={{ fontSize: 11, opacity: 0.85 }}>{sub}</Box>}
    </Box>
  );
  if (!onClick || value === null || value === 0) return content;
  return (
    <Tooltip title={spike ? `${label} · pico de promociones` : label}>
      <ButtonBase
        onClick={onClick}
        aria-label={`${label}: ${formatPercent(value)}${spike ? ', pico' : ''}`}
        sx={{ borderRadius: 1 }}
      >
        {content}
      </ButtonBase>
    </Tooltip>
  );
}
