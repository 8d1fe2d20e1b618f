import { idString, safeTextCheck, text } from '@fullstop/contracts';
import { z } from 'zod';

// The operator API's messages. Only the server and its CLI use them, so they live here, not in contracts.

const email = z.email({ error: 'email must be a valid email address' }).max(254, { error: 'email must be at most 254 characters' });
const password = z
  .string({ error: 'password is required' })
  .min(10, { error: 'password must be at least 10 characters' })
  .max(256, { error: 'password must be at most 256 characters' })
  .refine(...safeTextCheck('password'));
const username = text('username').trim().min(1).max(100).optional();

export const createClientRequest = z.object({
  name: z.string({ error: 'name is required' }).refine(...safeTextCheck('name')).trim().min(1, { error: 'name is required' }).max(200),
  website: z.url({ protocol: /^https?$/, error: 'website must be an http(s) URL' }).max(2048).refine(...safeTextCheck('website')),
  email,
  password,
  username,
});
export type CreateClientRequest = z.infer<typeof createClientRequest>;

/**
 * Operators see API keys masked (`fsk_…last4`): the client reads its key in the portal, and an operator who
 * needs the whole key takes the audited reveal route.
 */
const apiKeyMasked = z.string();

export const createClientResponse = z.object({ clientId: z.string(), userId: z.string(), apiKeyMasked });
export type CreateClientResponse = z.infer<typeof createClientResponse>;

export const clientSummary = z.object({
  id: z.string(),
  clientName: z.string(),
  website: z.string(),
  createdAt: z.string(),
  users: z.number().int(),
  apiKeyMasked,
});
export type ClientSummary = z.infer<typeof clientSummary>;
export const clientList = z.object({ clients: z.array(clientSummary) });
export type ClientList = z.infer<typeof clientList>;

export const createUserRequest = z
  .object({
    clientId: idString.optional(),
    email,
    password,
    username,
    role: z.enum(['client', 'operator']).default('client'),
  })
  .refine((v) => v.role === 'operator' || v.clientId !== undefined, {
    error: 'clientId is required for a client user',
    path: ['clientId'],
  });
export type CreateUserRequest = z.input<typeof createUserRequest>;

export const createUserResponse = z.object({ userId: z.string() });
export type CreateUserResponse = z.infer<typeof createUserResponse>;

export const revealApiKeyResponse = z.object({ clientId: z.string(), apiKey: z.string() });
export type RevealApiKeyResponse = z.infer<typeof revealApiKeyResponse>;
