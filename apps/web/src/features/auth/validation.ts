import { MESSAGES, MIN_PASSWORD_LENGTH } from '@vigia/domain';

// Form rules of login, recovery, reset and password change (seed 000 §5). Each returns the seed's
// message for the first rule broken, or null when the input is valid.

/** A standard e-mail pattern: something@domain.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export function validateEmail(email: string): string | null {
  const value = email.trim();
  return value !== '' && EMAIL_PATTERN.test(value) ? null : MESSAGES.invalidEmail;
}

/** Login password: more than 7 characters. */
export function validateLoginPassword(password: string): string | null {
  return password.length >= MIN_PASSWORD_LENGTH ? null : MESSAGES.invalidPassword;
}

export function isLoginValid(email: string, password: string): boolean {
  return validateEmail(email) === null && validateLoginPassword(password) === null;
}

/** Password reset confirmation: all fields, equal, at least 8 characters. */
export function validateResetConfirm(password: string, confirmation: string): string | null {
  if (password === '' || confirmation === '') return MESSAGES.completeAllFields;
  if (password !== confirmation) return MESSAGES.passwordsDoNotMatch;
  if (password.length < MIN_PASSWORD_LENGTH) return MESSAGES.invalidPassword;
  return null;
}

/** Profile password change: at least 8 characters (else nothing is sent), confirmation equal. */
export function validatePasswordChange(password: string, confirmation: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return MESSAGES.passwordTooShort;
  if (password !== confirmation) return MESSAGES.passwordsDoNotMatch;
  return null;
}
