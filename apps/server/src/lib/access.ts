import type { FastifyInstance } from 'fastify';

/**
 * Who may call a route: every route declares it in its `config.access`, next to the route, and the auth guard
 * (features/auth/guard.ts) checks it in one hook before anything else of the request runs. A route without an
 * entry fails the app's start. The table of every route's entry is in docs/security.md (decision 0074).
 *
 * - `anonymous`: anyone, no credential (a route whose token in the address is the credential counts here);
 * - `api-key`: a client's API key (`x-api-key`);
 * - `viewer`, `member`, `owner`: a client's signed-in user with that team role (bearer access token);
 * - `operator`: the QA team (the operator token, or a signed-in operator user).
 *
 * Which client a caller may touch is the route's own check (`assertClientAccess`, `ownClientId`): another
 * client's owner is an `owner` here and gets "not found" there.
 */
export const CALLERS = ['anonymous', 'api-key', 'viewer', 'member', 'owner', 'operator'] as const;
export type Caller = (typeof CALLERS)[number];
export type Access = readonly Caller[];

/** The entries routes use; a route may also list its callers itself. */
export const access = {
  /** Public: sign-in, health, signed links, the SPA. */
  anyone: ['anonymous'],
  /** The caller's own client, to read: its users of every role and its API key. */
  clientReaders: ['api-key', 'viewer', 'member', 'owner'],
  /** The caller's own client, to change: not its viewers. */
  clientWriters: ['api-key', 'member', 'owner'],
  /** A client by its id: its readers, and operators for any client. */
  clientReadersAndOperators: ['api-key', 'viewer', 'member', 'owner', 'operator'],
  /** A client by its id, to change: its writers, and operators for any client. */
  clientWritersAndOperators: ['api-key', 'member', 'owner', 'operator'],
  /** A client's signed-in people of every role (not its API key). */
  teamUsers: ['viewer', 'member', 'owner'],
  /** A client's signed-in members and owners (not its viewers, not its API key). */
  teamWriters: ['member', 'owner'],
  /** A client's signed-in owners. */
  owners: ['owner'],
  /** A signed-in person of any kind (a user with a password). */
  signedIn: ['viewer', 'member', 'owner', 'operator'],
  /** The QA team only. */
  operators: ['operator'],
} as const satisfies Record<string, Access>;

const OPEN_CONTEXT = 'routesOpenToAnyone';

/**
 * Marks an encapsulated context (a plugin's `app`) whose routes are all open to anyone and cannot carry our
 * config: the web app's built files, whose routes fastify-static makes. Nothing else should need it.
 */
export function openToAnyone(instance: FastifyInstance): void {
  instance.decorate(OPEN_CONTEXT, true);
}

/** Whether routes registered on `instance` are in a context marked by openToAnyone. */
export function isOpenToAnyone(instance: FastifyInstance): boolean {
  return instance.hasDecorator(OPEN_CONTEXT);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route (lib/access.ts); required on every route. */
    access?: Access;
    /**
     * Completes "Viewers cannot …" (and "An API key cannot …") when a route refuses them, e.g. 'run tests'.
     * Required when the route lets members in but not viewers, or owners' users but not the API key.
     */
    action?: string;
  }
}
