import { Box, Paper, Skeleton, Tooltip, Typography } from '@mui/material';
import type { ReactNode } from 'react';

export type KpiTone =
  | 'primary'
  | 'secondary'
  | 'success'
  | 'warning'
  | 'error'
  | 'info'
  | 'cheaper'
  | 'dearer'
  | 'neutral';

export interface KpiCardProps {
  label: string;
  /** The figure, already formatted (formatNumber / formatPrice / formatPercent). */
  value: ReactNode;
  /** A second line: share of the total, a change, a unit. */
  caption?: ReactNode;
  /** What the figure means (tooltip on the label). */
  help?: string;
  icon?: ReactNode;
  tone?: KpiTone;
  loading?: boolean;
}

/** One indicator tile: label, big right-aligned-free figure, optional caption; skeleton while loading. */
export function KpiCard({ label, value, caption, help, icon, tone = 'primary', loading }: KpiCardProps) {
  const labelId = `kpi-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={labelId}
      sx={(t) => {
        const main = tone === 'neutral' ? t.palette.text.secondary : t.palette[tone].main;
        return {
          position: 'relative',
          overflow: 'hidden',
          p: 2,
          pl: 2.5,
          minHeight: 96,
          display: 'flex',
          gap: 1.5,
          alignItems: 'flex-start',
          borderRadius: 2,
          '&::before': {
            content: '""',
            position: 'absolute',
            left: 0,
            top: 0,
            bottom: 0,
            width: 4,
            bgcolor: main,
          },
        };
      }}
    >
      {icon && (
        <Box
          aria-hidden
          sx={(t) => {
            const main = tone === 'neutral' ? t.palette.text.secondary : t.palette[tone].main;
            return {
              flex: '0 0 auto',
              width: 36,
              height: 36,
              borderRadius: 1.5,
              display: 'grid',
              placeItems: 'center',
              color: main,
              bgcolor: `color-mix(in srgb, ${main} 12%, transparent)`,
              '& svg': { fontSize: 20 },
            };
          }}
        >
          {icon}
        </Box>
      )}
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Tooltip
          title={help ?? ''}
          disableHoverListener={!help}
          disableFocusListener={!help}
          placement="top-start"
        >
          <Typography
            id={labelId}
            variant="caption"
            component="h2"
            sx={{
              color: 'text.secondary',
              fontWeight: 600,
              letterSpacing: 0.2,
              textTransform: 'uppercase',
              lineHeight: 1.3,
              display: '-webkit-box',
              WebkitLineClamp: 2,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
            }}
          >
            {label}
          </Typography>
        </Tooltip>
        {loading ? (
          <>
            <Skeleton variant="text" width="60%" sx={{ fontSize: 28 }} />
            <Skeleton variant="text" width="40%" />
          </>
        ) : (
          <>
            <Typography
              component="p"
              sx={{
                fontSize: 26,
                fontWeight: 700,
                lineHeight: 1.25,
                mt: 0.25,
                fontVariantNumeric: 'tabular-nums',
              }}
            >
              {value}
            </Typography>
            {caption && (
              <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 0.25 }}>
                {caption}
              </Typography>
            )}
          </>
        )}
      </Box>
    </Paper>
  );
}

/** Responsive grid of KPI cards. */
export function KpiGrid({ children, min = 170 }: { children: ReactNode; min?: number }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 1.5,
        gridTemplateColumns: `repeat(auto-fill, minmax(${min}px, 1fr))`,
      }}
    >
      {children}
    </Box>
  );
}
