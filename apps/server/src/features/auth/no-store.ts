import type { onSendHookHandler } from 'fastify';

/**
 * Route `onSend` hook for every answer that carries a token or a key: no browser, proxy or CDN may keep it
 * (`Pragma` for HTTP/1.0 caches). Errors of these routes get it too, which does no harm.
 */
export const noStore: onSendHookHandler = (_request, reply, payload, done) => {
  reply.header('cache-control', 'no-store');
  reply.header('pragma', 'no-cache');
  done(null, payload);
};
