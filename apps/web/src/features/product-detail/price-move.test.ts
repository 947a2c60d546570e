import { describe, expect, it } from 'vitest';
import { priceMoveText } from './components/VariationBadge.js';

describe('price move in words (issue 18 §5)', () => {
  it('says which way the price went, whatever the sign of the seed figure', () => {
    expect(priceMoveText(25990, 27990, 'CLP')).toBe('bajó de $27.990 a $25.990');
    expect(priceMoveText(514990, 464990, 'CLP')).toBe('subió de $464.990 a $514.990');
    expect(priceMoveText(10, 10, 'USD')).toBe('sin cambio (US$10,00)');
    expect(priceMoveText(10, null, 'CLP')).toBeNull();
  });
});
