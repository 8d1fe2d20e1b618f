import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { chromiumOf, processesOf, type RealServer, until } from './real-server.ts';

/** Misbehaves on the first attempt only, then sleeps a minute there: the kill comes meanwhile. */
const FIRST_ATTEMPT_ONLY = { misbehaveOnAttempts: [1], sleepMs: 60_000, sleepOnAttempts: [1] };

/** `first` opens a real Chromium, `second` starts a detached `sleep 600`; both pass on their retry. */
export const BROWSER_AND_DETACHED = {
  Hostile: [
    { name: 'first', kind: 'browser', options: { misbehave: 'chromium', ...FIRST_ATTEMPT_ONLY } },
    { name: 'second', kind: 'api', options: { misbehave: 'detached', ...FIRST_ATTEMPT_ONLY } },
  ],
};

/**
 * Runs BROWSER_AND_DETACHED and waits until the first attempt's browser is up and the second's detached child
 * is started. Answers the run, both attempts' tags and the runner process of the second (to kill).
 */
export async function startBrowserAndDetached(server: RealServer, apiKey: string, timeoutMs: number) {
  const runId = await server.runAll(apiKey);
  await until('the browser and the detached child', () => server.runFiles('chromium.tag').length + server.runFiles('detached.tag').length === 2, timeoutMs);
  const firstTag = readFileSync(server.runFiles('chromium.tag')[0]!, 'utf8');
  const secondTag = readFileSync(server.runFiles('detached.tag')[0]!, 'utf8');
  // Chromium starting on a loaded machine has taken over 10 s.
  await until('the browser', () => chromiumOf(firstTag).length > 1, 30_000);
  const secondHost = processesOf(secondTag).find((p) => p.cmd.includes('runner-host'));
  expect(secondHost).toBeDefined();
  return { runId, firstTag, secondTag, secondHost: secondHost! };
}
