import type { ServerOptions } from 'node:http';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { type Env, loadEnv } from './config/env.ts';
import { requestLogFields } from './lib/log-redaction.ts';
import { SERVER_DIR } from './lib/server-dir.ts';
import type { Database } from './db/database.ts';
import { alertsFeature } from './features/alerts/routes.ts';
import { authGuard } from './features/auth/index.ts';
import { authRoutes } from './features/auth/routes.ts';
import { badgeRoutes } from './features/badge/routes.ts';
import { bugsFeature } from './features/bugs/routes.ts';
import { visualFeature } from './features/visual/routes.ts';
import { healingFeature } from './features/healing/routes.ts';
import { cacheRoutes } from './features/cache/routes.ts';
import { clientProfileRoutes } from './features/client-profile/routes.ts';
import { demo } from './features/demo/plugin.ts';
import { type EngineOptions, engineFeature } from './features/engine/plugin.ts';
import { systemFeature } from './features/system/plugin.ts';
import { healthRoutes } from './features/health/routes.ts';
import { integrationsFeature } from './features/integrations/routes.ts';
import { operatorAccessAudit } from './features/operator/index.ts';
import { operatorRoutes } from './features/operator/routes.ts';
import { requestsFeature } from './features/requests/plugin.ts';
import { retentionFeature } from './features/retention/routes.ts';
import { mobileDevicesFeature } from './features/mobile-devices/routes.ts';
import { teamRoutes } from './features/team/routes.ts';
import { uploadRoutes } from './features/uploads/routes.ts';
import { apiPrefixes } from './plugins/app/api-prefixes.ts';
import { errorHandler } from './plugins/app/error-handler.ts';
import { appPlugins } from './plugins/app/index.ts';
import { spa } from './plugins/app/spa.ts';
import { externalPlugins } from './plugins/external/index.ts';

export const DEFAULT_WEB_DIST = path.resolve(SERVER_DIR, '../web/dist');

/** The largest JSON body a route takes unless it declares its own `bodyLimit`. */
export const JSON_BODY_LIMIT = 64 * 1024;

/**
 * Node's own limits, all explicit (Fastify's default turns `requestTimeout` off). `requestTimeout` is the hard
 * cap of any request, the upload's; plugins/external/request-limits.ts holds ordinary requests to less and drops a
 * stalled body. Node checks these every `connectionsCheckingInterval`, so that is a fraction of the smallest.
 */
export function serverTimeouts(env: Env): { requestTimeout: number; keepAliveTimeout: number; http: ServerOptions } {
  const headersMs = env.HTTP_HEADERS_TIMEOUT * 1000;
  return {
    requestTimeout: Math.max(env.HTTP_REQUEST_TIMEOUT, env.HTTP_UPLOAD_TIMEOUT, env.HTTP_HEADERS_TIMEOUT) * 1000,
    keepAliveTimeout: env.HTTP_KEEP_ALIVE_TIMEOUT * 1000,
    http: { headersTimeout: headersMs, connectionsCheckingInterval: Math.min(5000, Math.max(250, Math.floor(headersMs / 4))) },
  };
}

export interface BuildOptions extends EngineOptions {
  env?: Partial<Env>;
  logger?: FastifyServerOptions['logger'];
  /** An already open database (tests restore a migrated snapshot); default: DATABASE_URL or PGlite in DATA_DIR. */
  database?: Database;
}

/** How long one plugin may take to start before the server gives up starting. */
const PLUGIN_TIMEOUT_MS = 120_000;

/**
 * Builds the whole application: external plugins first (plugins/external), then the application's own
 * (plugins/app), then the features, then the SPA. Tests call this and talk to the result through `inject`.
 */
export async function build(options: BuildOptions = {}): Promise<FastifyInstance> {
  const env: Env = { ...loadEnv(), ...options.env };
  const app = Fastify({
    logger: options.logger ?? { level: env.LOG_LEVEL, serializers: { req: requestLogFields } },
    trustProxy: env.TRUST_PROXY,
    disableRequestLogging: env.NODE_ENV === 'test',
    // JSON messages are small; a route that takes more says so (the suite import: 8 MiB; uploads stream).
    bodyLimit: JSON_BODY_LIMIT,
    // A plugin opens the database, migrates it and starts the queue: Fastify's 10 s were not enough on a slow 2-core
    // machine with CI's test files starting servers at once (two suites on PostgreSQL failed to start).
    pluginTimeout: PLUGIN_TIMEOUT_MS,
    ...serverTimeouts(env),
    // A URL that cannot be decoded (`%ED%A0%80`, a lone `%`) is answered in the API's own error shape.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      const body = { message: status === 400 ? 'The URL is malformed: it cannot be decoded' : error.message, code: error.code };
      void reply.code(status as never).send(body as never);
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('env', env);

  // Before anything adds a route: a route keeps the error handler in place when its plugin was loaded, and the
  // SPA asks apiPrefixes which paths belong to the API.
  await app.register(errorHandler);
  await app.register(apiPrefixes);
  await app.register(externalPlugins);
  await app.register(appPlugins, options.database ? { database: options.database } : {});

  // Features: the auth guard and the demo client before the routes that use them.
  const features = [
    authGuard,
    demo,
    healthRoutes,
    authRoutes,
    clientProfileRoutes,
    uploadRoutes,
    cacheRoutes,
    operatorAccessAudit,
    operatorRoutes,
    requestsFeature,
    integrationsFeature,
    teamRoutes,
    retentionFeature,
    mobileDevicesFeature,
    badgeRoutes,
  ];
  for (const feature of features) await app.register(feature);
  await app.register(engineFeature, { runners: options.runners, runnersModule: options.runnersModule });
  // After the engine: a bug's retest queues a run and hears when it ends.
  await app.register(bugsFeature);
  // After the bugs: a rejected shot opens a bug through their service.
  await app.register(visualFeature);
  await app.register(healingFeature);
  // After the engine: alerts hear when a run ends in this process (and poll for runs other processes finished).
  await app.register(alertsFeature);
  // After the engine: this process's heartbeat carries the engine's worker id.
  await app.register(systemFeature);

  // The web app last: it owns the not-found handler.
  await app.register(spa, { distDir: env.WEB_DIST_DIR ?? DEFAULT_WEB_DIST });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    env: Env;
  }
}
