import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { VIEWER_READ_ONLY } from '@fullstop/contracts';
import type { TeamRole } from '../../db/schema/index.ts';
import { AppError, ForbiddenError, NotFoundError, UnauthorizedError } from '../../lib/errors.ts';
import { loadServerKeys, type ServerKeys } from '../../lib/server-keys.ts';
import { loadOperatorToken } from '../operator/index.ts';
import { ApiKeyMemo } from './api-key-memo.ts';
import { findClientIdByApiKey } from '../accounts/index.ts';
import { apiKeyLookupHash } from '../../lib/api-keys.ts';
import { SessionService } from './session-service.ts';
import { verifyAccessToken } from './tokens.ts';
import { sha256 } from '../../lib/tokens.ts';

export interface Principal {
  userId: string | null;
  clientId: string | null;
  role: 'client' | 'operator';
  /** A client user's team role; a client's API key counts as a member; null for operators. */
  teamRole: TeamRole | null;
  via: 'bearer' | 'api-key' | 'operator-token';
  /** The login session of a bearer access token. */
  sessionId?: string;
}

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Refuses, as "not found", a caller who may not touch this client: a client's user or key reaches only its
 * own client, an operator reaches all. Never says whether another client exists.
 */
export function assertClientAccess(principal: Principal | null, clientId: string, what = 'Client'): void {
  if (!principal) throw new UnauthorizedError();
  if (principal.role === 'operator') return;
  if (principal.clientId !== clientId) throw new NotFoundError(`${what} not found`);
}

/** The client a data call is about: the caller's own one. Operators must name one (they have none). */
export function ownClientId(principal: Principal | null): string {
  if (!principal) throw new UnauthorizedError();
  if (!principal.clientId) throw new ForbiddenError('This call needs a client account or a client API key');
  return principal.clientId;
}

export const authGuard = fp(async (app) => {
  const keys = loadServerKeys(app.paths.dataDir, app.env.SERVER_KEY);
  const operatorToken = loadOperatorToken(app.paths.dataDir, app.env.OPERATOR_TOKEN);
  const operatorHash = Buffer.from(sha256(operatorToken), 'hex');
  app.decorate('keys', keys);
  const channel = app.cluster;
  // On PostgreSQL only with the cluster channel, which tells every process of a replaced key.
  const memo = app.database.kind === 'pglite' || channel ? new ApiKeyMemo() : null;
  const memoUsable = () => channel === null || channel.healthy;
  const keyReplaced = (clientId: string) => {
    memo?.forgetClient(clientId);
    app.sessionEvents.emit({ type: 'api-key-replaced', clientId });
  };
  app.decorate('forgetApiKeys', async (clientId: string) => {
    keyReplaced(clientId);
    await channel?.publish({ kind: 'api-key-replaced', clientId });
  });
  const sessions = new SessionService(app.db, app.sessionEvents);
  if (channel) {
    // Another process's new key: its old one is refused here too, and the streams it opened here end.
    channel.on('api-key-replaced', (m) => keyReplaced(m.clientId));
    // Replacements may have been missed while the channel was down: start from an empty memory either way.
    channel.onHealth(() => memo?.clear());
    sessions.useChannel(channel);
  }
  app.decorate('authSessions', sessions);
  app.decorateRequest('principal', null);

  const resolve = async (request: FastifyRequest): Promise<Principal> => {
    const bearer = bearerOf(request);
    if (bearer) {
      if (timingSafeEqual(Buffer.from(sha256(bearer), 'hex'), operatorHash)) {
        return { userId: null, clientId: null, role: 'operator', teamRole: null, via: 'operator-token' };
      }
      const claims = await verifyAccessToken(keys.jwt, bearer);
      if (!claims || !(await sessions.isLive(claims.sessionId, claims.userId))) {
        throw new UnauthorizedError('Invalid or expired access token', 'INVALID_TOKEN');
      }
      return { ...claims, via: 'bearer' };
    }
    const apiKey = request.headers['x-api-key'];
    if (typeof apiKey === 'string' && apiKey.length > 0) {
      const key = apiKey.trim();
      const keyMemo = memo && memoUsable() ? memo : null;
      const hash = keyMemo ? apiKeyLookupHash(keys, key) : '';
      const remembered = keyMemo?.get(hash);
      const epoch = keyMemo?.epoch;
      const clientId = remembered ?? (await findClientIdByApiKey(app.db, keys, key));
      if (clientId && !remembered && keyMemo && keyMemo.epoch === epoch && memoUsable()) keyMemo.set(hash, clientId);
      if (!clientId) throw new UnauthorizedError('Invalid API key', 'INVALID_API_KEY');
      return { userId: null, clientId, role: 'client', teamRole: 'member', via: 'api-key' };
    }
    throw new UnauthorizedError('Authentication required: send a bearer token or an x-api-key header');
  };

  const authenticate: preHandlerAsyncHookHandler = async (request: FastifyRequest, _reply: FastifyReply) => {
    request.principal = await resolve(request);
  };
  const requireOperator: preHandlerAsyncHookHandler = async (request: FastifyRequest, _reply: FastifyReply) => {
    request.principal = await resolve(request);
    if (request.principal.role !== 'operator') throw new ForbiddenError('Operators only');
  };
  const requireMember = (action: string): preHandlerAsyncHookHandler =>
    async (request: FastifyRequest, _reply: FastifyReply) => {
      request.principal = await resolve(request);
      if (request.principal.teamRole === 'viewer') {
        throw new AppError(403, VIEWER_READ_ONLY, `Viewers cannot ${action}: ask an owner of your team for the member role`);
      }
    };
  app.decorate('authenticate', authenticate);
  app.decorate('requireOperator', requireOperator);
  app.decorate('requireMember', requireMember);
});

declare module 'fastify' {
  interface FastifyInstance {
    keys: ServerKeys;
    /**
     * Call after a client's API key changed: the old key stops working at once in this process (and its
     * streams end); the promise resolves once every other process was told (never rejects).
     */
    forgetApiKeys(clientId: string): Promise<void>;
    /** Login sessions: started at login, checked on every bearer call, revoked by logout and password resets. */
    authSessions: SessionService;
    /** preHandler: bearer access token, operator token or x-api-key; sets request.principal or answers 401. */
    authenticate: preHandlerAsyncHookHandler;
    /** preHandler: like authenticate, then 403 unless the caller is an operator. */
    requireOperator: preHandlerAsyncHookHandler;
    /**
     * preHandler: like authenticate, then 403 VIEWER_READ_ONLY for a team's viewer; `action` completes "Viewers
     * cannot …" (e.g. 'run tests'). Members, owners, API keys and operators pass.
     */
    requireMember(action: string): preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    /** Who is calling; set by app.authenticate / app.requireOperator, null before. */
    principal: Principal | null;
  }
}
