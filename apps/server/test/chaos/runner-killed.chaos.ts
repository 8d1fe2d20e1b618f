import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chromiumOf, processesOf, type RealServer, realServerForSuite } from './helpers/real-server.ts';

/** Waits for the first file of that name a run writes, and answers its content (the attempt's tag). */
async function waitForFile(server: RealServer, name: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [file] = server.runFiles(name);
    if (file && existsSync(file) && readFileSync(file, 'utf8')) return readFileSync(file, 'utf8');
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no ${name} after ${timeoutMs} ms (see ${server.dataDir}/server.log)`);
}

/**
 * The runner process is killed with SIGKILL while its test has a real Chromium open (launched detached by
 * playwright-core, in process groups of its own). The attempt ends as an error that says so, the retry runs and
 * passes, no test stays "running", and no Chromium of the killed attempt is left.
 */
describe('a runner process killed with a browser open', () => {
  const server = realServerForSuite({ ENGINE_WORKERS: '2', ENGINE_RETRIES: '1' });

  it('ends the attempt, retries it, and leaves no Chromium behind', { timeout: 60_000 }, async () => {
    const apiKey = await server.clientWithSuite({
      Browser: [{ name: 'opens chromium', kind: 'browser', options: { misbehave: 'chromium', misbehaveOnAttempts: [1], sleepMs: 60_000, sleepOnAttempts: [1] } }],
    });
    server.watchHealth();
    const runId = await server.runAll(apiKey);
    const tag = await waitForFile(server, 'chromium.tag', 30_000);
    const before = processesOf(tag);
    const host = before.find((p) => p.cmd.includes('runner-host'));
    expect(host, JSON.stringify(before)).toBeDefined();
    expect(chromiumOf(tag).length).toBeGreaterThan(1);

    process.kill(host!.pid, 'SIGKILL');
    const d = await server.waitForEnd(apiKey, runId, 30_000);
    server.stopWatching();

    const test = d.tests[0]!;
    expect(test.status).toBe('passed');
    expect(test.attempts.map((a) => a.status)).toEqual(['error', 'passed']);
    expect(test.attempts[0]!.error).toBe('the runner process crashed (signal SIGKILL)');
    expect(d.tests.every((t) => t.status !== 'running')).toBe(true);
    expect(chromiumOf(tag)).toEqual([]);
    expect(processesOf(tag)).toEqual([]);
    expect(server.health.failures).toEqual([]);
  });
});
