import { userPatchBody, userPatchResponse, userProfile } from '../account.js';
import { defineRoute } from './define.js';

/** The signed-in user's profile (seed 000 §3 "User profile fields", §7). */
export const usersRoutes = {
  me: defineRoute({
    id: 'users.me',
    method: 'GET',
    path: '/v1/users/me/',
    module: null,
    auth: true,
    response: userProfile,
    summary: 'Perfil del usuario',
  }),
  updateMe: defineRoute({
    id: 'users.updateMe',
    method: 'PATCH',
    path: '/v1/users/me/',
    module: null,
    auth: true,
    body: userPatchBody,
    response: userPatchResponse,
    summary: 'Actualiza el perfil (pivot_pk, name, currency, timezone) o solo la contraseña',
    description:
      'El pivote y la divisa deben estar en la licencia (si no, 403). Un cambio de contraseña revoca todos los tokens anteriores, también el de esta sesión: la respuesta trae `token`, el token nuevo que el cliente debe guardar para seguir conectado.',
  }),
};
