import fp from 'fastify-plugin';
import { SessionEvents } from '../../lib/session-events.ts';

export const sessionEvents = fp(async (app) => {
  app.decorate('sessionEvents', new SessionEvents());
}, { name: 'session-events' });

declare module 'fastify' {
  interface FastifyInstance {
    /** Revoked sessions and replaced API keys, for connections that must end with them. */
    sessionEvents: SessionEvents;
  }
}
