import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** wrk's requests per second against `url` (one thread, as the load runner has one event loop). */
export async function wrkRequestsPerSecond(url: string, connections: number, seconds: number): Promise<number> {
  const { stdout } = await run('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, url], { timeout: (seconds + 30) * 1000 });
  const match = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  if (!match?.[1]) throw new Error(`unexpected wrk output: ${stdout}`);
  return Number(match[1]);
}
