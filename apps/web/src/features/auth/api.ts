import type { passwordResetConfirmBody } from '@vigia/domain';
import type { z } from 'zod';
import { apiPost } from '../../lib/api-client.js';

// Calls made without a session (seed 000 §7): POST, no authorization header; the screens show the
// seed's messages themselves. Any 2xx answer is a success.

const noSession = { auth: false, notify: false } as const;

/** POST /v1/auth-token/. The answer is checked by completeLogin (token and user both required). */
export function requestLogin(email: string, password: string): Promise<unknown> {
  return apiPost('/v1/auth-token/', { email: email.trim(), password }, noSession);
}

/** POST /v1/password/reset/: sends the recovery e-mail. */
export function requestPasswordReset(email: string): Promise<unknown> {
  return apiPost('/v1/password/reset/', { email: email.trim() }, noSession);
}

/** POST /v1/password/reset/confirm/: sets the new password with the e-mail's uid and token. */
export function confirmPasswordReset(body: z.input<typeof passwordResetConfirmBody>): Promise<unknown> {
  return apiPost('/v1/password/reset/confirm/', body, noSession);
}
