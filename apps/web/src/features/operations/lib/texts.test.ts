import { describe, expect, it } from 'vitest';
import { formatDuration, timeAgo } from './texts.js';

describe('operations texts', () => {
  it('says how fresh data is', () => {
    const now = Date.parse('2026-11-26T15:00:00Z');
    expect(timeAgo('2026-11-26T12:00:00Z', now)).toBe('actualizado hace 3 h');
    expect(timeAgo('2026-11-26T14:55:00Z', now)).toBe('actualizado hace 5 min');
    expect(timeAgo('2026-11-23T15:00:00Z', now)).toBe('actualizado hace 3 días');
    expect(timeAgo(null, now)).toBe('Sin datos importados');
  });
  it('formats durations in Spanish', () => {
    expect(formatDuration(12_300)).toBe('12,3 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(null)).toBe('—');
  });
});
