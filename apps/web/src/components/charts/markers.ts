import { type HistoryMarker, historyMarker } from '@vigia/domain';
import type { PointStyle } from 'chart.js';

// Price-history point markers: the rule is the domain's historyMarker (seed 001 §4: triangle stock-out,
// circle NORMAL, square SALE, star other); this maps it onto Chart.js point styles.

const POINT_STYLES: Record<HistoryMarker, PointStyle> = {
  triangle: 'triangle',
  circle: 'circle',
  square: 'rect',
  star: 'star',
};

export function markerPointStyle(marker: HistoryMarker): PointStyle {
  return POINT_STYLES[marker];
}

/** Chart.js point style of one price-history point. */
export function pricePointStyle(point: Parameters<typeof historyMarker>[0]): PointStyle {
  return POINT_STYLES[historyMarker(point)];
}

/** Legend of the markers, in the order they are explained to the user. */
export const PRICE_MARKER_LEGEND: readonly { marker: HistoryMarker; label: string }[] = [
  { marker: 'circle', label: 'Normal' },
  { marker: 'square', label: 'Oferta' },
  { marker: 'star', label: 'Otra promoción' },
  { marker: 'triangle', label: 'Sin stock' },
];
