import { z } from 'zod';
import { idString } from './common.ts';
import { text } from './text.ts';

/** Client requests: a new feature to test, a manual test, or a free retest under the satisfaction guarantee. */
export const clientRequestKind = z.enum(['new-feature', 'manual-test', 'retest'], {
  error: 'kind must be one of new-feature, manual-test, retest',
});
export type ClientRequestKind = z.infer<typeof clientRequestKind>;

export const clientRequestStatus = z.enum(['open', 'in-progress', 'done', 'declined'], {
  error: 'status must be one of open, in-progress, done, declined',
});
export type ClientRequestStatus = z.infer<typeof clientRequestStatus>;

export const createClientRequest = z.object({
  kind: clientRequestKind,
  title: text('title').trim().min(3, { error: 'title must be at least 3 characters' }).max(200, { error: 'title must be at most 200 characters' }),
  details: text('details').trim().min(1, { error: 'details are required' }).max(5000, { error: 'details must be at most 5000 characters' }),
});
export type CreateClientRequest = z.infer<typeof createClientRequest>;

export const clientRequest = z.object({
  id: z.string(),
  kind: clientRequestKind,
  title: z.string(),
  details: z.string(),
  status: clientRequestStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ClientRequest = z.infer<typeof clientRequest>;

export const clientRequestList = z.array(clientRequest);

/** An operator answers a request by moving it along: open → in-progress → done, or declined. */
export const updateClientRequest = z.object({ status: clientRequestStatus });
export type UpdateClientRequest = z.infer<typeof updateClientRequest>;

/** What operators see: every client's requests, with whose they are. */
export const operatorClientRequest = clientRequest.extend({ clientId: z.string(), clientName: z.string() });
export type OperatorClientRequest = z.infer<typeof operatorClientRequest>;
export const operatorClientRequestList = z.array(operatorClientRequest);

export const clientRequestParams = z.object({ id: idString });
