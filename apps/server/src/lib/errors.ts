/** Errors the API maps to `{ detail, code, field? }` with their status (plugins/errors.ts). */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const badRequest = (detail: string, field?: string, code = 'invalid_input') =>
  new AppError(400, code, detail, field);
export const unauthorized = (detail = 'Token inválido o expirado', code = 'not_authenticated') =>
  new AppError(401, code, detail);
export const forbidden = (detail = 'Funcionalidad no permitida.', code = 'forbidden') =>
  new AppError(403, code, detail);
export const notFound = (detail = 'No se ha encontrado el recurso solicitado.', code = 'not_found') =>
  new AppError(404, code, detail);
