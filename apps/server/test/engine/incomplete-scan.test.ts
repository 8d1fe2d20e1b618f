import { countAlerts, type Finding } from '@fullstop/engine';
import { describe, expect, it } from 'vitest';
import { runToJunit } from '../../src/cli/junit.ts';
import { createTestClient } from '../helpers/app.ts';
import { clientWithSuite, key, runAndWait, useEngineApp } from './helpers.ts';

const MISSED = 'sql did not finish on GET /go (url)';
const ERROR = `The scan is incomplete: ${MISSED}. 6 of 7 modules finished; sql stopped at GET /go.`;

/**
 * A scan that did not attack everything (a module stopped on a redirect, as wapiti's sql did) is its own verdict:
 * its findings are counted and shown marked incomplete, never hidden, and a High finding still fails the test
 * (docs/decisions/0058).
 */
describe('an incomplete security scan', () => {
  const fixture = useEngineApp(2, async (app) => ({
    client: await clientWithSuite(app, {
      Security: [
        { name: 'zap scan', kind: 'security-scan' },
        { name: 'redirect scan', kind: 'security-scan', options: { incomplete: MISSED } },
        { name: 'strict redirect scan', kind: 'security-scan', options: { incomplete: MISSED, outcome: 'fail' } },
      ],
    }),
  }));

  const insights = async () => (await fixture.app.inject({ url: '/insight/fetch/all', headers: key(fixture.client) })).json();
  const reportCounts = async (testName: string) => {
    const report = (await fixture.app.inject({ url: `/report/fetch/${encodeURIComponent(testName)}/json`, headers: key(fixture.client) })).json();
    const { 'False Positives': _fp, ...byRisk } = countAlerts(report.summary.findings as Finding[]);
    return { report, byRisk };
  };

  it('keeps its findings and counts in the Zap card, marked incomplete, and says what was not attacked', async () => {
    const { app, client } = fixture;
    const complete = await runAndWait(app, client, 'zap scan');
    expect(complete.status).toBe('passed');
    expect((await insights()).zap.incomplete).toBeUndefined();

    const run = await runAndWait(app, client, 'redirect scan');
    // Incomplete, not "could not run": the message says what was not attacked and counts the modules.
    expect(run.status).toBe('error');
    expect(run.message).toBe(`Test redirect scan: ${ERROR}`);
    expect(run.tests[0]).toMatchObject({ testName: 'redirect scan', status: 'error', error: ERROR });

    // The Zap card is still there, from this scan, with its counts marked incomplete: those of the report.
    const zap = (await insights()).zap;
    const { report, byRisk } = await reportCounts('redirect scan');
    expect(report.summary.coverage).toMatchObject({ complete: false, incomplete: MISSED });
    expect(report.summary.findings.length).toBeGreaterThan(0);
    expect(zap).toEqual({ ...byRisk, 'False Positives': 0, incomplete: MISSED });
    expect(zap.High).toBe(1);
    const trends = (await app.inject({ url: '/insight/trends', headers: key(client) })).json();
    expect(trends.zap.points).toHaveLength(2);
    expect(trends.zap.points.at(-1)).toMatchObject(byRisk);

    // CI: an error case of its own kind, counted as no verdict.
    const junit = runToJunit({ runId: run.runId, startedAt: null, tests: run.tests.map((t: { testName: string; status: 'error'; error: string }) => ({ ...t, group: 'Security', durationMs: null, totals: null })) });
    expect(junit).toContain(`<error type="incomplete-scan" message="${ERROR}">`);
    expect(junit).not.toContain('could-not-run');
  });

  it('fails on a High finding whatever its coverage, and the Zap card still says it is incomplete', async () => {
    const { app, client } = fixture;
    const run = await runAndWait(app, client, 'strict redirect scan');
    expect(run.status).toBe('failed');
    const zap = (await insights()).zap;
    const { report, byRisk } = await reportCounts('strict redirect scan');
    expect(report.status).toBe('failed');
    expect(zap).toEqual({ ...byRisk, 'False Positives': 0, incomplete: MISSED });
  });

  it('shows no Zap card to a client whose scan never ran', async () => {
    const other = await createTestClient(fixture.app);
    expect((await fixture.app.inject({ url: '/insight/fetch/all', headers: key(other) })).json().zap).toBeUndefined();
  });
});
