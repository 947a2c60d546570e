import { MESSAGES } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import {
  isLoginValid,
  validateEmail,
  validateLoginPassword,
  validatePasswordChange,
  validateResetConfirm,
} from './validation.js';

describe('auth validation', () => {
  it('e-mail: non-empty, standard pattern', () => {
    expect(validateEmail('')).toBe(MESSAGES.invalidEmail);
    expect(validateEmail('ana@')).toBe(MESSAGES.invalidEmail);
    expect(validateEmail('ana @example.com')).toBe(MESSAGES.invalidEmail);
    expect(validateEmail(' ana@example.com ')).toBeNull();
  });

  it('login password: at least 8 characters', () => {
    expect(validateLoginPassword('1234567')).toBe(MESSAGES.invalidPassword);
    expect(validateLoginPassword('12345678')).toBeNull();
    expect(isLoginValid('ana@example.com', '12345678')).toBe(true);
    expect(isLoginValid('ana@example.com', '1234567')).toBe(false);
  });

  it('reset confirmation: complete, equal, long enough', () => {
    expect(validateResetConfirm('', 'x')).toBe(MESSAGES.completeAllFields);
    expect(validateResetConfirm('abcdefgh', 'abcdefgi')).toBe(MESSAGES.passwordsDoNotMatch);
    expect(validateResetConfirm('short', 'short')).toBe(MESSAGES.invalidPassword);
    expect(validateResetConfirm('abcdefgh', 'abcdefgh')).toBeNull();
  });

  it('profile password change: length first, then confirmation', () => {
    expect(validatePasswordChange('short', 'other')).toBe(MESSAGES.passwordTooShort);
    expect(validatePasswordChange('abcdefgh', 'abcdefgi')).toBe(MESSAGES.passwordsDoNotMatch);
    expect(validatePasswordChange('abcdefgh', 'abcdefgh')).toBeNull();
  });
});
