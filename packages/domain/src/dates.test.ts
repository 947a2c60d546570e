import { describe, expect, it } from 'vitest';
import { calendarDate, isCalendarDate } from './dates.js';

describe('calendarDate', () => {
  it('accepts existing days (with an optional time part) and refuses the rest', () => {
    for (const ok of ['2024-02-29', '2025-12-31', '2025-01-01T10:00:00Z'])
      expect(isCalendarDate(ok)).toBe(true);
    for (const bad of ['2025-13-45', '2025-02-29', '2025-04-31', '0000-01-01', '1899-12-31', '25-01-01', 'x'])
      expect(isCalendarDate(bad)).toBe(false);
    expect(calendarDate.safeParse('2025-13-45').success).toBe(false);
    expect(calendarDate.safeParse('2025-06-30').success).toBe(true);
  });
});
