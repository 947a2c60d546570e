import { describe, expect, it } from 'vitest';
import { nextCronRun, parseCron } from './cron.js';

describe('cron schedules in the organisation zone', () => {
  it('daily at 06:30 Santiago, across the September DST start', () => {
    const c = parseCron('30 6 * * *');
    // 2026-09-05 is the night clocks move forward in Chile (UTC-4 → UTC-3).
    expect(nextCronRun(c, 'America/Santiago', new Date('2026-09-04T12:00:00Z'))?.toISOString()).toBe(
      '2026-09-05T10:30:00.000Z',
    );
    expect(nextCronRun(c, 'America/Santiago', new Date('2026-09-05T12:00:00Z'))?.toISOString()).toBe(
      '2026-09-06T09:30:00.000Z',
    );
  });
  it('steps, lists, ranges and week days', () => {
    const every15 = parseCron('*/15 * * * *');
    expect(nextCronRun(every15, 'UTC', new Date('2026-11-26T10:07:00Z'))?.toISOString()).toBe(
      '2026-11-26T10:15:00.000Z',
    );
    const weekdays = parseCron('0 8 * * 1-5');
    // 2026-11-28 is a Saturday → Monday the 30th
    expect(
      nextCronRun(weekdays, 'America/Mexico_City', new Date('2026-11-27T20:00:00Z'))?.toISOString(),
    ).toBe('2026-11-30T14:00:00.000Z');
    const sunday = parseCron('0 0 * * 7');
    expect(nextCronRun(sunday, 'UTC', new Date('2026-11-26T00:00:00Z'))?.toISOString()).toBe(
      '2026-11-29T00:00:00.000Z',
    );
  });
  it('refuses what is not a five-field cron', () => {
    expect(() => parseCron('* * * *')).toThrow(/cinco campos/);
    expect(() => parseCron('61 * * * *')).toThrow(/fuera de rango/);
    expect(() => parseCron('a * * * *')).toThrow(/no válido/);
  });
});
