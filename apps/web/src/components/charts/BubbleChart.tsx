import Box from '@mui/material/Box';
import type { ChartData, ChartOptions, TooltipItem } from 'chart.js';
import { useMemo } from 'react';
import { Bubble } from 'react-chartjs-2';
import { seriesColor, withAlpha } from './palette.js';
import { registerCharts } from './register.js';
import { useChartTheme } from './use-chart-theme.js';

registerCharts();

/** Bubble radius of the promotions scatter plot (seed 001 §2). */
export const DEFAULT_BUBBLE_RADIUS = 7;

export interface BubblePoint {
  x: number;
  y: number;
  /** Radius in px; DEFAULT_BUBBLE_RADIUS when missing. */
  r?: number;
  /** Lines shown in the tooltip under the figures, e.g. a few of the products a bubble gathers. */
  details?: string[];
}

export interface BubbleSeries {
  id: string | number;
  label: string;
  color?: string | null;
  data: BubblePoint[];
}

export interface BubbleChartProps {
  series: BubbleSeries[];
  formatX: (value: number) => string;
  formatY: (value: number) => string;
  xTitle: string;
  yTitle: string;
  ariaLabel: string;
  height?: number;
}

/** Bubble (scatter) chart, e.g. price against product count per seller. */
export function BubbleChart({
  series,
  formatX,
  formatY,
  xTitle,
  yTitle,
  ariaLabel,
  height = 360,
}: BubbleChartProps) {
  const theme = useChartTheme();

  const data = useMemo<ChartData<'bubble', { x: number; y: number; r: number }[]>>(
    () => ({
      datasets: series.map((s, i) => {
        const color = seriesColor(s.color, i);
        return {
          label: s.label,
          data: s.data.map((p) => ({ x: p.x, y: p.y, r: p.r ?? DEFAULT_BUBBLE_RADIUS })),
          backgroundColor: withAlpha(color, 0.55),
          borderColor: color,
          borderWidth: 1,
          hoverRadius: 2,
        };
      }),
    }),
    [series],
  );

  const options = useMemo<ChartOptions<'bubble'>>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        legend: {
          position: 'bottom',
          labels: { usePointStyle: true, pointStyle: 'circle', boxWidth: 8, color: theme.text },
        },
        tooltip: {
          backgroundColor: theme.tooltipBg,
          padding: 10,
          callbacks: {
            // the series and its figures, then the point's detail lines (one line each)
            label: (item: TooltipItem<'bubble'>) => [
              `${item.dataset.label ?? ''}: ${xTitle} ${formatX(item.parsed.x ?? 0)} · ${yTitle} ${formatY(item.parsed.y ?? 0)}`,
              ...(series[item.datasetIndex]?.data[item.dataIndex]?.details ?? []).map((d) => `  ${d}`),
            ],
          },
        },
      },
      scales: {
        x: {
          title: { display: true, text: xTitle, color: theme.text },
          grid: { color: theme.grid },
          ticks: { color: theme.text, callback: (v) => (typeof v === 'number' ? formatX(v) : v) },
        },
        y: {
          title: { display: true, text: yTitle, color: theme.text },
          grid: { color: theme.grid },
          border: { display: false },
          ticks: { color: theme.text, callback: (v) => (typeof v === 'number' ? formatY(v) : v) },
        },
      },
    }),
    [theme, series, formatX, formatY, xTitle, yTitle],
  );

  return (
    <Box sx={{ position: 'relative', height, width: '100%' }}>
      <Bubble data={data} options={options} role="img" aria-label={ariaLabel} />
    </Box>
  );
}
