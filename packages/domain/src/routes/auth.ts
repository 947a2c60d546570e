import {
  loginBody,
  loginResponse,
  passwordResetBody,
  passwordResetConfirmBody,
  refreshBody,
  refreshResponse,
} from '../account.js';
import { okSchema } from '../common.js';
import { defineRoute } from './define.js';

/** Session endpoints (seed 000 §7): no Authorization header. */
export const authRoutes = {
  login: defineRoute({
    id: 'auth.login',
    method: 'POST',
    path: '/v1/auth-token/',
    module: null,
    auth: false,
    body: loginBody,
    response: loginResponse,
    summary: 'Inicio de sesión: token JWT y datos del usuario',
  }),
  refresh: defineRoute({
    id: 'auth.refresh',
    method: 'POST',
    path: '/v1/auth-token-refresh/',
    module: null,
    auth: false,
    body: refreshBody,
    response: refreshResponse,
    summary: 'Renueva un token vigente (no vencido ni revocado)',
  }),
  logout: defineRoute({
    id: 'auth.logout',
    method: 'POST',
    path: '/v1/auth-token-logout/',
    module: null,
    auth: false,
    body: refreshBody,
    response: okSchema,
    summary: 'Cierra la sesión: revoca el token y toda su cadena de renovaciones',
    description:
      'Responde 200 también con un token ya vencido o revocado. El token va en el cuerpo (como en la renovación), de modo que cerrar sesión nunca dispara otra renovación.',
  }),
  passwordReset: defineRoute({
    id: 'auth.passwordReset',
    method: 'POST',
    path: '/v1/password/reset/',
    module: null,
    auth: false,
    body: passwordResetBody,
    response: okSchema,
    summary: 'Solicita el correo de recuperación de contraseña',
    description:
      'Responde 200 exista o no la dirección. Para un usuario activo se envía (por la cola de trabajos) un enlace de un solo uso, válido 24 horas.',
  }),
  passwordResetConfirm: defineRoute({
    id: 'auth.passwordResetConfirm',
    method: 'POST',
    path: '/v1/password/reset/confirm/',
    module: null,
    auth: false,
    body: passwordResetConfirmBody,
    response: okSchema,
    summary: 'Fija una contraseña nueva con el enlace de recuperación',
    description:
      'El token es de un solo uso y vence a las 24 horas. Revoca todos los tokens de sesión anteriores del usuario.',
  }),
};
