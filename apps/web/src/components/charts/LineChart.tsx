import Box from '@mui/material/Box';
import type { ChartData, ChartOptions, PointStyle, TooltipItem } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { seriesColor, withAlpha } from './palette.js';
import { registerCharts } from './register.js';
import { useChartTheme } from './use-chart-theme.js';

registerCharts();

export interface LineSeries {
  id: string | number;
  label: string;
  /** Own colour (e.g. the seller's); the palette's when missing. */
  color?: string | null;
  /** One value per label; null leaves a gap. */
  data: (number | null)[];
  /** One marker per point (e.g. pricePointStyle()); a circle when missing. */
  markers?: (PointStyle | null)[];
  /** Extra tooltip line per point (e.g. 'Oferta', 'Sin stock'). */
  details?: (string | null)[];
  /** Drawn thicker and on top: the user's own series ('Mi precio'). */
  emphasis?: boolean;
  /** Drawn faint, as context for the emphasised series. */
  muted?: boolean;
  dashed?: boolean;
}

export interface LineChartProps {
  /** Category labels of the x axis (dates already formatted dd-MM-yyyy). */
  labels: string[];
  series: LineSeries[];
  /** Formats values on the axis and in the tooltip. */
  formatValue: (value: number) => string;
  /** Accessible description of the chart (the canvas is an image to assistive technology). */
  ariaLabel: string;
  height?: number;
  /** Lower values on top: ranking positions, where 1 is best. */
  reverse?: boolean;
  /** Only whole-number ticks (positions, counts). */
  integerTicks?: boolean;
  /** Hold each value until the next point (prices change in steps). */
  stepped?: boolean;
  /** Join points across missing values. Default true. */
  spanGaps?: boolean;
  yMin?: number;
  yMax?: number;
  yTitle?: string;
}

/** Line chart with per-point markers, seller colours and es-CL formatted values. */
export function LineChart({
  labels,
  series,
  formatValue,
  ariaLabel,
  height = 320,
  reverse = false,
  integerTicks = false,
  stepped = false,
  spanGaps = true,
  yMin,
  yMax,
  yTitle,
}: LineChartProps) {
  const theme = useChartTheme();

  const data = useMemo<ChartData<'line', (number | null)[], string>>(() => {
    const many = labels.length > 60;
    return {
      labels,
      datasets: series.map((s, i) => {
        const color = seriesColor(s.color, i);
        const line = s.muted ? withAlpha(color, 0.4) : color;
        return {
          label: s.label,
          data: s.data,
          borderColor: line,
          backgroundColor: withAlpha(color, s.muted ? 0.4 : 0.85),
          pointBackgroundColor: withAlpha(color, s.muted ? 0.4 : 0.85),
          pointBorderColor: line,
          pointStyle: s.markers ? s.markers.map((m) => m ?? 'circle') : 'circle',
          pointRadius: s.markers ? (many ? 3 : 4) : many ? 0 : 3,
          pointHoverRadius: 7,
          pointBorderWidth: 1.5,
          borderWidth: s.emphasis ? 3 : 2,
          borderDash: s.dashed ? [6, 4] : undefined,
          order: s.emphasis ? 0 : 1,
          stepped: stepped ? 'after' : false,
          tension: stepped ? 0 : 0.15,
          spanGaps,
          // markers on the top and bottom lines are drawn whole
          clip: 8,
        };
      }),
    };
  }, [labels, series, stepped, spanGaps]);

  const options = useMemo<ChartOptions<'line'>>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      layout: { padding: { top: 8, right: 8 } },
      interaction: { mode: 'index', intersect: false },
      plugins: {
        legend: {
          position: 'bottom',
          labels: { usePointStyle: true, pointStyle: 'circle', boxWidth: 8, boxHeight: 8, color: theme.text },
        },
        tooltip: {
          backgroundColor: theme.tooltipBg,
          usePointStyle: true,
          padding: 10,
          itemSort: (a, b) => (a.parsed.y ?? 0) - (b.parsed.y ?? 0),
          callbacks: {
            label: (item: TooltipItem<'line'>) => {
              const s = series[item.datasetIndex];
              const value = item.parsed.y;
              if (value === null || value === undefined) return `${s?.label ?? ''}: —`;
              const detail = s?.details?.[item.dataIndex];
              return `${s?.label ?? ''}: ${formatValue(value)}${detail ? ` (${detail})` : ''}`;
            },
          },
        },
      },
      scales: {
        x: {
          grid: { display: false },
          ticks: { color: theme.text, maxRotation: 0, autoSkip: true, autoSkipPadding: 16 },
        },
        y: {
          reverse,
          min: yMin,
          max: yMax,
          grid: { color: theme.grid },
          border: { display: false },
          title: yTitle ? { display: true, text: yTitle, color: theme.text } : undefined,
          ticks: {
            color: theme.text,
            precision: integerTicks ? 0 : undefined,
            stepSize: integerTicks ? 1 : undefined,
            callback: (v) => (typeof v === 'number' ? formatValue(v) : v),
          },
        },
      },
    }),
    [theme, series, formatValue, reverse, integerTicks, yMin, yMax, yTitle],
  );

  return (
    <Box sx={{ position: 'relative', height, width: '100%' }}>
      <Line data={data} options={options} role="img" aria-label={ariaLabel} />
    </Box>
  );
}
