import { describe, expect, it } from 'vitest';
import { nextCronRun, parseCron } from './cron.js';
import { sellerStale } from './queries.js';

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

describe('a seller is stale when a run its schedule called for did not land', () => {
  // 2026-11-26 15:00 UTC = 12:00 in Santiago (UTC-3) = 09:00 in Mexico City (UTC-6)
  const now = new Date('2026-11-26T15:00:00Z');
  const at = (iso: string) => new Date(iso);
  it('never imported; without a schedule, older than 26 h', () => {
    expect(sellerStale(null, [], 'America/Santiago', now)).toBe(true);
    expect(sellerStale(at('2026-11-25T14:00:00Z'), [], 'America/Santiago', now)).toBe(false); // 25 h
    expect(sellerStale(at('2026-11-25T12:00:00Z'), [], 'America/Santiago', now)).toBe(true); // 27 h
  });
  it('hourly: the hour after the last import plus an hour of grace', () => {
    // last 13:05 → due 14:00, stale after 15:00 (not yet at 15:00 itself)
    expect(sellerStale(at('2026-11-26T13:05:00Z'), ['0 * * * *'], 'America/Santiago', now)).toBe(false);
    // last 12:55 → due 13:00, stale after 14:00 (well within 26 h: the old rule said fresh)
    expect(sellerStale(at('2026-11-26T12:55:00Z'), ['0 * * * *'], 'America/Santiago', now)).toBe(true);
  });
  it('daily at 06:00 in the organisation zone', () => {
    // Santiago: 06:00 = 09:00 UTC. Last import yesterday 09:10 → due today 09:00, stale since 10:00.
    expect(sellerStale(at('2026-11-25T09:10:00Z'), ['0 6 * * *'], 'America/Santiago', now)).toBe(true);
    // last today 10:00 UTC (07:00 in Santiago, after today's run) → next due tomorrow: fresh …
    expect(sellerStale(at('2026-11-26T10:00:00Z'), ['0 6 * * *'], 'America/Santiago', now)).toBe(false);
    // … but in Mexico City (06:00 = 12:00 UTC) today's run came after it and did not land: stale (13:00).
    expect(sellerStale(at('2026-11-26T10:00:00Z'), ['0 6 * * *'], 'America/Mexico_City', now)).toBe(true);
  });
  it('any of several schedules; an unreadable one says nothing', () => {
    const last = at('2026-11-26T10:00:00Z');
    expect(sellerStale(last, ['0 6 * * *', '0 * * * *'], 'America/Santiago', now)).toBe(true);
    expect(sellerStale(last, ['no es cron', '0 6 * * *'], 'America/Santiago', now)).toBe(false);
  });
});
