import { describe, expect, it } from 'vitest';
import { BROWSER_AND_DETACHED, startBrowserAndDetached } from './helpers/browser-and-detached.ts';
import { processesOf, realServerForSuite, until } from './helpers/real-server.ts';

/**
 * The server (the supervisor of the runs) is killed with SIGKILL while one test has a real Chromium open and
 * another has started a detached process. The runner process of the first notices its supervisor is gone and
 * takes its browser down itself. The runner process of the second is killed too (as a kill of the whole group
 * would), so its detached child is an orphan only the sweep at the next start can find (Chromium launched by
 * playwright-core would exit with its control pipe; a detached tool does not). After the restart nothing of
 * either attempt is left, and both tests run again and pass.
 */
describe('a server killed with browsers open', () => {
  const server = realServerForSuite({ ENGINE_WORKERS: '2', ENGINE_RETRIES: '1' });

  it('leaves no Chromium behind once it is started again', { timeout: 120_000 }, async () => {
    const apiKey = await server.clientWithSuite(BROWSER_AND_DETACHED);
    const { runId, firstTag, secondTag, secondHost } = await startBrowserAndDetached(server, apiKey, 40_000);

    process.kill(secondHost.pid, 'SIGKILL');
    await server.kill();

    // The first runner process cleans up after its dead supervisor on its own.
    await until('the first attempt’s processes to end', () => processesOf(firstTag).length === 0, 10_000);
    // The second's detached child has no one left to end it.
    const orphans = processesOf(secondTag);
    expect(orphans.map((p) => p.cmd.trim())).toEqual(['sleep 600']);

    await server.start();
    await until('the sweep at start-up', () => processesOf(secondTag).length === 0, 10_000);

    const d = await server.waitForEnd(apiKey, runId, 30_000);
    expect(d.tests.map((t) => t.status)).toEqual(['passed', 'passed']);
    for (const t of d.tests) expect(t.attempts.map((a) => a.status)).toEqual(['error', 'passed']);
  });
});
