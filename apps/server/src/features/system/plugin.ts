import { access } from '../../lib/access.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { PROCESS_ALIVE_SECONDS, opsApiPaths, opsSystem, type OpsSystem } from '@fullstop/contracts';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Env } from '../../config/env.ts';
import type { Paths } from '../../lib/data-dir.ts';
import { noStore } from '../auth/index.ts';
import { runnerIsolation } from '../engine/index.ts';
import { ProcessRegistry } from './process-registry.ts';
import { listProcesses, queueCounts } from './system-repository.ts';
import { waitingLine } from '../queue/index.ts';

/** The System page lists the queue's first tests; the count above says how many wait in all. */
const WAITING_SHOWN = 50;

/** Where artifacts go, as an operator recognises it; never a credential. */
function artifactsLocation(env: Env, paths: Paths): OpsSystem['artifacts'] {
  if (env.ARTIFACT_STORE !== 's3') return { kind: 'data-dir', location: paths.storage };
  const endpoint = env.S3_ENDPOINT ? new URL(env.S3_ENDPOINT).host : `AWS ${env.S3_REGION}`;
  const prefix = env.S3_PREFIX.replace(/^\/+|\/+$/g, '');
  return { kind: 's3', location: `s3://${env.S3_BUCKET ?? ''}${prefix ? `/${prefix}` : ''} at ${endpoint}` };
}

const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    opsApiPaths.system,
    {
      config: { access: access.operators },
      onSend: noStore,
      schema: {
        tags: ['operator'],
        security: [{ bearer: [] }],
        summary: 'The installation: its API and worker processes with their heartbeats, where artifacts go, and the queue',
        response: { 200: opsSystem, ...errorResponses(401, 403) },
      },
    },
    async () => {
      const [processes, queue, waiting] = await Promise.all([listProcesses(app.db), queueCounts(app.db), waitingLine(app.db)]);
      return {
        processes,
        database: app.database.kind === 'pglite' ? ('embedded' as const) : ('postgresql' as const),
        artifacts: artifactsLocation(app.env, app.paths),
        queue,
        waiting: waiting.slice(0, WAITING_SHOWN),
        aliveWithinSeconds: PROCESS_ALIVE_SECONDS,
      };
    },
  );
};

/**
 * The console's System page, and this API process's heartbeat in server_processes (`fullstop worker` keeps its
 * own, in worker-process.ts). Registered after the engine: the process's id is the engine's worker id.
 */
export const systemFeature = fp(
  async (app) => {
    const { workers } = app.engine.deps.config;
    const registry = new ProcessRegistry(
      app.db,
      { id: app.engine.deps.workerId, role: 'api', workers, isolation: () => runnerIsolation(app.engine.deps.config, workers) },
      app.log,
    );
    app.addHook('onReady', () => registry.start());
    app.addHook('preClose', () => registry.stop());
    await app.register(systemRoutes);
  },
  { name: 'system', dependencies: ['engine'] },
);
