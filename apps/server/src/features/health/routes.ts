import { engineReadiness, readinessResponse } from '@fullstop/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { access } from '../../lib/access.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { noStore } from '../auth/index.ts';
import { createReadiness, logReadiness } from './readiness.ts';

export const healthRoutes: FastifyPluginAsync = async (app) => {
  const readiness = createReadiness(app.env);
  // At start: one log line per missing engine. Under NODE_ENV=test the engines are checked when first asked.
  if (app.env.ENGINE_READINESS_CHECK ?? app.env.NODE_ENV !== 'test') {
    void readiness
      .check()
      .then((result) => logReadiness(app.log, result))
      .catch((err: unknown) => app.log.error({ err }, 'the engines could not be checked'));
  }

  app.get(
    '/healthz',
    {
      config: { access: access.anyone },
      schema: {
        tags: ['health'],
        summary: 'Liveness: answers 200 while the server can serve requests',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { access: access.anyone },
      schema: {
        tags: ['health'],
        summary: 'Readiness: "ready" when every engine the tests need is installed, "degraded" when some tests cannot run (200 both)',
        response: { 200: readinessResponse },
      },
    },
    async () => ({ status: (await readiness.latest()).status }),
  );

  app.get(
    '/operator/engines',
    {
      config: { access: access.operators },
      onSend: noStore,
      schema: {
        tags: ['operator'],
        summary: 'Every engine (Chromium, wapiti, the Lighthouse and Playwright packages), checked now: ok or missing, version, where, what to install',
        security: [{ bearer: [] }],
        response: { 200: engineReadiness, ...errorResponses(401, 403) },
      },
    },
    async () => readiness.check(),
  );
};
