import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

/** Vigía's mark: a rising price line on the brand gradient. */
export function ProductMark({ size = 32, inverted = false }: { size?: number; inverted?: boolean }) {
  const id = useId().replace(/:/g, '');
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" role="img" aria-label="Vigía">
      <defs>
        <linearGradient id={`vg-${id}`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6a1b9a" />
          <stop offset="1" stopColor="#d81b60" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill={inverted ? '#ffffff' : `url(#vg-${id})`} />
      <path
        d="M14 22 L27 46 L36 30 L42 38 L52 16"
        fill="none"
        stroke={inverted ? `url(#vg-${id})` : '#ffffff'}
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="52" cy="16" r="4.5" fill={inverted ? '#d81b60' : '#ffffff'} />
    </svg>
  );
}

/** Mark and name side by side. */
export function ProductLogo({
  size = 32,
  color = 'inherit',
  inverted = false,
}: {
  size?: number;
  color?: string;
  inverted?: boolean;
}) {
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1.25, color }}>
      <ProductMark size={size} inverted={inverted} />
      <Typography
        component="span"
        sx={{
          fontWeight: 800,
          fontSize: size * 0.62,
          letterSpacing: '-0.02em',
          lineHeight: 1,
          color: 'inherit',
        }}
      >
        Vigía
      </Typography>
    </Box>
  );
}
