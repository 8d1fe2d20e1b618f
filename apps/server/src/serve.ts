import type { FastifyInstance } from 'fastify';
import { build } from './app.ts';
import { installLastResort } from './lib/last-resort.ts';

/**
 * Starts the API server in this process and keeps it listening until SIGINT/SIGTERM. Shared by `npm run serve`
 * (main.ts) and `fullstop serve`. A bad setting throws ConfigError before anything listens.
 */
export async function serve(): Promise<FastifyInstance> {
  const app = await build();
  installLastResort(app.log, () => app.close());
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: app.env.PORT, host: app.env.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : app.env.PORT;
  const url = `http://${app.env.HOST === '0.0.0.0' ? 'localhost' : app.env.HOST}:${port}`;
  app.log.info({ url }, `Fullstop QA is ready at ${url}`);
  if (app.demoClientId) {
    app.log.info(`demo client: log in at ${url}/login as ${app.env.FULLSTOP_DEMO_EMAIL} (password in README.md)`);
  }
  return app;
}
