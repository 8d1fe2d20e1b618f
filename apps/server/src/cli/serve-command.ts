import type { Command } from 'commander';

/** What `fullstop serve --help` says about settings; the worker's is beside its command (features/engine/cli.ts). */
const SERVE_SETTINGS = `
Settings (environment variables; docs/deployment.md has every one):
  PORT, HOST            where this process listens (default 127.0.0.1:3000)
  DATA_DIR              this process's own folder (lock, scratch files); never shared between processes
  DATABASE_URL          PostgreSQL; unset: the embedded database, one process only
  ENGINE_WORKERS        tests this process runs itself; 0 when \`fullstop worker\` processes run them
  ENGINE_CAPACITY       cores' worth of tests at once, by each kind's weight (unset: the cores)
  ENGINE_LIGHT_LANE     cores' worth kept for light tests (API, security checks) on top of it (unset: 0.5)
  ARTIFACT_STORE=s3     with S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY:
                        reports and uploads in a bucket every process reads (data-dir: one machine only)
  SERVER_KEY, OPERATOR_TOKEN
                        the same in every process, or each makes its own and they refuse each other's
  EVENTS_VIA_NOTIFY     run events and cache invalidation through PostgreSQL LISTEN/NOTIFY (several processes)
  TRUST_PROXY=1, PUBLIC_URL, UPLOAD_MAX_BYTES
                        behind a reverse proxy: its address, and the upload limit it must match

At scale, every API process: DATABASE_URL, ENGINE_WORKERS=0, ARTIFACT_STORE=s3, shared SERVER_KEY and OPERATOR_TOKEN.
A bad setting stops the command with a message naming it and exit code 1.`;

/** `fullstop serve`: the API server in this process (what `npm run serve` starts). */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('start the API server in this process (settings from the environment; see --help)')
    .addHelpText('after', SERVE_SETTINGS)
    .action(async () => {
      // Loaded on demand: the operator commands must not pay for the whole server at start.
      const { serve } = await import('../serve.ts');
      await serve();
    });
}
