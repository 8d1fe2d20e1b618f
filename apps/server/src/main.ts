import { build } from './app.ts';
import { ConfigError } from './config/env.ts';
import { DataDirLockedError } from './lib/data-dir.ts';

async function main(): Promise<void> {
  const app = await build();
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: app.env.PORT, host: app.env.HOST });
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
