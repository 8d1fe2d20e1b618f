import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that carry a credential: a password-reset link's token, the event stream's token, an
 * evidence link as the trace viewer passes it on (`trace=`, `path=`).
 */
const SECRET_QUERY = /([?&](?:token|resetToken|trace|path)=)[^&#]*/gi;
/** An evidence link's token is the last part of its path. */
const SECRET_PATH = /(\/evidence\/file\/)[^/?#]+/g;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]').replace(SECRET_PATH, '$1[redacted]');
}

/** What a request log line says of the request: Fastify's usual fields, with credentials cut out of the URL. */
export function requestLogFields(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
