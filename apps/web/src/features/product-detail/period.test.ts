import { describe, expect, it } from 'vitest';
import {
  defaultPeriod,
  matchingPreset,
  PERIOD_PRESETS,
  periodError,
  presetPeriod,
  todayIso,
} from './period.js';

describe('history period', () => {
  it('defaults to one month back to today in Santiago (seed 001 §7)', () => {
    // 02:00 UTC on 15 March is still 14 March in Santiago.
    expect(defaultPeriod(new Date('2025-03-15T02:00:00Z'))).toEqual({ from: '2025-02-14', to: '2025-03-14' });
    expect(todayIso(new Date('2025-03-01T02:00:00Z'))).toBe('2025-02-28');
  });
  it('computes presets ending today', () => {
    const week = PERIOD_PRESETS.find((p) => p.key === '7d')!;
    expect(presetPeriod(week, '2025-03-03')).toEqual({ from: '2025-02-24', to: '2025-03-03' });
    const year = PERIOD_PRESETS.find((p) => p.key === '1y')!;
    expect(presetPeriod(year, '2024-02-29')).toEqual({ from: '2023-02-28', to: '2024-02-29' });
  });
  it('recognises a preset period', () => {
    expect(matchingPreset({ from: '2025-02-15', to: '2025-03-15' }, '2025-03-15')?.key).toBe('1m');
    expect(matchingPreset({ from: '2025-03-01', to: '2025-03-15' }, '2025-03-15')).toBeNull();
  });
  it('validates the period', () => {
    const today = '2025-03-15';
    expect(periodError({ from: '2025-02-15', to: today }, 731, today)).toBeNull();
    expect(periodError({ from: '', to: today }, 731, today)).toMatch(/ambas/);
    expect(periodError({ from: '2025-03-16', to: today }, 731, today)).toMatch(/anterior/);
    expect(periodError({ from: '2025-03-01', to: '2025-03-20' }, 731, today)).toMatch(/posterior/);
    expect(periodError({ from: '2022-01-01', to: today }, 731, today)).toMatch(/731/);
  });
});

describe('history period in the URL', () => {
  const now = new Date('2026-11-24T15:00:00Z');
  it('reads a valid period and falls back to the default on anything else', async () => {
    const { readUrlPeriod } = await import('./period.js');
    expect(readUrlPeriod(new URLSearchParams('from=2026-08-01&to=2026-11-01'), 365, now)).toEqual({
      from: '2026-08-01',
      to: '2026-11-01',
    });
    const fallback = defaultPeriod(now);
    for (const q of ['from=garbage&to=2026-11-01', 'from=2026-11-10&to=2026-11-01', 'from=2026-11-01', ''])
      expect(readUrlPeriod(new URLSearchParams(q), 365, now), q).toEqual(fallback);
    // longer than allowed
    expect(readUrlPeriod(new URLSearchParams('from=2024-01-01&to=2026-11-01'), 365, now)).toEqual(fallback);
  });
});
