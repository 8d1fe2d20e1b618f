import fp from 'fastify-plugin';
import { ClusterChannel } from '../../lib/cluster-channel.ts';

/**
 * This process's cluster channel (lib/cluster-channel.ts): on PostgreSQL, unless EVENTS_VIA_NOTIFY is off (a
 * transaction-mode pooler, where LISTEN does not work). Null otherwise: on the embedded database there is one
 * process; without it every process polls for events and asks the database where it would have remembered.
 */
export const cluster = fp(
  async (app) => {
    const raw = app.database;
    const channel = raw.kind === 'postgres' && app.env.EVENTS_VIA_NOTIFY ? new ClusterChannel(raw.url, app.db, app.log.child({ feature: 'cluster' })) : null;
    app.decorate('cluster', channel);
    if (!channel) return;
    // Never throws: a first attempt that fails is retried in the background (the server starts, polling meanwhile).
    await channel.start();
    app.addHook('onClose', () => channel.close());
  },
  { name: 'cluster' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Messages to and from this deployment's other processes; null on PGlite or with EVENTS_VIA_NOTIFY=false. */
    cluster: ClusterChannel | null;
  }
}
