export { BarChart, type BarChartProps, type BarSeries } from './BarChart.js';
export {
  BubbleChart,
  type BubbleChartProps,
  type BubblePoint,
  type BubbleSeries,
  DEFAULT_BUBBLE_RADIUS,
} from './BubbleChart.js';
export { ChartContainer, type ChartContainerProps, type LoadStatus } from './ChartContainer.js';
export { LineChart, type LineChartProps, type LineSeries } from './LineChart.js';
export { MarkerIcon, MarkerLegend } from './MarkerLegend.js';
export { markerPointStyle, PRICE_MARKER_LEGEND, pricePointStyle } from './markers.js';
export { SERIES_PALETTE, seriesColor, withAlpha } from './palette.js';
export { registerCharts } from './register.js';
