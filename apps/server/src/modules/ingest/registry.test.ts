import { describe, expect, it } from 'vitest';
import { registerOwnRollup, registerRollup, rollupUpdaters } from './registry.js';

describe('roll-up registry', () => {
  it("runs ingest's own roll-ups first, whatever order the modules are loaded in", async () => {
    // a feature's roll-up loaded before ingest itself (it imports only registry.ts)
    await import('../pricing/rollup.js');
    expect(rollupUpdaters.map((r) => r.name)).toEqual(['pricing']);
    await import('../rollups.js'); // every subscription, ingest's own included
    const names = rollupUpdaters.map((r) => r.name);
    expect(names[0]).toBe('daily');
    expect(names).toEqual([...new Set(names)]);
    expect(names).toEqual(expect.arrayContaining(['daily', 'pricing', 'promotions']));
  });

  it('keeps features in registration order after the own ones, and a name registers once', () => {
    const noop = async () => {};
    const before = rollupUpdaters.map((r) => r.name);
    registerRollup('feature-a', noop);
    registerOwnRollup('own-x', noop);
    registerRollup('feature-b', noop);
    registerRollup('feature-a', noop);
    registerOwnRollup('own-x', noop);
    expect(rollupUpdaters.map((r) => r.name)).toEqual([
      'daily',
      'own-x',
      ...before.slice(1),
      'feature-a',
      'feature-b',
    ]);
  });
});
