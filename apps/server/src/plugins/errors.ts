import { MESSAGES } from '@vigia/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, BusyError, DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../lib/errors.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: (string | number)[]; message?: string } };
}

/** "/sellers/0" or issue.path → "sellers.0"; the body/query/params prefix is not part of the name. */
function fieldOf(issue: ValidationIssue): string {
  const path = issue.params?.issue?.path;
  if (path?.length) return path.join('.');
  return (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
}

/**
 * One error handler for the whole API: every failure is `{ detail, code, field?, requestId }` with
 * its status. Bad input is a 400 naming the field; nothing internal (stack, SQL) reaches a client.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const requestId = req.id;
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issue = (err.validation as ValidationIssue[])[0] ?? {};
      const field = fieldOf(issue) || (err.validationContext ?? 'body');
      const message = issue.params?.issue?.message ?? issue.message ?? 'valor inválido';
      return reply
        .code(400)
        .send({ detail: `${field}: ${message}`, code: 'validation_error', field, requestId });
    }
    if (err instanceof AppError) {
      if (err instanceof BusyError) {
        req.log.warn({ code: err.code }, 'server busy');
        reply.header('retry-after', String(err.retryAfterSeconds));
      } else if (err.statusCode >= 500) req.log.error({ err }, 'application error');
      return reply
        .code(err.statusCode)
        .send({ detail: err.message, code: err.code, ...(err.field ? { field: err.field } : {}), requestId });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err, issues: err.cause?.issues }, 'response does not match its schema');
      return reply.code(500).send({
        detail: 'Ha ocurrido un error durante la petición, intenta nuevamente.',
        code: 'internal_error',
        requestId,
      });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply
        .code(429)
        .send({ detail: 'Demasiados intentos, espera un momento.', code: 'rate_limited', requestId });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, body too large, …
      const detail =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
          ? 'body: JSON inválido'
          : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
            ? 'body: vacío'
            : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
              ? 'body: demasiado grande'
              : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
                ? 'content-type no soportado'
                : err.message;
      return reply
        .code(status === 415 ? 415 : status)
        .send({ detail, code: (err.code ?? 'bad_request').toLowerCase(), requestId });
    }
    if (isDatabaseUnavailable(err)) {
      // The database is stopped, restarting or unreachable: the pool reconnects by itself once it is
      // back, so the client is told to retry (docs/operations.md, "Database outage").
      req.log.warn(
        { err: { code: (err as { code?: string }).code, message: err.message } },
        'database unavailable',
      );
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ detail: MESSAGES.slowConnection, code: 'database_unavailable', requestId });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({
      detail: 'Ha ocurrido un error durante la petición, intenta nuevamente.',
      code: 'internal_error',
      requestId,
    });
  });
}
