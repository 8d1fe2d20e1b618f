import type { RunHistoryDetail, TestLatestResponse } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import type { TestClient } from '../helpers/app.ts';
import { clientWithSuite, key, runAndWait, useEngineApp } from './helpers.ts';

// Issue 26: a browser test on several engines and devices. Its cases reach the run detail with their cell, and the
// frontend insight counts each cell as a case of its own.
const cells = ['chromium/desktop', 'chromium/phone', 'firefox/desktop', 'firefox/phone'];

describe('a browser test in cells: the run detail and the frontend insight', () => {
  const fixture = useEngineApp(1, async (app) => {
    const a: TestClient = await clientWithSuite(app, {
      Frontend: [
        { name: 'matrix', kind: 'browser', options: { cells, failIn: ['firefox/desktop', 'firefox/phone'] } },
        { name: 'classic', kind: 'browser', options: { outcome: 'pass' } },
      ],
    });
    const run = await runAndWait(app, a);
    return { a, runId: run.runId as string };
  }, 60_000);

  it('gives each case of a test in cells its cell and its name without the cell; a classic test has no cases, as before', async () => {
    const res = await fixture.app.inject({ url: `/test/history/${fixture.runId}`, headers: key(fixture.a) });
    expect(res.statusCode, res.body).toBe(200);
    const tests = res.json<RunHistoryDetail>().tests;
    const matrix = tests.find((t) => t.testName === 'matrix')!;
    expect(matrix.cases).toHaveLength(8);
    expect(matrix.cases).toContainEqual({ name: 'second case', status: 'failed', cell: 'firefox/phone', error: 'expected <b>true</b>' });
    expect(matrix.cases).toContainEqual({ name: 'second case', status: 'passed', cell: 'chromium/phone', error: null });
    expect(new Set(matrix.cases!.map((c) => c.name))).toEqual(new Set(['first case', 'second case']));
    expect(tests.find((t) => t.testName === 'classic')).not.toHaveProperty('cases');
  });

  it('gives the Tests page (GET /test/latest) the same cases, and none for a classic test', async () => {
    const res = await fixture.app.inject({ url: '/test/latest', headers: key(fixture.a) });
    expect(res.statusCode, res.body).toBe(200);
    const tests = res.json<TestLatestResponse>().tests;
    const matrix = tests.find((t) => t.testName === 'matrix')!;
    expect(matrix.cases).toHaveLength(8);
    expect(matrix.cases).toContainEqual({ name: 'first case', status: 'passed', cell: 'firefox/desktop', error: null });
    expect(tests.find((t) => t.testName === 'classic')).not.toHaveProperty('cases');
  });

  it('counts each cell as a case in the frontend insight', async () => {
    const res = await fixture.app.inject({ url: '/insight/fetch/all', headers: key(fixture.a) });
    expect(res.statusCode, res.body).toBe(200);
    // 4 cells × 2 cases of "matrix" (2 fail, on Firefox) + the 2 cases of "classic".
    expect(res.json()['frontend-report']).toMatchObject({ totalTests: 10, passedTests: 8, failedTests: 2 });
  });
});
