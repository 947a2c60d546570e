import { describe, expect, it } from 'vitest';
import { commandOfKey } from './keys.js';

describe('commandOfKey', () => {
  it('maps the documented keys', () => {
    expect(['a', 'R', 's', 'ArrowRight', 'ArrowLeft', 'u'].map((key) => commandOfKey({ key }))).toEqual([
      'accept',
      'reject',
      'skip',
      'next',
      'previous',
      'undo',
    ]);
  });
  it('ignores other keys, modifiers and typing in a field', () => {
    expect(commandOfKey({ key: 'x' })).toBeNull();
    expect(commandOfKey({ key: 'a', ctrlKey: true })).toBeNull();
    expect(commandOfKey({ key: 'a', target: { tagName: 'INPUT' } as unknown as EventTarget })).toBeNull();
  });
});
