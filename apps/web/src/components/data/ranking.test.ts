import { describe, expect, it } from 'vitest';
import { clampStep, rankingLabel } from './ranking.js';

describe('rankingLabel', () => {
  it('uses the seed labels at the ends and the place between', () => {
    expect(rankingLabel(1)).toBe('Más bajo');
    expect(rankingLabel(9)).toBe('Más alto');
    expect(rankingLabel(5)).toBe('Posición 5 de 9, entre más bajo y más alto');
  });
  it('clamps out-of-scale steps', () => {
    expect(clampStep(12)).toBe(9);
    expect(clampStep(0)).toBe(1);
    expect(clampStep(Number.NaN)).toBe(1);
  });
});
