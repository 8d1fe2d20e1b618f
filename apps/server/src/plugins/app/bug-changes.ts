import type { BugStatus } from '@fullstop/contracts';
import fp from 'fastify-plugin';

/** A bug was created, changed status, or was commented on: what exports and notifications listen to. */
export interface BugChange {
  bugId: string;
  clientId: string;
  kind: 'created' | 'status' | 'comment' | 'fields';
  from: BugStatus | null;
  to: BugStatus;
}

type Listener = (change: BugChange) => Promise<void> | void;

/**
 * In-process announcements of bug changes. The bugs feature emits after its transaction commits; listeners
 * (tracker exports) run after, and one that fails is logged and never fails the request.
 */
export class BugChanges {
  readonly #listeners: Listener[] = [];
  constructor(private readonly onError: (err: unknown, change: BugChange) => void) {}
  on(listener: Listener): void {
    this.#listeners.push(listener);
  }
  async emit(change: BugChange): Promise<void> {
    for (const listener of this.#listeners) {
      try {
        await listener(change);
      } catch (err) {
        this.onError(err, change);
      }
    }
  }
}

export const bugChanges = fp(async (app) => {
  app.decorate('bugChanges', new BugChanges((err, change) => app.log.error({ err, bugId: change.bugId }, 'a bug change listener failed')));
}, { name: 'bug-changes' });

declare module 'fastify' {
  interface FastifyInstance {
    bugChanges: BugChanges;
  }
}
