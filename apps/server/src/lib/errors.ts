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

/**
 * The server has no room for this work right now (a full worker-thread queue, platform/pool): 503 with
 * `Retry-After`, so that a burst is answered at once instead of waiting without limit.
 */
export class BusyError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'El servidor está ocupado; intenta nuevamente en unos segundos.',
  ) {
    super(503, 'server_busy', message);
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

/** How long a client is told to wait (Retry-After, seconds) while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or recovering
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout (the database is too slow to answer now)
  '25P03', // idle_in_transaction_session_timeout ended the session
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|Query read timeout|timeout exceeded when trying to connect|connection error|Client was closed|Cannot use a pool after calling end/i;

/**
 * Whether an error means "the database cannot be reached right now" (stopped, restarting, unreachable,
 * connection lost) rather than a fault of the request or the code: the API answers those with 503.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message) && !('severity' in e)) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
