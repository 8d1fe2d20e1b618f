import { z } from 'zod';
import { forgotPasswordRequest, resetPasswordRequest, teamRole, userData } from './auth.ts';
import { idString } from './common.ts';
import { safeTextCheck, text } from './text.ts';

/**
 * The operator API's messages (the server and its CLI). "New client" and "new user" are an operator onboarding
 * a company and its people; a client's own request to the QA team is a client request (requests.ts).
 */

// The same rules as the portal's forms: a login's email, a reset's new password.
const email = forgotPasswordRequest.shape.email;
const password = resetPasswordRequest.shape.password;
const username = text('username').trim().min(1).max(100).optional();

export const newClientBody = z.object({
  name: z.string({ error: 'name is required' }).refine(...safeTextCheck('name')).trim().min(1, { error: 'name is required' }).max(200),
  website: z.url({ protocol: /^https?$/, error: 'website must be an http(s) URL' }).max(2048).refine(...safeTextCheck('website')),
  email,
  password,
  username,
});
export type NewClientBody = z.infer<typeof newClientBody>;

/**
 * Operators see API keys masked (`fsk_…last4`): the client reads its key in the portal, and an operator who
 * needs the whole key takes the audited reveal route.
 */
const apiKeyMasked = z.string();

export const newClientResponse = z.object({ clientId: z.string(), userId: z.string(), apiKeyMasked });
export type NewClientResponse = z.infer<typeof newClientResponse>;

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

export const newUserBody = z
  .object({
    clientId: idString.optional(),
    email,
    password,
    username,
    role: userData.shape.role.default('client'),
    /** A client user's role in the team: member when left out. */
    teamRole: teamRole.optional(),
  })
  .refine((v) => v.role === 'operator' || v.clientId !== undefined, {
    error: 'clientId is required for a client user',
    path: ['clientId'],
  })
  .refine((v) => v.role === 'client' || v.teamRole === undefined, {
    error: 'teamRole is only for a client user',
    path: ['teamRole'],
  });
export type NewUserBody = z.input<typeof newUserBody>;

export const newUserResponse = z.object({ userId: z.string() });
export type NewUserResponse = z.infer<typeof newUserResponse>;

export const revealApiKeyResponse = z.object({ clientId: z.string(), apiKey: z.string() });
export type RevealApiKeyResponse = z.infer<typeof revealApiKeyResponse>;
