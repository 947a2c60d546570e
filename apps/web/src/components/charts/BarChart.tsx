import Box from '@mui/material/Box';
import type { ChartData, ChartOptions, TooltipItem } from 'chart.js';
import { useMemo } from 'react';
import { Bar } from 'react-chartjs-2';
import { hatchPattern, seriesColor } from './palette.js';
import { registerCharts } from './register.js';
import { useChartTheme } from './use-chart-theme.js';

registerCharts();

export interface BarSeries {
  id: string | number;
  label: string;
  color?: string | null;
  /** One value per label. */
  data: (number | null)[];
  /** Series with the same stack id pile up when the chart is stacked. */
  stack?: string;
  /** 'hatch': diagonal stripes of the colour (bars told apart by texture, not colour alone). */
  pattern?: 'hatch';
}

export interface BarChartProps {
  labels: string[];
  series: BarSeries[];
  formatValue: (value: number) => string;
  ariaLabel: string;
  height?: number;
  /** Pile series on each other (e.g. price ranges per classification). */
  stacked?: boolean;
  /** Bars grow to the right; long category names read better. */
  horizontal?: boolean;
  /** Value axis bounds (e.g. 0–100 for percentages). */
  min?: number;
  max?: number;
  showLegend?: boolean;
}

/** Bar or stacked bar chart. */
export function BarChart({
  labels,
  series,
  formatValue,
  ariaLabel,
  height = 320,
  stacked = false,
  horizontal = false,
  min,
  max,
  showLegend = true,
}: BarChartProps) {
  const theme = useChartTheme();

  const data = useMemo<ChartData<'bar', (number | null)[], string>>(
    () => ({
      labels,
      datasets: series.map((s, i) => {
        const color = seriesColor(s.color, i);
        return {
          label: s.label,
          data: s.data,
          backgroundColor: s.pattern === 'hatch' ? hatchPattern(color) : color,
          borderColor: color,
          borderWidth: s.pattern === 'hatch' ? 1.5 : 0,
          borderRadius: stacked ? 0 : 4,
          maxBarThickness: 48,
          stack: stacked ? (s.stack ?? 'all') : undefined,
        };
      }),
    }),
    [labels, series, stacked],
  );

  const options = useMemo<ChartOptions<'bar'>>(() => {
    const valueAxis = {
      stacked,
      min,
      max,
      grid: { color: theme.grid },
      border: { display: false },
      ticks: {
        color: theme.text,
        callback: (v: number | string) => (typeof v === 'number' ? formatValue(v) : v),
      },
    };
    const categoryAxis = {
      stacked,
      grid: { display: false },
      ticks: { color: theme.text, autoSkip: false, maxRotation: horizontal ? 0 : 45 },
    };
    return {
      responsive: true,
      maintainAspectRatio: false,
      indexAxis: horizontal ? 'y' : 'x',
      interaction: { mode: 'index', intersect: false },
      plugins: {
        legend: {
          display: showLegend,
          position: 'bottom',
          labels: { usePointStyle: true, pointStyle: 'rectRounded', boxWidth: 10, color: theme.text },
        },
        tooltip: {
          backgroundColor: theme.tooltipBg,
          padding: 10,
          callbacks: {
            label: (item: TooltipItem<'bar'>) => {
              const v = horizontal ? item.parsed.x : item.parsed.y;
              return `${item.dataset.label ?? ''}: ${v === null || v === undefined ? '—' : formatValue(v)}`;
            },
          },
        },
      },
      scales: horizontal ? { x: valueAxis, y: categoryAxis } : { x: categoryAxis, y: valueAxis },
    };
  }, [theme, stacked, horizontal, min, max, formatValue, showLegend]);

  return (
    <Box sx={{ position: 'relative', height, width: '100%' }}>
      <Bar data={data} options={options} role="img" aria-label={ariaLabel} />
    </Box>
  );
}
