import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoginResponse } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import type { TeamRole } from '../../src/db/schema/index.ts';
import { createUser } from '../../src/features/accounts/service.ts';
import { bearer, login } from './app.ts';

let counter = 0;

/** A user of the client with this team role, created directly in the database, logged in through the route. */
export async function teamUser(app: FastifyInstance, clientId: string, teamRole: TeamRole): Promise<LoginResponse & { email: string; password: string }> {
  counter += 1;
  const email = `${teamRole}${counter}-${Date.now()}@example.test`;
  const password = 'a team password 1';
  await createUser(app.db, { email, password, clientId, teamRole });
  return { ...(await login(app, email, password)), email, password };
}

/** The token in the newest invitation mail to `to` (the .eml body is quoted-printable). */
export async function invitationTokenFor(app: FastifyInstance, to: string): Promise<string> {
  // Outbox files are named by time: sorted, the last one is the newest.
  const names = (await readdir(app.paths.outbox)).sort();
  const mails = (await Promise.all(names.map((n) => readFile(path.join(app.paths.outbox, n), 'utf8')))).filter((m) => m.includes(`To: ${to}`));
  const tokens = mails.map((m) => /\/invite\?token=([A-Za-z0-9_%-]+)/.exec(m.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1]).filter(Boolean);
  if (tokens.length === 0) throw new Error(`no invitation mail to ${to}`);
  return decodeURIComponent(tokens[tokens.length - 1]!);
}

export const invite = (app: FastifyInstance, accessToken: string, email: string, role: TeamRole) =>
  app.inject({ method: 'POST', url: '/team/invitations', headers: bearer(accessToken), payload: { email, role } });

export const accept = (app: FastifyInstance, token: string, username = 'New Person', password = 'my new password 1') =>
  app.inject({ method: 'POST', url: '/team/invitations/accept', payload: { token, username, password } });
