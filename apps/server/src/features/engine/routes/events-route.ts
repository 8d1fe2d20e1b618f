import { and, desc, eq, gt } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { engineRunTests } from '../../../db/schema/index.ts';
import { UnauthorizedError } from '../../../lib/errors.ts';
import { errorResponses } from '../../../lib/route-schemas.ts';
import { ownClientId } from '../../auth/guard.ts';
import type { EngineDeps } from '../deps.ts';
import type { EngineEvent } from '../runs/events.ts';
import { testEventOf } from '../runs/mappers.ts';
import { verifyEventsToken } from './events-token.ts';

/** Another process's workers (PostgreSQL) are seen through the database this often. */
const POLL_INTERVAL_MS = 2000;
const KEEPALIVE_MS = 15_000;

/**
 * GET /test/events: Server-Sent Events of the client's runs (format in runs/events.ts). Auth: a bearer token
 * or x-api-key header (fetch streaming), or `?token=` from POST /test/events/token (EventSource).
 * First a `snapshot` of every test's latest state, then `test` and `run` events as they happen.
 */
export function eventsRoute(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const open = new Set<() => void>();
    app.addHook('preClose', async () => {
      for (const end of open) end();
    });
    app.get(
      '/test/events',
      {
        preHandler: async (request, reply) => {
          const token = (request.query as { token?: string }).token;
          if (token) {
            const clientId = verifyEventsToken(app.keys, token);
            if (!clientId) throw new UnauthorizedError('Invalid or expired events token', 'INVALID_TOKEN');
            request.principal = { userId: null, clientId, role: 'client', via: 'api-key' };
            return;
          }
          await app.authenticate.call(app, request, reply);
        },
        schema: {
          tags: ['tests'],
          summary: 'Live run status as Server-Sent Events',
          querystring: z.object({ token: z.string().max(500).optional() }),
          response: { 200: z.string().describe('text/event-stream'), ...errorResponses(401, 403) },
        },
      },
      async (request, reply) => {
        const clientId = ownClientId(request.principal);
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          connection: 'keep-alive',
          'x-content-type-options': 'nosniff',
          'x-accel-buffering': 'no',
        });
        const sent = new Map<string, string>();
        const write = (event: EngineEvent) => {
          const payload = JSON.stringify(event.data);
          if (event.type === 'test') {
            if (sent.get(event.data.runTestId) === payload) return;
            sent.set(event.data.runTestId, payload);
          }
          res.write(`event: ${event.type}\ndata: ${payload}\n\n`);
        };
        res.write('retry: 3000\n\n');

        // Snapshot: the latest run of each test.
        const latest = await deps.db
          .selectDistinctOn([engineRunTests.testName])
          .from(engineRunTests)
          .where(eq(engineRunTests.clientId, clientId))
          .orderBy(engineRunTests.testName, desc(engineRunTests.createdAt));
        let since = new Date(Math.max(0, ...latest.map((r) => r.updatedAt.getTime())));
        const tests = Object.fromEntries(latest.map((r) => [r.testName, testEventOf(r)]));
        for (const r of latest) sent.set(r.id, JSON.stringify(testEventOf(r)));
        res.write(`event: snapshot\ndata: ${JSON.stringify({ tests })}\n\n`);

        const off = deps.bus.on(clientId, write);
        let polling = false;
        const poll = setInterval(() => {
          if (polling) return;
          polling = true;
          deps.db
            .select()
            .from(engineRunTests)
            .where(and(eq(engineRunTests.clientId, clientId), gt(engineRunTests.updatedAt, since)))
            .orderBy(engineRunTests.updatedAt)
            .limit(500)
            .then((rows) => {
              for (const r of rows) {
                if (r.updatedAt > since) since = r.updatedAt;
                write({ type: 'test', data: testEventOf(r) });
              }
            })
            .catch(() => {})
            .finally(() => {
              polling = false;
            });
        }, POLL_INTERVAL_MS);
        const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
        const close = () => {
          off();
          clearInterval(poll);
          clearInterval(keepalive);
          open.delete(end);
        };
        const end = () => {
          close();
          res.end();
        };
        open.add(end);
        request.raw.once('close', close);
      },
    );
  };
}
