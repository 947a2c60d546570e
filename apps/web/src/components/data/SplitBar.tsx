import { Box, Paper, Skeleton, Tooltip, Typography } from '@mui/material';
import { formatNumber, formatPercent } from '@vigia/domain';

export interface SplitSegment {
  key: string;
  label: string;
  value: number;
  /** Any CSS colour, or a theme path such as 'secondary.main'. */
  color: string;
}

function shares(segments: SplitSegment[]): { total: number; pct: number[] } {
  const total = segments.reduce((sum, s) => sum + Math.max(0, s.value), 0);
  return { total, pct: segments.map((s) => (total > 0 ? (100 * Math.max(0, s.value)) / total : 0)) };
}

/** A labelled horizontal split (e.g. Más barato / En rango / Más caro) with counts and shares. */
export function SplitBar({
  title,
  segments,
  loading,
}: {
  title: string;
  segments: SplitSegment[];
  loading?: boolean;
}) {
  const { total, pct } = shares(segments);
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2, borderRadius: 2 }}>
      <Typography
        variant="caption"
        component="h2"
        sx={{ color: 'text.secondary', fontWeight: 600, textTransform: 'uppercase', letterSpacing: 0.2 }}
      >
        {title}
      </Typography>
      {loading ? (
        <>
          <Skeleton variant="rounded" height={14} sx={{ my: 1 }} />
          <Skeleton variant="text" width="70%" />
        </>
      ) : (
        <>
          <Box
            sx={{
              display: 'flex',
              height: 14,
              borderRadius: 7,
              overflow: 'hidden',
              my: 1,
              bgcolor: 'action.hover',
            }}
            aria-hidden
          >
            {segments.map((s, i) =>
              pct[i] > 0 ? <Box key={s.key} sx={{ width: `${pct[i]}%`, bgcolor: s.color }} /> : null,
            )}
          </Box>
          <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 1.5, sm: 3 }, m: 0, p: 0 }}>
            {segments.map((s, i) => (
              <Box
                component="li"
                key={s.key}
                sx={{ listStyle: 'none', display: 'flex', alignItems: 'baseline', gap: 0.75 }}
              >
                <Box
                  component="span"
                  sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: s.color, alignSelf: 'center' }}
                />
                <Typography variant="body2" component="span" sx={{ color: 'text.secondary' }}>
                  {s.label}
                </Typography>
                <Typography
                  variant="body2"
                  component="span"
                  sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}
                >
                  {formatNumber(s.value)}
                </Typography>
                <Typography variant="caption" component="span" sx={{ color: 'text.secondary' }}>
                  ({formatPercent(pct[i])})
                </Typography>
              </Box>
            ))}
            {total === 0 && (
              <Typography variant="body2" component="li" sx={{ listStyle: 'none', color: 'text.secondary' }}>
                Sin productos con match para comparar.
              </Typography>
            )}
          </Box>
        </>
      )}
    </Paper>
  );
}

/** The same split as a small bar for a table row; the tooltip (and the accessible name) lists the counts. */
export function MiniSplitBar({ segments, width = 120 }: { segments: SplitSegment[]; width?: number }) {
  const { total, pct } = shares(segments);
  const text = segments
    .map((s, i) => `${s.label}: ${formatNumber(s.value)} (${formatPercent(pct[i])})`)
    .join(' · ');
  return (
    <Tooltip title={text} arrow describeChild>
      <Box
        role="img"
        aria-label={text}
        tabIndex={0}
        sx={{
          display: 'inline-flex',
          width,
          height: 10,
          borderRadius: 5,
          overflow: 'hidden',
          bgcolor: 'action.hover',
          verticalAlign: 'middle',
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
        }}
      >
        {total > 0 &&
          segments.map((s, i) =>
            pct[i] > 0 ? <Box key={s.key} sx={{ width: `${pct[i]}%`, bgcolor: s.color }} /> : null,
          )}
      </Box>
    </Tooltip>
  );
}
