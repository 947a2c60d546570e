import { describe, expect, it } from 'vitest';
import { userInitials } from './UserAvatar.js';

describe('userInitials', () => {
  it('takes two initials from the name, else from the e-mail', () => {
    expect(userInitials('Ana Díaz', 'ana@x.cl')).toBe('AD');
    expect(userInitials('  ', 'demo@example.com')).toBe('DE');
    expect(userInitials('', '')).toBe('V');
  });
});
