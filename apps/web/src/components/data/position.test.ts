import { describe, expect, it } from 'vitest';
import { bandText, differenceKind, formatSignedPercent, inRangeLabel } from './position.js';

describe('position figures', () => {
  it('signs differences and never shows -0,0 %', () => {
    expect(formatSignedPercent(12.34)).toBe('+12,3%');
    expect(formatSignedPercent(-4)).toBe('-4,0%');
    expect(formatSignedPercent(-0.04)).toBe('0,0%');
    expect(formatSignedPercent(0.04)).toBe('0,0%');
  });
  it('names the band of a split', () => {
    expect(bandText(10)).toBe('hasta +10%');
    expect(bandText(2.5)).toBe('hasta +2,5%');
    expect(inRangeLabel(5)).toBe('En rango (hasta +5%)');
    expect(inRangeLabel(undefined)).toBe('En rango');
  });
  it('a difference is dearer above +0,05 and cheaper below -0,05', () => {
    expect(differenceKind(0.05)).toBe('dearer');
    expect(differenceKind(-0.05)).toBe('cheaper');
    expect(differenceKind(0.049)).toBe('neutral');
  });
});
