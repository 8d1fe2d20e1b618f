import { afterDeployParams, afterDeployReport } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { ownClientId } from '../auth/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { afterDeployReportOf, followDeploy } from './deploy-follow-up.ts';

/**
 * After a deploy (issue 42, decision 0103): a run started with afterDeploy=true is followed by a re-crawl of the site
 * once it ends, and the client reads what healed, what needs a person and what the re-crawl proposes.
 */
export function deployFollowUpRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    deps.runFinished.push(async (run) => void (await followDeploy(deps, run)));

    app.get(
      '/test/runs/:runId/after-deploy',
      {
        config: { access: access.clientReaders },
        schema: {
          tags: ['tests'],
          summary: 'A deploy’s run (afterDeploy=true): which failures were healed, which need a person, and what the re-crawl that followed proposes',
          params: afterDeployParams,
          response: { 200: afterDeployReport, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => afterDeployReportOf(deps, ownClientId(request.principal), request.params.runId),
    );
  };
}
