import { z } from 'zod';

/** Client requests: a new feature to test, a manual test, or a free retest under the satisfaction guarantee. */
export const clientRequestKind = z.enum(['new-feature', 'manual-test', 'retest']);
export type ClientRequestKind = z.infer<typeof clientRequestKind>;

export const clientRequestStatus = z.enum(['open', 'in-progress', 'done', 'declined']);
export type ClientRequestStatus = z.infer<typeof clientRequestStatus>;

export const createClientRequest = z.object({
  kind: clientRequestKind,
  title: z.string().trim().min(3, { error: 'title must be at least 3 characters' }).max(200),
  details: z.string().trim().min(1, { error: 'details are required' }).max(5000),
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
