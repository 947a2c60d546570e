import { useTheme } from '@mui/material/styles';
import { useMemo } from 'react';

/** The MUI theme's colours as Chart.js needs them (axes, grid, tooltip), so charts follow the app. */
export function useChartTheme() {
  const theme = useTheme();
  return useMemo(
    () => ({
      text: theme.palette.text.secondary,
      grid: theme.palette.divider,
      tooltipBg: theme.palette.mode === 'dark' ? theme.palette.grey[800] : 'rgba(33, 17, 52, 0.92)',
      primary: theme.palette.primary.main,
      secondary: theme.palette.secondary.main,
      font: typeof theme.typography.fontFamily === 'string' ? theme.typography.fontFamily : undefined,
    }),
    [theme],
  );
}
export type ChartTheme = ReturnType<typeof useChartTheme>;
