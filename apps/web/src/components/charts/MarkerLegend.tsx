import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { HistoryMarker } from '@vigia/domain';
import { PRICE_MARKER_LEGEND } from './markers.js';

/** A marker drawn as Chart.js draws it, for legends and tables. */
export function MarkerIcon({
  marker,
  size = 12,
  color = 'currentColor',
}: {
  marker: HistoryMarker;
  size?: number;
  color?: string;
}) {
  const shape = (() => {
    switch (marker) {
      case 'triangle':
        return <polygon points="6,1 11,11 1,11" fill={color} />;
      case 'square':
        return <rect x="1.5" y="1.5" width="9" height="9" fill={color} />;
      case 'star':
        return (
          <g stroke={color} strokeWidth="1.6" strokeLinecap="round">
            <line x1="6" y1="0.5" x2="6" y2="11.5" />
            <line x1="0.5" y1="6" x2="11.5" y2="6" />
            <line x1="2" y1="2" x2="10" y2="10" />
            <line x1="10" y1="2" x2="2" y2="10" />
          </g>
        );
      default:
        return <circle cx="6" cy="6" r="5" fill={color} />;
    }
  })();
  return (
    <svg width={size} height={size} viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      {shape}
    </svg>
  );
}

/** Explains the price-history markers under a chart. */
export function MarkerLegend() {
  return (
    <Box
      component="ul"
      aria-label="Marcadores del gráfico"
      sx={{
        listStyle: 'none',
        display: 'flex',
        flexWrap: 'wrap',
        gap: 2,
        m: 0,
        p: 0,
        color: 'text.secondary',
      }}
    >
      {PRICE_MARKER_LEGEND.map(({ marker, label }) => (
        <Box component="li" key={marker} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
          <MarkerIcon marker={marker} />
          <Typography variant="caption">{label}</Typography>
        </Box>
      ))}
    </Box>
  );
}
