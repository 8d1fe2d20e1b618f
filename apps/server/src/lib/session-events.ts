import { EventEmitter } from 'node:events';

/**
 * Credentials that stopped being valid, announced inside this process so that long-lived connections (event
 * streams) close at once instead of outliving them. Emitted by the auth and client-profile features.
 */
export type SessionEvent =
  /** Every token of this user issued before now is revoked (logout, password reset or change). */
  | { type: 'user-revoked'; clientId: string; userId: string }
  /** The client's API key was replaced: connections opened with the old key end. */
  | { type: 'api-key-replaced'; clientId: string };

export class SessionEvents {
  readonly #emitter = new EventEmitter();

  constructor() {
    // One listener per open stream: the count is capped by the streams' own limit, not by this emitter.
    this.#emitter.setMaxListeners(0);
  }

  emit(event: SessionEvent): void {
    this.#emitter.emit('event', event);
  }

  /** Returns the function that removes the listener. */
  on(listener: (event: SessionEvent) => void): () => void {
    this.#emitter.on('event', listener);
    return () => this.#emitter.off('event', listener);
  }
}
