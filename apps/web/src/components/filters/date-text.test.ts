import { describe, expect, it } from 'vitest';
import { dateTextToIso, dateTextValue, isoToDateText, maskDateText } from './date-text.js';

describe('date text (dd-mm-aaaa)', () => {
  it('shows ISO dates day first and leaves anything else as written', () => {
    expect(isoToDateText('2026-11-23')).toBe('23-11-2026');
    expect(isoToDateText('')).toBe('');
    expect(isoToDateText('2025-13')).toBe('2025-13');
  });

  it('reads a typed day into ISO only when the day exists', () => {
    expect(dateTextToIso('23-11-2026')).toBe('2026-11-23');
    expect(dateTextToIso('1/2/2026')).toBe('2026-02-01');
    expect(dateTextToIso('29.02.2024')).toBe('2024-02-29');
    expect(dateTextToIso('29-02-2025')).toBeNull();
    expect(dateTextToIso('31-04-2026')).toBeNull();
    expect(dateTextToIso('23-11')).toBeNull();
    expect(dateTextToIso('2026-11-23')).toBeNull();
  });

  it('groups digits as they are typed', () => {
    expect(maskDateText('2')).toBe('2');
    expect(maskDateText('231')).toBe('23-1');
    expect(maskDateText('2311')).toBe('23-11');
    expect(maskDateText('23112026')).toBe('23-11-2026');
    expect(maskDateText('23-11-20261')).toBe('23-11-2026');
    expect(maskDateText('23-')).toBe('23');
    expect(maskDateText('1/2/2026')).toBe('01-02-2026');
    expect(maskDateText('1-')).toBe('01');
    expect(maskDateText('ab23x11')).toBe('23-11');
    expect(maskDateText('')).toBe('');
    expect(maskDateText(' 2026-11-23 ')).toBe('23-11-2026');
  });

  it('gives the form ISO for a real day, empty for nothing, and the text otherwise', () => {
    expect(dateTextValue('23-11-2026')).toBe('2026-11-23');
    expect(dateTextValue('  ')).toBe('');
    expect(dateTextValue('31-02-2026')).toBe('31-02-2026');
    expect(dateTextValue('23-11')).toBe('23-11');
  });
});
