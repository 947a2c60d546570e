import { formatDate, type HistorySeller, priceTypeLabel, type QmiHistoryPoint } from '@vigia/domain';
import type { LineSeries } from '../../components/charts/LineChart.js';
import { pricePointStyle } from '../../components/charts/markers.js';

// Price-history answers → chart series: one x label per day of the period (union of the sellers' days),
// one line per seller in its own colour, one marker per point (seed 001 §4), the pivot drawn on top.

export interface HistoryChart {
  /** yyyy-MM-dd, ascending */
  days: string[];
  /** dd-MM-yyyy, for the axis */
  labels: string[];
  prices: LineSeries[];
  positions: LineSeries[];
}

interface PointLike {
  date: string;
  price: number | null;
  price_type: string;
  stock_out: boolean;
}

/** The tooltip detail of a point: its price type, and 'Sin stock' when out of stock. */
export function pointDetail(p: Pick<PointLike, 'price_type' | 'stock_out'>): string {
  return p.stock_out ? `${priceTypeLabel(p.price_type)}, sin stock` : priceTypeLabel(p.price_type);
}

function sortedDays(lists: { date: string }[][]): string[] {
  const set = new Set<string>();
  for (const list of lists) for (const p of list) set.add(p.date.slice(0, 10));
  return [...set].sort();
}

function align<P extends { date: string }>(days: string[], points: P[]): (P | null)[] {
  const byDay = new Map(points.map((p) => [p.date.slice(0, 10), p]));
  return days.map((d) => byDay.get(d) ?? null);
}

/** Series of /v1/historical/complete/ (price lines and ranking positions per seller). */
export function buildHistoryChart(sellers: HistorySeller[], pivotLabel = 'Mi precio'): HistoryChart {
  const days = sortedDays(sellers.map((s) => s.prices));
  const prices: LineSeries[] = [];
  const positions: LineSeries[] = [];
  for (const s of sellers) {
    const aligned = align(days, s.prices);
    const label = s.is_pivot ? `${s.name} (${pivotLabel})` : s.name;
    const markers = aligned.map((p) => (p ? pricePointStyle(p) : null));
    const details = aligned.map((p) => (p ? pointDetail(p) : null));
    prices.push({
      id: s.id,
      label,
      color: s.color,
      emphasis: s.is_pivot,
      data: aligned.map((p) => p?.price ?? null),
      markers,
      details,
    });
    positions.push({
      id: s.id,
      label,
      color: s.color,
      emphasis: s.is_pivot,
      // my position is the story; the competitors' lines are context
      muted: !s.is_pivot,
      data: aligned.map((p) => p?.position ?? null),
      markers,
      details,
    });
  }
  return { days, labels: days.map((d) => formatDate(d)), prices, positions };
}

/** True when no seller has a single price in the period. */
export function isHistoryEmpty(chart: HistoryChart): boolean {
  return chart.prices.every((s) => s.data.every((v) => v === null));
}

/** Series of /v2/detail/qmi/history: one listing's effective price and its normal price. */
export function buildQmiHistoryChart(
  points: QmiHistoryPoint[],
  seller: { id: number; name: string; color: string },
): { labels: string[]; series: LineSeries[] } {
  const sorted = [...points].sort((a, b) => a.date.localeCompare(b.date));
  const series: LineSeries[] = [
    {
      id: 'price',
      label: `Precio (${seller.name})`,
      color: seller.color,
      emphasis: true,
      data: sorted.map((p) => p.price),
      markers: sorted.map((p) => pricePointStyle(p)),
      details: sorted.map((p) => pointDetail(p)),
    },
  ];
  // The normal price only adds information when some day was on promotion.
  if (sorted.some((p) => p.normal_price !== null && p.price !== null && p.normal_price !== p.price)) {
    series.push({
      id: 'normal',
      label: 'Precio normal',
      color: '#9e9e9e',
      dashed: true,
      data: sorted.map((p) => p.normal_price),
    });
  }
  return { labels: sorted.map((p) => formatDate(p.date.slice(0, 10))), series };
}
