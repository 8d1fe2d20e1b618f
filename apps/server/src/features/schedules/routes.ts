import {
  clientScheduleListResponse,
  createScheduleRequest,
  messageResponse,
  operatorSchedule,
  operatorScheduleListResponse,
  scheduleParams,
  updateScheduleRequest,
} from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { audit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import { ownClientId } from '../auth/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { operatorClientRoute } from '../../lib/operator-route.ts';
import { deleteSchedule, listClientSchedules } from './schedule-repository.ts';
import { changeSchedule, clientScheduleOf, createSchedule, operatorScheduleOf } from './schedule-service.ts';

/** Schedules: operators manage a client's (console, CLI); the client reads its own with the next run. */
export function scheduleRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/schedules',
      {
        config: { access: access.clientReaders },
        schema: { tags: ['tests'], summary: 'The client’s test schedules and when each runs next', response: { 200: clientScheduleListResponse, ...errorResponses(401, 403) } },
      },
      async (request) => {
        const clientId = ownClientId(request.principal);
        const now = new Date();
        const schedules = (await listClientSchedules(deps.db, clientId)).map((row) => clientScheduleOf(row, now));
        const next = schedules.flatMap((s) => s.nextRunAt ?? []).sort()[0] ?? null;
        return { schedules, nextRunAt: next };
      },
    );

    app.get(
      '/operator/clients/:id/schedules',
      operatorClientRoute(app, { summary: 'The client’s schedules', response: { 200: operatorScheduleListResponse, ...errorResponses(401, 403, 404) } }),
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        const now = new Date();
        return { schedules: (await listClientSchedules(deps.db, client.id)).map((row) => operatorScheduleOf(row, now)) };
      },
    );

    app.post(
      '/operator/clients/:id/schedules',
      operatorClientRoute(app, { summary: 'Add a schedule: a cron expression in a time zone running all tests, a group or a test', body: createScheduleRequest, response: { 201: operatorSchedule, ...errorResponses(400, 401, 403, 404) } }),
      async (request, reply) => {
        const client = await getClient(deps.db, request.params.id);
        const row = await createSchedule(deps, client.id, request.body, request.principal?.userId ?? null);
        await audit(deps.db, request.log, { type: 'schedule.created', clientId: client.id, userId: request.principal?.userId, address: request.ip, details: { scheduleId: row.id, cron: row.cron, timezone: row.timezone } });
        return reply.code(201).send(operatorScheduleOf(row));
      },
    );

    app.patch(
      '/operator/clients/:id/schedules/:scheduleId',
      operatorClientRoute(app, { summary: 'Pause, resume or edit a schedule', params: scheduleParams, body: updateScheduleRequest, response: { 200: operatorSchedule, ...errorResponses(400, 401, 403, 404) } }),
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        const row = await changeSchedule(deps, client.id, request.params.scheduleId, request.body);
        await audit(deps.db, request.log, { type: 'schedule.changed', clientId: client.id, userId: request.principal?.userId, address: request.ip, details: { scheduleId: row.id, ...request.body } });
        return operatorScheduleOf(row);
      },
    );

    app.delete(
      '/operator/clients/:id/schedules/:scheduleId',
      operatorClientRoute(app, { summary: 'Delete a schedule', params: scheduleParams, response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) } }),
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        if (!(await deleteSchedule(deps.db, client.id, request.params.scheduleId))) throw new NotFoundError('Schedule not found');
        await audit(deps.db, request.log, { type: 'schedule.deleted', clientId: client.id, userId: request.principal?.userId, address: request.ip, details: { scheduleId: request.params.scheduleId } });
        return { message: 'schedule deleted' };
      },
    );
  };
}
