import type { Command } from 'commander';
import type { SuiteImportResponse } from '@fullstop/contracts';
import { clientFor, OperatorApiError } from '../../cli/operator-client.ts';
import { registerSuiteProposeCommand } from '../../cli/suite-propose-command.ts';

/** What `fullstop worker --help` says about settings (docs/deployment.md has every one). */
const WORKER_SETTINGS = `
Settings (environment variables):
  DATABASE_URL          PostgreSQL, the same as the API processes' (required: the queue lives there)
  ARTIFACT_STORE=s3     with the API processes' S3_* settings: the reports this worker writes reach every API
                        process (data-dir: DATA_DIR must then be the API's own folder, one machine only)
  SERVER_KEY            the same as the API processes' (it decrypts the clients' test secrets)
  DATA_DIR              this process's own scratch folder (run folders before upload)
  ENGINE_RUN_MEMORY_MB, ENGINE_BROWSER_WORKERS, CHROMIUM_PATH, WAPITI_PATH
                        what one test may use here, and where this machine's engines are
  EVENTS_VIA_NOTIFY     run events through PostgreSQL LISTEN/NOTIFY, as the API processes have it

Scale by starting more workers (any machine reaching the database and the bucket); --concurrency is per process.
A bad setting stops the command with a message naming it and exit code 1.`;

/** Operator commands of the engine: suite import, alerts, origins, worker. */
export function registerEngineCommands(program: Command): void {
  const suite = program.command('suite').description("a client's test suite");
  suite
    .command('import')
    .description('validate a suite folder (suite.json + spec files) and store it as the client’s next version')
    .requiredOption('--client <id>', 'client id')
    .argument('<dir>', 'the suite folder')
    .action(async (dir: string, opts: { client: string }, cmd: Command) => {
      // Suites only (their files, their validation), and only for this command: a CLI start stays fast. Never the
      // whole engine by name: a bundle would then keep every runner beside what the server loads at start.
      const { readSuiteFolder, SuiteValidationError } = await import('@fullstop/engine/suite');
      let files;
      try {
        files = await readSuiteFolder(dir);
      } catch (err) {
        if (err instanceof SuiteValidationError) throw new OperatorApiError(`the suite is not valid:\n${err.message}`, 0, null);
        throw new OperatorApiError(`cannot read ${dir}: ${(err as Error).message}`, 0, null);
      }
      const body = { files: [...files].map(([p, c]) => ({ path: p, content: c.toString('base64'), encoding: 'base64' })) };
      const res = await clientFor(cmd).post<SuiteImportResponse>(`/operator/clients/${encodeURIComponent(opts.client)}/suite`, body);
      console.log(res.message);
      for (const [group, tests] of Object.entries(res.groups)) console.log(`  ${group}: ${tests.join(', ')}`);
    });
  suite
    .command('history')
    .description('every imported version')
    .requiredOption('--client <id>', 'client id')
    .action(async (opts: { client: string }, cmd: Command) => {
      const res = await clientFor(cmd).get<{ versions: { version: number; fileCount: number; createdAt: string }[] }>(
        `/operator/clients/${encodeURIComponent(opts.client)}/suite`,
      );
      for (const v of res.versions) console.log(`v${v.version}  ${v.createdAt}  ${v.fileCount} files`);
    });
  registerSuiteProposeCommand(suite);

  const alerts = program.command('alerts').description("security-scan alerts of a client's latest scan");
  alerts
    .command('list')
    .requiredOption('--client <id>', 'client id')
    .action(async (opts: { client: string }, cmd: Command) => {
      const res = await clientFor(cmd).get<{ alerts: { alertId: string; risk: string; name: string; falsePositive: boolean }[] }>(
        `/operator/clients/${encodeURIComponent(opts.client)}/alerts`,
      );
      if (res.alerts.length === 0) console.log('no alerts');
      for (const a of res.alerts) console.log(`${(a.falsePositive ? 'False Positive' : a.risk).padEnd(14)} ${a.alertId}  ${a.name}`);
    });
  alerts
    .command('false-positive')
    .description('count an alert under "False Positives" instead of its risk')
    .requiredOption('--client <id>', 'client id')
    .requiredOption('--rule <ruleId>', 'the alert’s rule id, e.g. 10038')
    .option('--url <url>', 'only on this URL, or only one instance: URL#parameter as `alerts list` shows it (default: the alert, every instance)')
    .option('--note <text>', 'why')
    .option('--undo', 'count it by its risk again')
    .action(async (opts: { client: string; rule: string; url?: string; note?: string; undo?: boolean }, cmd: Command) => {
      const client = clientFor(cmd);
      const body = { ruleId: opts.rule, ...(opts.url ? { url: opts.url } : {}), ...(opts.note && !opts.undo ? { note: opts.note } : {}) };
      const res = await client.request<{ message: string }>(opts.undo ? 'DELETE' : 'POST', `/operator/clients/${encodeURIComponent(opts.client)}/false-positives`, body);
      console.log(res.message);
    });

  const origins = program.command('origins').description('origins beyond its website a client’s tests may reach');
  for (const [name, method] of [
    ['add', 'POST'],
    ['remove', 'DELETE'],
  ] as const) {
    origins
      .command(name)
      .requiredOption('--client <id>', 'client id')
      .argument('<origin>', 'e.g. https://api.example.com')
      .action(async (origin: string, opts: { client: string }, cmd: Command) => {
        const res = await clientFor(cmd).request<{ message: string }>(method, `/operator/clients/${encodeURIComponent(opts.client)}/origins`, { origin });
        console.log(res.message);
      });
  }
  origins
    .command('list')
    .requiredOption('--client <id>', 'client id')
    .action(async (opts: { client: string }, cmd: Command) => {
      const res = await clientFor(cmd).get<{ website: string; origins: string[] }>(`/operator/clients/${encodeURIComponent(opts.client)}/origins`);
      console.log(`website: ${res.website}`);
      for (const o of res.origins) console.log(`  + ${o}`);
    });

  program
    .command('worker')
    .description('run queued tests in this process (PostgreSQL only; settings from the environment, see --help)')
    .option('--concurrency <n>', 'tests at once (1-64)', '2')
    .addHelpText('after', WORKER_SETTINGS)
    .action(async (opts: { concurrency: string }) => {
      const { runWorkerProcess } = await import('./worker-process.ts');
      await runWorkerProcess(Number(opts.concurrency));
    });
}
