import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Bug, BugPrefill } from '@fullstop/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bugs, engineRunTests } from '../src/db/schema/index.ts';
import { clientWithSuite, importSuite, key, manifest, operator, runAndWait, useEngineApp, waitForRunEnd } from './engine/helpers.ts';

type RunTestSummary = typeof engineRunTests.$inferInsert.summary;

interface RunDetail {
  runId: string;
  status: string;
  tests: { runTestId: string; testName: string; status: string }[];
}

describe('bugs from runs: prefill, evidence and the retest', () => {
  const fixture = useEngineApp(
    1,
    async (app) => {
      const c = await clientWithSuite(app, {
        Frontend: [
          { name: 'checkout', kind: 'browser', options: { outcome: 'fail', evidence: 'files' } },
          { name: 'marketing pages', kind: 'browser', options: { outcome: 'pass' } },
        ],
        Security: [{ name: 'zap scan', kind: 'security-scan' }],
      });
      const failedRun: RunDetail = await runAndWait(app, c, 'checkout');
      return { c, failedRun };
    },
    120_000,
  );

  const runTestIdOf = (run: RunDetail, name: string) => run.tests.find((t) => t.testName === name)!.runTestId;
  const prefill = (runTestId: string, ruleId?: string) =>
    fixture.app.inject({ url: `/operator/clients/${fixture.c.clientId}/bugs/prefill?runTestId=${runTestId}${ruleId ? `&ruleId=${ruleId}` : ''}`, headers: operator });

  const createFrom = async (fields: BugPrefill) => {
    const { evidence: _evidence, ...body } = fields;
    const res = await fixture.app.inject({ method: 'POST', url: `/operator/clients/${fixture.c.clientId}/bugs`, headers: operator, payload: { ...body, ruleId: body.ruleId ?? undefined, publish: true } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Bug>();
  };

  /** Gives a run test the summary its runner would have written. */
  const setSummary = (runTestId: string, summary: RunTestSummary) => fixture.app.db.update(engineRunTests).set({ summary }).where(eq(engineRunTests.id, runTestId));

  /** Waits until the bug leaves `retest` (read from the database: the run's end moves it, not the read). */
  const settled = async (bugId: string) => {
    for (let i = 0; i < 150; i += 1) {
      const [row] = await fixture.app.db.select().from(bugs).where(eq(bugs.id, bugId));
      if (row && row.status !== 'retest') return row.status;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the bug stayed in retest');
  };

  it('prefills a failed browser test: title, steps, expected and actual, environment, evidence', async () => {
    const runTestId = runTestIdOf(fixture.failedRun, 'checkout');
    // A Playwright test's summary names its steps and its failure message.
    await setSummary(runTestId, {
      kind: 'browser',
      cases: [
        { name: 'first case', status: 'passed', durationMs: 10 },
        {
          name: 'second case',
          status: 'failed',
          durationMs: 12,
          error: 'Error: expect(received).toHaveText(expected)\n\nExpected: "Order placed"\nReceived: "Payment failed"',
          steps: [{ title: 'Open the cart', durationMs: 3 }, { title: 'Click "Pay"', durationMs: 4 }, { title: 'expect toHaveText', durationMs: 5, error: 'failed' }],
        },
      ],
    } as RunTestSummary);

    const res = await prefill(runTestId);
    expect(res.statusCode, res.body).toBe(200);
    const fields = res.json<BugPrefill>();
    expect(fields).toMatchObject({
      title: 'checkout fails',
      source: 'test',
      url: 'https://example.test',
      steps: ['Open the cart', 'Click "Pay"', 'expect toHaveText'],
      expected: '"Order placed"',
      environment: { browser: 'Chromium' },
      runTestId,
    });
    expect(fields.actual).toContain('"Payment failed"');
    expect(fields.evidence.map((e) => e.kind).sort()).toEqual(['screenshot', 'screenshot', 'trace']);

    const bug = await createFrom(fields);
    expect(bug.link).toMatchObject({ testName: 'checkout', runId: fixture.failedRun.runId, runTestId });
    expect(bug.attachments.map((a) => a.kind).sort()).toEqual(['screenshot', 'screenshot', 'trace']);
    expect(await readdir(path.join(fixture.app.paths.storage, 'bugs', bug.id))).toHaveLength(3);
    const shot = bug.attachments.find((a) => a.name === 'test-failed-1.png')!;
    const got = await fixture.app.inject({ url: `/bugs/${bug.id}/attachments/${shot.id}`, headers: key(fixture.c) });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
  });

  it('prefills a security alert and an accessibility violation by rule', async () => {
    const scan = await runAndWait(fixture.app, fixture.c, 'zap scan');
    const alert = await prefill(runTestIdOf(scan, 'zap scan'), '40018');
    expect(alert.statusCode, alert.body).toBe(200);
    expect(alert.json<BugPrefill>()).toMatchObject({ title: 'SQL Injection', severity: 'high', source: 'security-alert', ruleId: '40018', url: 'http://site.test/search' });
    expect(alert.json<BugPrefill>().evidence).toEqual([{ name: 'finding-40018.json', kind: 'finding' }]);
    expect((await prefill(runTestIdOf(scan, 'zap scan'), '10036')).json<BugPrefill>().severity).toBe('low');
    expect((await prefill(runTestIdOf(scan, 'zap scan'), '99999')).statusCode).toBe(404);

    const a11y = runTestIdOf(scan, 'zap scan');
    await setSummary(a11y, {
      kind: 'accessibility',
      pages: [{ url: 'https://example.test/', passed: false, violationsByImpact: { serious: 1 }, violations: [{ id: 'image-alt', impact: 'serious', help: 'Images must have alternate text', nodes: 2, targets: ['img.logo', '#hero img'] }] }],
    } as RunTestSummary);
    const violation = (await prefill(a11y, 'image-alt')).json<BugPrefill>();
    expect(violation).toMatchObject({ title: 'Images must have alternate text', severity: 'high', source: 'accessibility', url: 'https://example.test/' });
    expect(violation.actual).toContain('#hero img');
  });

  it('refuses a run test of another client', async () => {
    const other = await clientWithSuite(fixture.app, { Frontend: [{ name: 'x', kind: 'browser', options: { outcome: 'fail' } }] });
    const res = await fixture.app.inject({ url: `/operator/clients/${other.clientId}/bugs/prefill?runTestId=${runTestIdOf(fixture.failedRun, 'checkout')}`, headers: operator });
    expect(res.statusCode).toBe(404);
  });

  it('request-retest re-runs the linked test: a failing one reopens the bug, a passing one verifies it', async () => {
    const failing = await createFrom((await prefill(runTestIdOf(fixture.failedRun, 'checkout'))).json<BugPrefill>());
    const passRun = await runAndWait(fixture.app, fixture.c, 'marketing pages');
    const passing = await createFrom({ ...(await prefill(runTestIdOf(passRun, 'marketing pages'))).json<BugPrefill>(), title: 'Pricing page missing' });

    for (const bug of [failing, passing]) {
      expect((await fixture.app.inject({ method: 'POST', url: `/bugs/${bug.id}/transition`, headers: key(fixture.c), payload: { action: 'fixed' } })).statusCode).toBe(200);
      const res = await fixture.app.inject({ method: 'POST', url: `/bugs/${bug.id}/transition`, headers: key(fixture.c), payload: { action: 'request-retest' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Bug>().status).toBe('retest');
      const [row] = await fixture.app.db.select().from(bugs).where(eq(bugs.id, bug.id));
      expect(row!.retestRunId).toBeTruthy();
      await waitForRunEnd(fixture.app, fixture.c.apiKey, row!.retestRunId!);
    }
    expect(await settled(failing.id)).toBe('reopened');
    expect(await settled(passing.id)).toBe('verified');

    const reopened = (await fixture.app.inject({ url: `/bugs/${failing.id}`, headers: key(fixture.c) })).json<Bug>();
    expect(reopened.events.at(-1)).toMatchObject({ from: 'retest', to: 'reopened', by: 'retest' });
    expect(reopened.comments.at(-1)!.body).toMatch(/retest of "checkout" \(run [0-9a-f-]+\) failed/);
    const verified = (await fixture.app.inject({ url: `/bugs/${passing.id}`, headers: key(fixture.c) })).json<Bug>();
    expect(verified.events.at(-1)).toMatchObject({ from: 'retest', to: 'verified', by: 'retest' });
  }, 120_000);

  it("keeps a bug whose test left the suite in the operators' retest queue", async () => {
    const bug = await createFrom((await prefill(runTestIdOf(fixture.failedRun, 'checkout'))).json<BugPrefill>());
    const res = await importSuite(fixture.app, fixture.c.clientId, { 'suite.json': manifest({ Frontend: [{ name: 'home', kind: 'browser', options: { outcome: 'pass' } }] }) });
    expect(res.statusCode, res.body).toBe(201);
    await fixture.app.inject({ method: 'POST', url: `/bugs/${bug.id}/transition`, headers: key(fixture.c), payload: { action: 'fixed' } });
    const retest = await fixture.app.inject({ method: 'POST', url: `/operator/bugs/${bug.id}/transition`, headers: operator, payload: { action: 'request-retest' } });
    expect(retest.statusCode, retest.body).toBe(200);
    expect(retest.json<Bug>()).toMatchObject({ status: 'retest', actions: ['verify', 'reopen'] });
    const queue = await fixture.app.inject({ url: '/operator/bugs?status=retest', headers: operator });
    expect(queue.json().bugs.map((b: { id: string }) => b.id)).toContain(bug.id);
    const [row] = await fixture.app.db.select().from(bugs).where(eq(bugs.id, bug.id));
    expect(row!.retestRunId).toBeNull();
  });

  it('settles a retest whose run ended where nothing listened (a separate worker process) when bugs are read', async () => {
    const homeRun = await runAndWait(fixture.app, fixture.c, 'home');
    const bug = await createFrom({ ...(await prefill(runTestIdOf(homeRun, 'home'))).json<BugPrefill>(), title: 'Home hero broken' });
    await fixture.app.inject({ method: 'POST', url: `/bugs/${bug.id}/transition`, headers: key(fixture.c), payload: { action: 'fixed' } });
    const listeners = fixture.app.engine.deps.runFinished.splice(0);
    try {
      await fixture.app.inject({ method: 'POST', url: `/bugs/${bug.id}/transition`, headers: key(fixture.c), payload: { action: 'request-retest' } });
      const [row] = await fixture.app.db.select().from(bugs).where(eq(bugs.id, bug.id));
      await waitForRunEnd(fixture.app, fixture.c.apiKey, row!.retestRunId!);
      expect((await fixture.app.db.select().from(bugs).where(eq(bugs.id, bug.id)))[0]!.status).toBe('retest');
      const list = await fixture.app.inject({ url: '/bugs', headers: key(fixture.c) });
      expect(list.json().bugs.find((b: { id: string }) => b.id === bug.id).status).toBe('verified');
    } finally {
      fixture.app.engine.deps.runFinished.push(...listeners);
    }
  }, 60_000);
});
