import { createHash, randomBytes } from 'node:crypto';
import type { EmailJob } from '../../platform/mail/index.js';

/** A reset link is valid for 24 hours and for one use. */
export const RESET_TOKEN_TTL_SECONDS = 24 * 3600;

/** A new reset token: 32 random bytes, base64url (43 characters). Only its hash is stored. */
export function newResetToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashResetToken(token) };
}

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** `${PUBLIC_URL}/password/reset/confirm/?uid=…&token=…`: the web app's confirmation screen. */
export function resetLink(publicUrl: string, userId: number, token: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  return `${base}/password/reset/confirm/?uid=${userId}&token=${encodeURIComponent(token)}`;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The Spanish password-reset e-mail (text and HTML). Marked sensitive: the link is a secret. */
export function passwordResetEmail(user: { email: string; name: string }, link: string): EmailJob {
  const greeting = user.name.trim() ? `Hola ${user.name.trim()}:` : 'Hola:';
  const text = [
    greeting,
    '',
    `Recibimos una solicitud para restablecer la contraseña de tu cuenta de Vigía (${user.email}).`,
    'Para elegir una contraseña nueva, abre este enlace. Es válido por 24 horas y se puede usar una sola vez:',
    '',
    link,
    '',
    'Si no solicitaste este cambio, ignora este correo: tu contraseña actual sigue vigente.',
    '',
    '— Vigía · Más información, mejores decisiones',
  ].join('\n');
  const html = `<!doctype html>
<html lang="es"><body style="font-family: Arial, sans-serif; color: #2d1a47;">
<p>${escapeHtml(greeting)}</p>
<p>Recibimos una solicitud para restablecer la contraseña de tu cuenta de Vigía (${escapeHtml(user.email)}).</p>
<p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 10px 18px; background: #6a1b9a; color: #fff; text-decoration: none; border-radius: 4px;">Restablecer contraseña</a></p>
<p>El enlace es válido por 24 horas y se puede usar una sola vez. Si el botón no funciona, copia esta dirección en tu navegador:<br>${escapeHtml(link)}</p>
<p>Si no solicitaste este cambio, ignora este correo: tu contraseña actual sigue vigente.</p>
<p style="color: #8e24aa;">Vigía · Más información, mejores decisiones</p>
</body></html>`;
  return {
    to: user.email,
    subject: 'Vigía: restablece tu contraseña',
    text,
    html,
    sensitive: true,
  };
}
