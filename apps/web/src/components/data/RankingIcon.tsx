import { Box, Tooltip } from '@mui/material';
import { RANKING_STEPS } from '@vigia/domain';
import { clampStep, rankingLabel } from './ranking.js';

/** Colour of a step: green (cheapest) through amber to red (dearest). */
export function rankingColor(step: number): string {
  const t = (clampStep(step) - 1) / (RANKING_STEPS - 1);
  const hue = Math.round(140 - 140 * t);
  return `hsl(${hue} 62% ${t > 0.35 && t < 0.7 ? 40 : 38}%)`;
}

export interface RankingIconProps {
  /** Step on the 1–9 scale (use rankingStep(position, total) for a raw position). */
  step: number | null | undefined;
  /** Optional detail appended to the tooltip, e.g. '2.º de 5 vendedores'. */
  detail?: string;
  size?: number;
}

/** The 1–9 ranking icon: a numbered badge over a nine-notch scale, with the seed's tooltip. */
export function RankingIcon({ step, detail, size = 28 }: RankingIconProps) {
  if (step === null || step === undefined) {
    return (
      <Box component="span" sx={{ color: 'text.disabled' }} aria-label="Sin ranking">
        —
      </Box>
    );
  }
  const s = clampStep(step);
  const label = rankingLabel(s);
  const title = detail ? `${label} · ${detail}` : label;
  const color = rankingColor(s);
  return (
    <Tooltip title={title} arrow>
      <Box
        component="span"
        role="img"
        aria-label={`Ranking ${s}: ${title}`}
        tabIndex={0}
        sx={{
          display: 'inline-flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: '2px',
          verticalAlign: 'middle',
          outline: 'none',
          '&:focus-visible': { boxShadow: (t) => `0 0 0 2px ${t.palette.primary.main}`, borderRadius: 1 },
        }}
      >
        <Box
          component="span"
          sx={{
            width: size,
            height: size,
            borderRadius: '50%',
            bgcolor: color,
            color: '#fff',
            display: 'grid',
            placeItems: 'center',
            fontWeight: 700,
            fontSize: size * 0.46,
            lineHeight: 1,
            boxShadow: '0 1px 2px rgba(0,0,0,.18)',
          }}
        >
          {s}
        </Box>
        <Box component="span" sx={{ display: 'flex', gap: '1px' }} aria-hidden>
          {Array.from({ length: RANKING_STEPS }, (_, i) => (
            <Box
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed nine notches
              key={i}
              component="span"
              sx={{
                width: 3,
                height: 3,
                borderRadius: '1px',
                bgcolor: i + 1 === s ? color : 'action.disabled',
              }}
            />
          ))}
        </Box>
      </Box>
    </Tooltip>
  );
}
