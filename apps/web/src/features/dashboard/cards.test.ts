import { describe, expect, it } from 'vitest';
import { CARD_META, formatCardChange, formatCardValue } from './cards.js';

describe('dashboard cards', () => {
  it('formats figures by unit with es-CL separators', () => {
    expect(formatCardValue({ unit: 'percent', value: 87.25 }, 'CLP')).toBe('87,3%');
    expect(formatCardValue({ unit: 'index', value: 102.34 }, 'CLP')).toBe('102,3');
    expect(formatCardValue({ unit: 'money', value: 12990 }, 'CLP')).toBe('$12.990');
    expect(formatCardValue({ unit: 'money', value: 12.5 }, 'USD')).toBe('US$12,50');
    expect(formatCardValue({ unit: 'count', value: 1234 }, 'CLP')).toBe('1.234');
    expect(formatCardValue({ unit: 'count', value: null }, 'CLP')).toBe('—');
  });
  it('signs the change, in points for percentages and indices', () => {
    expect(formatCardChange({ key: 'availability', unit: 'percent', change: 2.04 }, 'CLP')).toEqual({
      text: '+2,0 pts',
      direction: 'up',
      tone: 'good',
    });
    expect(formatCardChange({ key: 'price_index', unit: 'index', change: 1.5 }, 'CLP')?.tone).toBe('bad');
    expect(formatCardChange({ key: 'unpublished', unit: 'count', change: -3 }, 'CLP')).toEqual({
      text: '-3',
      direction: 'down',
      tone: 'good',
    });
    expect(formatCardChange({ key: 'monetary_discount', unit: 'money', change: -500 }, 'CLP')).toEqual({
      text: '-$500',
      direction: 'down',
      tone: 'neutral',
    });
    expect(formatCardChange({ key: 'new', unit: 'count', change: 0 }, 'CLP')?.direction).toBe('none');
    // a change that rounds to zero shows no sign ("-0,0 pts" never)
    expect(formatCardChange({ key: 'price_index', unit: 'index', change: -0.03 }, 'CLP')).toEqual({
      text: '0,0 pts',
      direction: 'none',
      tone: 'neutral',
    });
    expect(formatCardChange({ key: 'new', unit: 'count', change: null }, 'CLP')).toBeNull();
  });
  it('links every card to a screen', () => {
    for (const meta of Object.values(CARD_META)) expect(meta.link.path).toMatch(/^[a-z-]+$/);
  });
});
