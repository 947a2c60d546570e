import { describe, expect, it } from 'vitest';
import { niceStep, spikeFlags, weeksOf, windowOf } from './service.js';

describe('promotions helpers', () => {
  it('flags spike weeks against the median and the median absolute deviation', () => {
    // median 18; deviations 0 1 1 0 9 0 → MAD 0.5; threshold 18 + max(3, 3 × 1.4826 × 0.5 = 2.22) = 21
    expect(spikeFlags([18, 17, 19, 18, 27, 18])).toEqual([false, false, false, false, true, false]);
    expect(spikeFlags([18, 17, 19, 18, 21, 18])).toEqual([false, false, false, false, true, false]);
    expect(spikeFlags([18, 17, 19, 18, 20.9, 18])).toEqual([false, false, false, false, false, false]);
    // noisy series: median 20, deviations 10 10 0 10 0 → MAD 10 → threshold 20 + 44.5: nothing stands out
    expect(spikeFlags([10, 30, 20, 10, 20])).toEqual([false, false, false, false, false]);
    // fewer than 4 weeks with a value: no spikes; empty weeks never are
    expect(spikeFlags([10, 50, null, 10])).toEqual([false, false, false, false]);
    expect(spikeFlags([10, 10, null, 10, 40])).toEqual([false, false, false, false, true]);
  });

  it('cuts the window into Monday weeks clipped to it', () => {
    expect(weeksOf('2026-11-04', '2026-11-17')).toEqual([
      { week: '2026-11-02', from: '2026-11-04', to: '2026-11-08' },
      { week: '2026-11-09', from: '2026-11-09', to: '2026-11-15' },
      { week: '2026-11-16', from: '2026-11-16', to: '2026-11-17' },
    ]);
  });

  it('defaults the window to the 90 days before today (promotion search type 3)', () => {
    expect(windowOf({}, new Date('2026-11-24T15:00:00Z'))).toEqual({ from: '2026-08-26', to: '2026-11-24' });
    expect(windowOf({ to_date: '2026-03-31' }, new Date('2026-11-24T15:00:00Z'))).toEqual({
      from: '2025-12-31',
      to: '2026-03-31',
    });
    expect(() => windowOf({ from_date: '2025-01-01', to_date: '2026-11-24' })).toThrow(/400 días/);
  });

  it('rounds bucket widths to 1, 2 or 5 × a power of ten', () => {
    expect(niceStep(967.5)).toBe(50); // 48.4 → 50
    expect(niceStep(20_000)).toBe(1000);
    expect(niceStep(31)).toBe(2); // 1.55 → 2
    expect(niceStep(0)).toBe(1);
  });
});
