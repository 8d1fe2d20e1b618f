import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { VIEWER_READ_ONLY } from '@fullstop/contracts';
import type { TeamRole } from '../../db/schema/index.ts';
import { type Access, type Caller, CALLERS, isOpenToAnyone } from '../../lib/access.ts';
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

/** Which kind of caller of the authorization table (lib/access.ts) a principal is. */
export function callerOf(principal: Principal): Caller {
  if (principal.role === 'operator') return 'operator';
  if (principal.via === 'api-key') return 'api-key';
  return principal.teamRole ?? 'viewer';
}

/** The answer to a caller the route's entry leaves out (the texts users saw before the table). */
function refusal(caller: Caller, allowed: Access, action: string | undefined): AppError {
  if (allowed.every((c) => c === 'operator')) return new ForbiddenError('Operators only');
  if (caller === 'operator') {
    return new ForbiddenError(allowed.includes('api-key') ? 'This call needs a client account or a client API key' : "This call needs a client's signed-in user");
  }
  if (caller === 'viewer' && allowed.includes('member')) {
    return new AppError(403, VIEWER_READ_ONLY, `Viewers cannot ${action}: ask an owner of your team for the member role`);
  }
  if (caller === 'api-key' && action) {
    return new ForbiddenError(`An API key cannot ${action}: sign in as a member of your team (an API key may only read here)`);
  }
  if (allowed.every((c) => c === 'owner' || c === 'operator')) return new ForbiddenError('Only an owner of your team can do this');
  if (caller === 'api-key') return new ForbiddenError("Only a client's signed-in users can make this call; an API key cannot");
  return new ForbiddenError('You may not make this call');
}

export interface AccessEntry {
  method: string;
  url: string;
  access: Access;
}

/** A route's entry, checked once at its registration: a route without a valid one stops the start. */
export function entryOf(route: Pick<RouteOptions, 'method' | 'url' | 'config'>): Access {
  const where = `${String(route.method)} ${route.url}`;
  const entry = route.config?.access;
  if (!entry || entry.length === 0) {
    throw new Error(`${where} declares no access: add config.access (lib/access.ts) next to the route, e.g. { access: access.clientReaders }`);
  }
  const unknown = entry.find((c) => !CALLERS.includes(c));
  if (unknown) throw new Error(`${where}: unknown caller "${unknown}" in config.access (known: ${CALLERS.join(', ')})`);
  if (entry.includes('anonymous') && entry.length > 1) throw new Error(`${where}: "anonymous" lets everyone in: list it alone`);
  if (entry.includes('member') && !entry.includes('viewer') && !route.config?.action) {
    throw new Error(`${where}: members may call it but viewers not: say what viewers cannot do in config.action`);
  }
  return entry;
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
      let remembered = keyMemo?.get(hash);
      // Another process may have replaced the key a moment ago: trusted once its message would have been heard.
      if (remembered && channel) remembered = (await channel.caughtUp()) ? keyMemo?.get(hash) : undefined;
      const epoch = keyMemo?.epoch;
      const clientId = remembered ?? (await findClientIdByApiKey(app.db, keys, key));
      if (clientId && !remembered && keyMemo && keyMemo.epoch === epoch && memoUsable()) keyMemo.set(hash, clientId);
      if (!clientId) throw new UnauthorizedError('Invalid API key', 'INVALID_API_KEY');
      return { userId: null, clientId, role: 'client', teamRole: 'member', via: 'api-key' };
    }
    throw new UnauthorizedError('Authentication required: send a bearer token or an x-api-key header');
  };

  // The one check of the authorization table: first thing of every request to a route registered after this
  // plugin (before its body is read); a route's own onRequest hook may have set the principal (an events token).
  const table: AccessEntry[] = [];
  app.decorate('accessTable', table);
  app.addHook('onRoute', function (route) {
    if (isOpenToAnyone(this)) {
      // The web app's built files: open to anyone, and not listed one by one (their names change with every build,
      // and whether the app is built at all must not change the table).
      route.config = { ...route.config, access: ['anonymous'] };
      return;
    }
    const allowed = entryOf(route);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // Fastify adds a HEAD route beside each GET one: the same entry, listed once.
      if (method === 'HEAD' && table.some((e) => e.url === route.url && e.method === 'GET')) continue;
      table.push({ method, url: route.url, access: allowed });
    }
    if (allowed.includes('anonymous')) return;
    const action = route.config?.action;
    const check: onRequestAsyncHookHandler = async (request) => {
      request.principal ??= await resolve(request);
      const caller = callerOf(request.principal);
      if (!allowed.includes(caller)) throw refusal(caller, allowed, action);
    };
    const own = route.onRequest;
    route.onRequest = own === undefined ? [check] : [...(Array.isArray(own) ? own : [own]), check];
  });
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
    /** Every route's method, address and who may call it, in the order they were registered. */
    accessTable: readonly AccessEntry[];
  }
  interface FastifyRequest {
    /** Who is calling; set by the access check of every route not open to anyone, null on those. */
    principal: Principal | null;
  }
}
