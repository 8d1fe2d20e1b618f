import { apiPaths, firstReportDue, type SuiteStatusResponse, suiteStatusResponse } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import { access } from '../../lib/access.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { findUserByEmail, getClient } from '../accounts/index.ts';
import { ownClientId } from '../auth/index.ts';
import { currentSuite, newestSuite, testsIn } from './suite-repository.ts';

/**
 * The operator's name behind a version's `importedBy` (an e-mail, or "crawl proposal (e-mail)"); null when a
 * token or the CLI imported it. Clients see the name, never the operator's e-mail.
 */
async function proposerName(db: Db, importedBy: string | null): Promise<string | null> {
  const email = importedBy?.match(/[^\s()]+@[^\s()]+/)?.[0];
  if (!email) return null;
  const user = await findUserByEmail(db, email.toLowerCase());
  return user?.role === 'operator' ? user.username : null;
}

/** Where a client's suite stands: current or not, when it signed, the promised first report, the newest proposal. */
export async function suiteStatus(db: Db, clientId: string): Promise<SuiteStatusResponse> {
  const client = await getClient(db, clientId);
  const [newest, current] = await Promise.all([newestSuite(db, clientId), currentSuite(db, clientId)]);
  return {
    current: Boolean(current),
    signedAt: client.createdAt.toISOString(),
    firstReportDue: firstReportDue(client.createdAt).toISOString(),
    proposal:
      newest && !current
        ? { version: newest.version, proposedBy: await proposerName(db, newest.importedBy), proposedAt: newest.createdAt.toISOString(), tests: testsIn(newest) }
        : null,
  };
}

/** GET /test/suite-status: the portal's dashboard and Tests page read it while the client has no current suite. */
export function suiteStatusRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      apiPaths.suiteStatus,
      {
        config: { access: access.clientReaders },
        schema: {
          tags: ['tests'],
          summary: 'Where the client’s suite stands: current or being prepared, by whom, since when, and when the first report is due',
          response: { 200: suiteStatusResponse, ...errorResponses(401, 403) },
        },
      },
      async (request) => suiteStatus(db, ownClientId(request.principal)),
    );
  };
}
