import { describe, expect, it } from 'vitest';
import { nextRunAt, zonedTime } from './schedule.js';
import { sendRange } from './subscriptions.js';

// Hand-worked instants. Santiago: UTC−3 in summer (DST, until the first Saturday of April 2026 at 24:00)
// and UTC−4 in winter; Lima UTC−5 all year.

describe('subscription schedule', () => {
  it('a local hour in a zone is the right UTC instant', () => {
    expect(zonedTime(2026, 1, 15, 8, 'America/Santiago').toISOString()).toBe('2026-01-15T11:00:00.000Z'); // −3
    expect(zonedTime(2026, 7, 15, 8, 'America/Santiago').toISOString()).toBe('2026-07-15T12:00:00.000Z'); // −4
    expect(zonedTime(2026, 7, 15, 8, 'America/Lima').toISOString()).toBe('2026-07-15T13:00:00.000Z');
  });

  it('daily: the next occurrence of the hour, today if still ahead, else tomorrow', () => {
    const s = { frequency: 'daily' as const, hour: 8, weekday: 1, timezone: 'America/Santiago' };
    // 2026-01-15 10:00 UTC = 07:00 Santiago → 08:00 the same day
    expect(nextRunAt(s, new Date('2026-01-15T10:00:00Z')).toISOString()).toBe('2026-01-15T11:00:00.000Z');
    // exactly at 08:00 → tomorrow's
    expect(nextRunAt(s, new Date('2026-01-15T11:00:00Z')).toISOString()).toBe('2026-01-16T11:00:00.000Z');
    // 02:00 UTC on the 16th is still the 15th in Santiago (23:00): next is the 16th at 08:00
    expect(nextRunAt(s, new Date('2026-01-16T02:00:00Z')).toISOString()).toBe('2026-01-16T11:00:00.000Z');
  });

  it('weekly: the chosen ISO weekday (1 = lunes) in the recipient zone, across a DST change', () => {
    const s = { frequency: 'weekly' as const, hour: 9, weekday: 1, timezone: 'America/Santiago' };
    // Thursday 2026-04-02 → Monday 2026-04-06 09:00, after the change to UTC−4 → 13:00 UTC
    expect(nextRunAt(s, new Date('2026-04-02T12:00:00Z')).toISOString()).toBe('2026-04-06T13:00:00.000Z');
    // Monday 2026-03-30 09:00 (UTC−3) = 12:00 UTC
    expect(nextRunAt(s, new Date('2026-03-29T12:00:00Z')).toISOString()).toBe('2026-03-30T12:00:00.000Z');
  });

  it('the range a send covers ends on the local day of the send', () => {
    const at = new Date('2026-01-16T02:00:00Z'); // 2026-01-15 23:00 in Santiago
    expect(sendRange('daily', at, 'America/Santiago')).toEqual({ from: '2026-01-15', to: '2026-01-15' });
    expect(sendRange('weekly', at, 'America/Santiago')).toEqual({ from: '2026-01-09', to: '2026-01-15' });
  });
});
