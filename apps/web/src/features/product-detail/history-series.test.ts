import type { HistorySeller, QmiHistoryPoint } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import { buildHistoryChart, buildQmiHistoryChart, isHistoryEmpty, pointDetail } from './history-series.js';

const pivot: HistorySeller = {
  id: 116,
  name: 'Mi tienda',
  color: '#6a1b9a',
  is_pivot: true,
  prices: [
    { date: '2025-03-01', price: 1000, price_type: 'NORMAL', stock_out: false, position: 2 },
    { date: '2025-03-02', price: 900, price_type: 'SALE', stock_out: false, position: 1 },
  ],
};
const rival: HistorySeller = {
  id: 5,
  name: 'Rival',
  color: '#d81b60',
  is_pivot: false,
  prices: [
    { date: '2025-03-02', price: 950, price_type: 'EXCLUSIVE', stock_out: false, position: 2 },
    { date: '2025-03-03', price: 950, price_type: 'NORMAL', stock_out: true, position: 1 },
  ],
};

describe('buildHistoryChart', () => {
  const chart = buildHistoryChart([pivot, rival]);
  it('uses the union of days, ascending, labelled dd-MM-yyyy', () => {
    expect(chart.days).toEqual(['2025-03-01', '2025-03-02', '2025-03-03']);
    expect(chart.labels).toEqual(['01-03-2025', '02-03-2025', '03-03-2025']);
  });
  it('aligns each seller on the days, with gaps where it has none', () => {
    expect(chart.prices[0].data).toEqual([1000, 900, null]);
    expect(chart.prices[1].data).toEqual([null, 950, 950]);
    expect(chart.positions[0].data).toEqual([2, 1, null]);
  });
  it('marks points by the seed rule and emphasises the pivot', () => {
    expect(chart.prices[0].markers).toEqual(['circle', 'rect', null]);
    expect(chart.prices[1].markers).toEqual([null, 'star', 'triangle']);
    expect(chart.prices[0].emphasis).toBe(true);
    expect(chart.prices[0].label).toBe('Mi tienda (Mi precio)');
    expect(chart.prices[1].color).toBe('#d81b60');
  });
  it('is empty when nobody has a price', () => {
    expect(isHistoryEmpty(chart)).toBe(false);
    expect(isHistoryEmpty(buildHistoryChart([]))).toBe(true);
  });
});

describe('pointDetail', () => {
  it('names the price type and the stock-out', () => {
    expect(pointDetail({ price_type: 'SALE', stock_out: false })).toBe('Oferta');
    expect(pointDetail({ price_type: 'NORMAL', stock_out: true })).toBe('Normal, sin stock');
  });
});

describe('buildQmiHistoryChart', () => {
  const point = (
    date: string,
    price: number,
    normal: number,
    type: QmiHistoryPoint['price_type'],
  ): QmiHistoryPoint => ({
    date,
    price,
    normal_price: normal,
    sale_price: type === 'SALE' ? price : null,
    exclusive_price: null,
    price_type: type,
    stock_out: false,
  });
  it('sorts by date and adds the normal price only when it differs', () => {
    const withSale = buildQmiHistoryChart(
      [point('2025-03-02', 800, 1000, 'SALE'), point('2025-03-01', 1000, 1000, 'NORMAL')],
      { id: 5, name: 'Rival', color: '#d81b60' },
    );
    expect(withSale.labels).toEqual(['01-03-2025', '02-03-2025']);
    expect(withSale.series[0].data).toEqual([1000, 800]);
    expect(withSale.series[0].markers).toEqual(['circle', 'rect']);
    expect(withSale.series).toHaveLength(2);
    const flat = buildQmiHistoryChart([point('2025-03-01', 1000, 1000, 'NORMAL')], {
      id: 5,
      name: 'R',
      color: '#000000',
    });
    expect(flat.series).toHaveLength(1);
  });
});
