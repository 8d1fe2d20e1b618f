import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';

interface ErrorBody {
  message: string;
  code: string;
  field?: string;
}

/** Fastify's own client errors (bad JSON, wrong content type, body too large ...) keep their status. */
function fastifyClientError(err: FastifyError): ErrorBody & { status: number } | null {
  const status = err.statusCode ?? 500;
  if (status < 400 || status >= 500) return null;
  const code = err.code ?? 'BAD_REQUEST';
  const messages: Record<string, string> = {
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but its content type says JSON',
    FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The content length does not match the body',
  };
  const message = messages[code] ?? (err.message && code !== 'FST_ERR_VALIDATION' ? err.message : 'Bad request');
  return { status, code, message };
}

function fieldOf(path: readonly PropertyKey[] | undefined, fallback: string): string {
  return path && path.length > 0 ? path.map(String).join('.') : fallback;
}

/**
 * The one error handler: every error is JSON `{ message, code, field? }`. Validation errors name the field;
 * a status of 500 or more says only "Internal server error" and logs the cause with the request's context.
 */
export const errorHandler = fp(async (app) => {
  app.setErrorHandler((err: FastifyError | AppError | Error, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      const body: ErrorBody = { message: err.message, code: err.code };
      if (err.field !== undefined) body.field = err.field;
      return reply.code(err.statusCode).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const where = (err as { validationContext?: string }).validationContext ?? 'body';
      const path = (first?.instancePath ?? '').split('/').filter(Boolean);
      const field = fieldOf(path, where);
      const raw = first?.message ?? 'is invalid';
      // zod's default texts do not name the field; our own contract messages already do.
      const message = raw.toLowerCase().includes(field.split('.').pop()!.toLowerCase()) ? raw : `${field}: ${raw}`;
      return reply.code(400).send({ message, code: 'VALIDATION_ERROR', field });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, 'response does not match its schema');
      return reply.code(500).send({ message: 'Internal server error', code: 'INTERNAL' });
    }
    const client = fastifyClientError(err as FastifyError);
    if (client) {
      request.log.info({ err }, 'client error');
      return reply.code(client.status).send({ message: client.message, code: client.code });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: 'Internal server error', code: 'INTERNAL' });
  });
});
