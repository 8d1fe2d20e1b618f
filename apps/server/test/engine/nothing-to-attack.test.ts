import { describe, expect, it } from 'vitest';
import { runToJunit } from '../../src/cli/junit.ts';
import { clientWithSuite, key, runAndWait, useEngineApp } from './helpers.ts';

const WHY = 'the scanner found no URL with parameters, form or JSON call to attack on the 1 page crawled';
const ERROR = `The scan had nothing to attack: ${WHY}.`;

/**
 * A scan that attacked nothing (issue 38) is never "passed": the run says so, the Zap card says "nothing to attack"
 * beside the passive checks' counts, and CI gets an error case of its own type, not a pass.
 */
describe('a security scan with nothing to attack', () => {
  const fixture = useEngineApp(2, async (app) => ({
    client: await clientWithSuite(app, { Security: [{ name: 'brochure scan', kind: 'security-scan', options: { nothingToAttack: WHY } }] }),
  }));

  it('is no pass in the run, the Zap card and JUnit', async () => {
    const { app, client } = fixture;
    const run = await runAndWait(app, client, 'brochure scan');
    expect(run.status).toBe('error');
    expect(run.tests[0]).toMatchObject({ testName: 'brochure scan', status: 'error', error: ERROR });

    const zap = (await app.inject({ url: '/insight/fetch/all', headers: key(client) })).json().zap;
    expect(zap.nothingToAttack).toBe(WHY);
    expect(zap.incomplete).toBeUndefined();

    const junit = runToJunit({ runId: run.runId, startedAt: null, tests: run.tests.map((t: { testName: string; status: 'error'; error: string }) => ({ ...t, group: 'Security', durationMs: null, totals: null })) });
    expect(junit).toContain(`<error type="nothing-to-attack" message="${ERROR}">`);
    expect(junit).not.toMatch(/errors="0"/);
  });
});
