import { hasUnsafeText, text } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access } from '../../lib/access.ts';
import { UnauthorizedError, ValidationError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { ownClientId } from '../auth/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { EventHub, type StreamCredential } from './event-hub.ts';
import type { EngineEvent } from './events.ts';
import { testEventOf } from './mappers.ts';
import { latestRunTests } from './run-repository.ts';
import { verifyEventsToken } from './events-token.ts';
import { queuePlacesOf } from '../queue/index.ts';

const KEEPALIVE_MS = 15_000;
/** A client that reads slower than its events arrive is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

const hubs = new WeakMap<EngineDeps, EventHub>();

/** The event hub serving this engine's streams (tests read its counters). */
export function eventHubOf(deps: EngineDeps): EventHub | undefined {
  return hubs.get(deps);
}

/**
 * GET /test/events: Server-Sent Events of the client's runs (format in runs/events.ts). Auth: a bearer token
 * or x-api-key header (fetch streaming), or `?token=` from POST /test/events/token (EventSource).
 * First a `snapshot` of every test's latest state, then `test` and `run` events as they happen. A stream ends
 * (with an `end` event) when its credential does: new API key, logout, password reset.
 */
export function eventsRoute(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const hub = new EventHub({
      db: deps.db,
      bus: deps.bus,
      log: app.log.child({ feature: 'event-streams' }),
      perCredential: app.env.EVENT_STREAMS_PER_CREDENTIAL,
      pollMs: app.env.EVENT_STREAM_POLL_MS,
      // The embedded database admits one process: its bus carries every event.
      others: app.database.kind === 'pglite' ? 'none' : (app.cluster ?? 'poll'),
    });
    hubs.set(deps, hub);
    const offSession = app.sessionEvents.on((event) => hub.revoke(event));
    app.addHook('preClose', async () => {
      offSession();
      hub.close('The server is shutting down');
    });

    app.get(
      '/test/events',
      {
        config: { access: access.clientReaders },
        // An EventSource sends no headers: its `?token=` is the credential, read before the access check.
        onRequest: async (request) => {
          const token = (request.query as { token?: unknown }).token;
          if (typeof token === 'string' && token) {
            // Read before the input guard runs: the same 400 as any field for what no token can hold.
            if (hasUnsafeText(token)) throw new ValidationError('token must not contain NUL bytes or unpaired surrogates', 'token');
            const claims = verifyEventsToken(app.keys, token);
            if (!claims || hub.isRevoked(claims, claims.issuedAtMs)) {
              throw new UnauthorizedError('Invalid or expired events token', 'INVALID_TOKEN');
            }
            // The events token carries no team role: the stream only reads, so the least one will do.
            request.principal = { userId: claims.userId, clientId: claims.clientId, role: 'client', teamRole: 'viewer', via: claims.userId ? 'bearer' : 'api-key' };
          }
        },
        schema: {
          tags: ['tests'],
          summary: 'Live run status as Server-Sent Events',
          querystring: z.object({ token: text('token').max(500, { error: 'token is too long' }).optional() }),
          response: { 200: z.string().describe('text/event-stream'), ...errorResponses(401, 403, 429) },
        },
      },
      async (request, reply) => {
        const clientId = ownClientId(request.principal);
        const credential: StreamCredential = { clientId, userId: request.principal?.userId ?? null };
        // Counted before the first await: parallel opens cannot slip past the cap together.
        const release = hub.reserve(credential);

        reply.hijack();
        const res = reply.raw;
        let ended = false;
        let detach = () => {};
        const keepalive = setInterval(() => write(': keepalive\n\n'), KEEPALIVE_MS);
        const close = () => {
          if (ended) return;
          ended = true;
          clearInterval(keepalive);
          detach();
          release();
        };
        // The response may fail (peer gone mid-write) from the moment it exists.
        res.on('error', (err) => {
          request.log.debug({ err }, 'event stream write failed');
          close();
        });
        res.once('close', close);
        request.raw.once('close', close);

        function write(chunk: string): void {
          if (ended || res.destroyed || res.writableEnded) return;
          if (res.writableLength > MAX_BUFFERED_BYTES) {
            request.log.info({ clientId }, 'event stream dropped: the client reads too slowly');
            close();
            res.destroy();
            return;
          }
          res.write(chunk);
        }

        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          connection: 'keep-alive',
          'x-content-type-options': 'nosniff',
          'x-accel-buffering': 'no',
        });
        const sent = new Map<string, string>();
        const send = (event: EngineEvent) => {
          const payload = JSON.stringify(event.data);
          if (event.type === 'test') {
            if (sent.get(event.data.runTestId) === payload) return;
            sent.set(event.data.runTestId, payload);
          }
          write(`event: ${event.type}\ndata: ${payload}\n\n`);
        };
        const end = (reason: string) => {
          write(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
          close();
          if (!res.writableEnded) res.end();
        };
        write('retry: 3000\n\n');
        // Live events first (queued until the snapshot is out), so nothing between snapshot and attach is lost.
        const early: EngineEvent[] = [];
        let live = false;
        detach = hub.attach({ credential, send: (e) => (live ? send(e) : early.push(e)), end });

        try {
          // Snapshot: the latest run of each test.
          const latest = await latestRunTests(deps.db, clientId);
          // Waiting tests with their places in the queue; the queue's moves send them again (queue-moves.ts).
          const places = await queuePlacesOf(deps.db, latest.filter((r) => r.status === 'queued').map((r) => r.id));
          const eventOf = (r: (typeof latest)[number]) => ({ ...testEventOf(r), ...(places.has(r.id) ? { queue: places.get(r.id) } : {}) });
          const tests = Object.fromEntries(latest.map((r) => [r.testName, eventOf(r)]));
          for (const r of latest) sent.set(r.id, JSON.stringify(eventOf(r)));
          write(`event: snapshot\ndata: ${JSON.stringify({ tests })}\n\n`);
          live = true;
          for (const e of early.splice(0)) send(e);
        } catch (err) {
          request.log.error({ err }, 'event stream: the snapshot failed');
          end('The server could not read the current status; reconnect to try again');
        }
      },
    );
  };
}
