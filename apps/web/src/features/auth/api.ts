import { authRoutes, type passwordResetConfirmBody } from '@vigia/domain';
import type { z } from 'zod';
import { callRoute } from '../../lib/api-client.js';

// Calls made without a session (seed 000 §7): the routes are public (auth: false in the route table);
// the screens show the seed's messages themselves.

const quiet = { notify: false } as const;

/** Login. The answer is checked by completeLogin (token and user both required). */
export function requestLogin(email: string, password: string): Promise<unknown> {
  return callRoute(authRoutes.login, { body: { email: email.trim(), password } }, quiet);
}

/** Sends the recovery e-mail. */
export function requestPasswordReset(email: string): Promise<unknown> {
  return callRoute(authRoutes.passwordReset, { body: { email: email.trim() } }, quiet);
}

/** Sets the new password with the e-mail's uid and token. */
export function confirmPasswordReset(body: z.input<typeof passwordResetConfirmBody>): Promise<unknown> {
  return callRoute(authRoutes.passwordResetConfirm, { body }, quiet);
}
