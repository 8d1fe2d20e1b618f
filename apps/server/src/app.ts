import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { type Env, loadEnv } from './config/env.ts';
import { requestLogFields } from './lib/log-redaction.ts';
import type { Database } from './db/database.ts';
import { authGuard } from './features/auth/guard.ts';
import { authRoutes } from './features/auth/routes.ts';
import { cacheRoutes } from './features/cache/routes.ts';
import { clientProfileRoutes } from './features/client-profile/routes.ts';
import { demo } from './features/demo/plugin.ts';
import { engineFeature } from './features/engine/plugin.ts';
import { healthRoutes } from './features/health/routes.ts';
import { operatorRoutes } from './features/operator/routes.ts';
import { requestsFeature } from './features/requests/plugin.ts';
import { uploadRoutes } from './features/uploads/routes.ts';
import { mailer } from './lib/mailer.ts';
import { cache } from './plugins/cache.ts';
import { data } from './plugins/data.ts';
import { docs } from './plugins/docs.ts';
import { errorHandler } from './plugins/error-handler.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { sessionEvents } from './plugins/session-events.ts';
import { spa } from './plugins/spa.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');

export interface BuildOptions {
  env?: Partial<Env>;
  logger?: FastifyServerOptions['logger'];
  /** An already open database (tests restore a migrated snapshot); default: DATABASE_URL or PGlite in DATA_DIR. */
  database?: Database;
}

/**
 * Builds the whole application: external plugins first, then the application's own services, then routes,
 * then the SPA. Tests call this and talk to the result through `inject`.
 */
export async function build(options: BuildOptions = {}): Promise<FastifyInstance> {
  const env: Env = { ...loadEnv(), ...options.env };
  const app = Fastify({
    logger: options.logger ?? { level: env.LOG_LEVEL, serializers: { req: requestLogFields } },
    trustProxy: env.TRUST_PROXY,
    disableRequestLogging: env.NODE_ENV === 'test',
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('env', env);

  // External
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(securityHeaders);
  await app.register(errorHandler);
  await app.register(docs);

  // Application services
  await app.register(data, options.database ? { database: options.database } : {});
  await app.register(cache);
  await app.register(sessionEvents);
  await app.register(mailer);
  await app.register(authGuard);
  await app.register(demo);

  // Routes
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(clientProfileRoutes);
  await app.register(uploadRoutes);
  await app.register(cacheRoutes);
  await app.register(operatorRoutes);
  await app.register(requestsFeature);
  await app.register(engineFeature);

  // The web app last: it owns the not-found handler.
  await app.register(spa, { distDir: env.WEB_DIST_DIR ?? DEFAULT_WEB_DIST });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    env: Env;
  }
}
