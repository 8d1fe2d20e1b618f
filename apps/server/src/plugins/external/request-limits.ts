import { Socket } from 'node:net';
import fp from 'fastify-plugin';

/**
 * Per-request limits on how a request's body arrives (Node's own `headersTimeout` and `requestTimeout`, set in
 * app.ts, cover headers and the hard cap). While a body is still arriving:
 * - a socket silent for HTTP_IDLE_TIMEOUT is dropped (a stalled upload frees its connection in ~30 s);
 * - the whole request must have arrived within HTTP_REQUEST_TIMEOUT, or HTTP_UPLOAD_TIMEOUT for multipart.
 * Once the body is in, nothing here limits the answer: `?wait=true` and event streams may stay silent for long.
 */
export const requestLimits = fp(
  async (app) => {
    const idleMs = app.env.HTTP_IDLE_TIMEOUT * 1000;
    const requestMs = app.env.HTTP_REQUEST_TIMEOUT * 1000;
    const uploadMs = app.env.HTTP_UPLOAD_TIMEOUT * 1000;
    const disarms = new WeakMap<object, () => void>();

    app.addHook('onRequest', (request, reply, done) => {
      const socket = request.raw.socket;
      // `inject` has no real socket, and a request without a body is already complete.
      if (!(socket instanceof Socket) || request.raw.complete) return done();
      const multipart = (request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/');
      const drop = (why: string) => {
        if (request.raw.complete || socket.destroyed) return;
        request.log.info({ why }, 'request body did not arrive in time: connection dropped');
        socket.destroy();
      };
      // A 'timeout' listener on the response keeps Node from destroying the socket once the body is in.
      reply.raw.setTimeout(idleMs, () => drop('idle'));
      const deadline = setTimeout(() => drop('deadline'), multipart ? uploadMs : requestMs);
      deadline.unref();
      disarms.set(request, () => {
        clearTimeout(deadline);
        if (!reply.raw.destroyed) reply.raw.setTimeout(0);
      });
      done();
    });
    const disarm = (request: object) => {
      disarms.get(request)?.();
      disarms.delete(request);
    };
    app.addHook('preHandler', (request, _reply, done) => {
      if (request.raw.complete) disarm(request);
      done();
    });
    app.addHook('onResponse', (request, _reply, done) => {
      disarm(request);
      done();
    });
    app.addHook('onRequestAbort', (request, done) => {
      disarm(request);
      done();
    });
  },
  { name: 'request-limits' },
);
