import { flakyMark, flakyMarkBody, flakyMarkList, flakyParams, idParam, messageResponse, opsAuditPage, opsAuditQuery, opsClientDetail, opsRunsPage, opsRunsQuery } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import { noStore } from '../auth/index.ts';
import { auditLog } from './audit-log.ts';
import { clientDetail } from './client-detail.ts';
import { clearFlaky, confirmFlaky, listFlaky, markFlaky } from './flaky-repository.ts';
import { audit } from '../../lib/audit.ts';
import { runsFeed } from './runs-feed.ts';

/**
 * What the web console (/ops) reads beyond the CLI's calls: a client's page, the runs feed across clients, flaky
 * marks and the audit log. Operators only; every call is recorded by the access audit (access-audit.ts).
 */
export const consoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const security = [{ bearer: [] }];
  const common = { config: { access: access.operators }, onSend: noStore };
  const tags = ['operator'];

  app.get(
    '/operator/clients/:id',
    { ...common, schema: { tags, security, summary: 'One client: profile, users, origins, masked API key, suite version, secret names, health', params: idParam, response: { 200: opsClientDetail, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => clientDetail(app.db, app.keys, request.params.id),
  );

  app.get(
    '/operator/runs',
    { ...common, schema: { tags, security, summary: 'Runs of every client, failures first, with their failing tests', querystring: opsRunsQuery, response: { 200: opsRunsPage, ...errorResponses(400, 401, 403) } } },
    async (request) => runsFeed(app.db, request.query),
  );

  app.get(
    '/operator/clients/:id/flaky',
    { ...common, schema: { tags, security, summary: 'Tests of the client marked flaky', params: idParam, response: { 200: flakyMarkList, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => {
      await getClient(app.db, request.params.id);
      return { marks: await listFlaky(app.db, request.params.id) };
    },
  );

  app.post(
    '/operator/clients/:id/flaky',
    { ...common, schema: { tags, security, summary: 'Mark a test of the client flaky (again: replaces the note)', params: idParam, body: flakyMarkBody, response: { 200: flakyMark, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => {
      const clientId = request.params.id;
      await getClient(app.db, clientId);
      const { testName, note } = request.body;
      await markFlaky(app.db, clientId, testName, note || null, request.principal?.userId ?? null);
      const mark = (await listFlaky(app.db, clientId)).find((m) => m.testName === testName);
      if (!mark) throw new NotFoundError('The flaky mark could not be read back');
      return mark;
    },
  );

  app.delete(
    '/operator/clients/:id/flaky/:testName',
    { ...common, schema: { tags, security, summary: 'Clear the flaky mark of a test', params: flakyParams, response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => {
      const { id, testName } = request.params;
      await getClient(app.db, id);
      if (!(await clearFlaky(app.db, id, testName))) throw new NotFoundError(`"${testName}" is not marked flaky`);
      await audit(app.db, request.log, { type: 'flaky.cleared', clientId: id, userId: request.principal?.userId ?? null, address: request.ip, details: { testName } });
      return { message: `"${testName}" is no longer marked flaky` };
    },
  );

  app.post(
    '/operator/clients/:id/flaky/:testName/confirm',
    { ...common, schema: { tags, security, summary: 'Confirm a flaky flag: it then stays until an operator clears it', params: flakyParams, response: { 200: flakyMark, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => {
      const { id, testName } = request.params;
      await getClient(app.db, id);
      if (!(await confirmFlaky(app.db, id, testName, request.principal?.userId ?? null))) throw new NotFoundError(`"${testName}" is not marked flaky`);
      await audit(app.db, request.log, { type: 'flaky.confirmed', clientId: id, userId: request.principal?.userId ?? null, address: request.ip, details: { testName } });
      const mark = (await listFlaky(app.db, id)).find((m) => m.testName === testName);
      if (!mark) throw new NotFoundError(`"${testName}" is not marked flaky`);
      return mark;
    },
  );

  app.get(
    '/operator/audit',
    { ...common, schema: { tags, security, summary: 'The audit log, newest first: logins and every operator call, with filters', querystring: opsAuditQuery, response: { 200: opsAuditPage, ...errorResponses(400, 401, 403) } } },
    async (request) => auditLog(app.db, request.query),
  );
};
