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
    // an open select of the filters (its menu)
    for (const role of ['listbox', 'option']) {
      const target = { tagName: 'DIV', getAttribute: (n: string) => (n === 'role' ? role : null) };
      expect(commandOfKey({ key: 'a', target: target as unknown as EventTarget })).toBeNull();
    }
    const button = { tagName: 'BUTTON', getAttribute: () => null };
    expect(commandOfKey({ key: 'a', target: button as unknown as EventTarget })).toBe('accept');
  });
});
