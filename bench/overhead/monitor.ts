/**
 * The memory monitor's CPU (issue 22): what its thread costs per second of wall time with 0, 1 and 4 attempts
 * running, on the machine as it is and with 500 more unrelated processes (then also ~40 new processes a second),
 * against the poll it had before (a full scan of /proc every 500 ms), measured in the same run.
 *
 * A fake attempt is a shell carrying the attempt tag with seven `sleep` children (a runner with a browser has a
 * handful to a dozen processes). Each figure is one probe process (monitor-probe.ts) minus an idle probe that
 * watches nothing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { attemptTag, killAttemptProcesses } from '../../packages/engine/src/sandbox/process-table.ts';

const PROBE = fileURLToPath(new URL('./monitor-probe.ts', import.meta.url));

export interface MonitorRow {
  scenario: string;
  processes: number;
  [column: string]: number | string;
}

async function probe(mode: string, tags: string[], seconds: number): Promise<number> {
  const child = spawn(process.execPath, [PROBE, mode, tags.join(','), String(seconds)], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.on('error', () => {});
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  await new Promise((r) => child.once('exit', r));
  return (JSON.parse(out) as { cpuMsPerSecond: number }).cpuMsPerSecond;
}

/** The rows of the table: CPU ms per second of the monitor thread, now and as it was. */
export async function measureMonitor(seconds = 8): Promise<MonitorRow[]> {
  const started: ChildProcess[] = [];
  const allTags: string[] = [];
  const start = (command: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    const child = spawn(command, args, { stdio: 'ignore', env: { PATH: process.env.PATH, ...env } });
    child.on('error', () => {});
    started.push(child);
  };
  const scenario = async (name: string): Promise<MonitorRow> => {
    const idle = await probe('tracker', [], seconds);
    const row: MonitorRow = { scenario: name, processes: readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length };
    for (const n of [0, 1, 4]) {
      // Tags owned by this live process: no server's orphan sweep on the machine kills them meanwhile.
      const tags = Array.from({ length: n }, (_, i) => attemptTag(`bench-${name.replace(/\W/g, '')}-${i}`));
      allTags.push(...tags);
      for (const tag of tags) start('sh', ['-c', 'for i in 1 2 3 4 5 6 7; do sleep 600 & done; wait'], { FULLSTOP_ATTEMPT: tag });
      await new Promise((r) => setTimeout(r, 300));
      for (const mode of ['tracker', 'full-scan']) row[`${n} attempts, ${mode === 'tracker' ? 'now' : 'before'}`] = Math.round(((await probe(mode, tags, seconds)) - idle) * 10) / 10;
    }
    return row;
  };
  try {
    const rows = [await scenario('this machine')];
    for (let i = 0; i < 500; i++) start('sleep', ['600']);
    rows.push(await scenario('+500 processes'));
    // About 40 short processes a second elsewhere on the machine, as builds, browsers' helpers and cron do.
    start('sh', ['-c', 'while :; do /bin/true; sleep 0.02; done']);
    rows.push(await scenario('+500 processes, +40 new/s'));
    return rows;
  } finally {
    for (const child of started) child.kill('SIGKILL');
    // The fake attempts' sleeps outlive their shells.
    for (const tag of allTags) await killAttemptProcesses(tag);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('memory monitor thread, CPU ms per second of wall time (0 attempts: the thread does not poll)');
  console.table(await measureMonitor(Number(process.argv[2] ?? 8)));
}
