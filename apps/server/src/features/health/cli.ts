import type { Command } from 'commander';
import type { EngineReadiness } from '@fullstop/contracts';
import { clientFor } from '../../cli/operator-client.ts';

/** The table `fullstop engines` prints: one line per engine, then what to do about each one missing. */
export function formatEngines(readiness: EngineReadiness, where: string): string[] {
  const lines = [`Engines ${where}: ${readiness.status} (checked ${readiness.checkedAt})`];
  const width = Math.max(...readiness.engines.map((e) => e.title.length));
  for (const e of readiness.engines) {
    const state = e.ok ? 'ok' : 'missing';
    const detail = e.ok ? `${e.version ?? 'version unknown'}  ${e.location}` : e.problem ?? 'not usable';
    const optional = e.optional && !e.ok ? ', optional: only tests that ask for it need it' : '';
    lines.push(`  ${state.padEnd(8)} ${e.title.padEnd(width)}  ${detail}  (${e.kinds.join(', ') || 'no test'}${optional})`);
  }
  for (const e of readiness.engines.filter((x) => !x.ok)) {
    const which = e.optional ? `${e.kinds.join(', ')} tests on ${e.title}` : `${e.kinds.join(', ')} tests`;
    lines.push(`  ${which} cannot run until ${e.title} is installed: ${e.install}${e.setting ? ` (or set ${e.setting} to where it is)` : ''}`);
  }
  return lines;
}

/** `fullstop engines`: the server's engines (or, with --local, this machine's, as a `fullstop worker` here sees them). */
export function registerHealthCommands(program: Command): void {
  program
    .command('engines')
    .description('whether Chromium, wapiti and the packages each kind of test needs are installed; exit 1 when one is missing')
    .option('--local', "check this machine with this environment's CHROMIUM_PATH and WAPITI_PATH (a worker host) instead of asking the server")
    .action(async (opts: { local?: boolean }, cmd: Command) => {
      let readiness: EngineReadiness;
      let where: string;
      if (opts.local) {
        const [{ loadEnv }, { createReadiness }] = await Promise.all([import('../../config/env.ts'), import('./readiness.ts')]);
        readiness = await createReadiness(loadEnv()).check();
        where = 'on this machine';
      } else {
        const client = clientFor(cmd);
        readiness = await client.get<EngineReadiness>('/operator/engines');
        where = `of ${client.server}`;
      }
      for (const line of formatEngines(readiness, where)) console.log(line);
      if (readiness.status !== 'ready') process.exitCode = 1;
    });
}
