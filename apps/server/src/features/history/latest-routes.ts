import { testLatestResponse } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { ownClientId } from '../auth/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { flakyFlagsOf } from '../flaky/index.ts';
import { latestTestResults } from './latest-repository.ts';
import { currentSuite } from '../suites/index.ts';

/** GET /test/latest: how each test of the client's current suite last ended, for the Tests page and the dashboard. */
export function latestRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/test/latest',
      {
        config: { access: access.clientReaders },
        schema: {
          tags: ['tests'],
          summary: 'The latest finished result of each test of the current suite',
          response: { 200: testLatestResponse, ...errorResponses(401, 403) },
        },
      },
      async (request) => {
        const clientId = ownClientId(request.principal);
        const manifest = (await currentSuite(deps.db, clientId))?.manifest ?? null;
        // Manifest order, as GET /test/fetch/all lists them; tests dropped from the suite are left out.
        const names = (manifest?.groups ?? []).flatMap((g) => g.tests.map((t) => t.name));
        const byName = new Map((await latestTestResults(deps.db, clientId, names)).map((r) => [r.testName, r]));
        const flaky = await flakyFlagsOf(deps.db, clientId);
        return {
          tests: names.flatMap((name) => {
            const result = byName.get(name);
            return result ? [{ ...result, flaky: flaky.get(name) ?? null }] : [];
          }),
        };
      },
    );
  };
}
