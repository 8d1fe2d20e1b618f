import fp from 'fastify-plugin';
import { mailer } from '../../lib/mailer.ts';
import { bugChanges } from './bug-changes.ts';
import { cache } from './cache.ts';
import { cluster } from './cluster.ts';
import { data, type DataOptions } from './data.ts';
import { inputGuard } from './input-guard.ts';
import { sessionEvents } from './session-events.ts';

/**
 * The application's own plumbing, registered after the external plugins and before the features: the input
 * guard every request goes through, then the services the features use (data, cache, session events, mail).
 * The error handler (error-handler.ts) is registered in app.ts before any of this, so every route gets it.
 */
export const appPlugins = fp<DataOptions>(
  async (app, opts) => {
    await app.register(inputGuard);
    await app.register(data, opts);
    for (const plugin of [cluster, cache, sessionEvents, mailer, bugChanges]) await app.register(plugin);
  },
  { name: 'app-plugins' },
);
