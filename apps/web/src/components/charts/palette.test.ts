import { describe, expect, it } from 'vitest';
import { SERIES_PALETTE, seriesColor, withAlpha } from './palette.js';

describe('chart palette', () => {
  it('keeps a valid own colour and falls back to the palette', () => {
    expect(seriesColor('#123abc', 3)).toBe('#123abc');
    expect(seriesColor('red', 1)).toBe(SERIES_PALETTE[1]);
    expect(seriesColor(null, SERIES_PALETTE.length)).toBe(SERIES_PALETTE[0]);
  });
  it('adds an alpha to hex colours', () => {
    expect(withAlpha('#ff0080', 0.5)).toBe('rgba(255, 0, 128, 0.5)');
    expect(withAlpha('#f08', 1)).toBe('rgba(255, 0, 136, 1)');
    expect(withAlpha('rgb(1,2,3)', 0.2)).toBe('rgb(1,2,3)');
  });
});
