import { describe, expect, it } from 'vitest';
import type { TestResult, TestStep } from '@playwright/test/reporter';
import { casesFromReport, type PlaywrightJsonReport } from './json-report.ts';
import { MAX_STEPS_PER_TEST, stepsOf } from './steps-reporter.ts';

const step = (title: string, category: string, error?: string) => ({ title, category, duration: 12, ...(error ? { error: { message: error } } : {}), steps: [] }) as unknown as TestStep;
const resultWith = (steps: TestStep[]) => ({ steps }) as unknown as TestResult;

describe('steps of a test', () => {
  it('keeps what the test body did and leaves hooks and fixtures out', () => {
    const steps = stepsOf(resultWith([step('Before Hooks', 'hook'), step('Navigate to "/"', 'pw:api'), step('checkout', 'test.step'), step('Expect "toBeVisible"', 'expect', '\u001b[31mexpect(locator).toBeVisible() failed\u001b[39m'), step('After Hooks', 'hook'), step('page', 'fixture')]));
    expect(steps).toEqual([
      { title: 'Navigate to "/"', durationMs: 12 },
      { title: 'checkout', durationMs: 12 },
      { title: 'Expect "toBeVisible"', durationMs: 12, error: 'expect(locator).toBeVisible() failed' },
    ]);
  });

  it(`keeps the first ${MAX_STEPS_PER_TEST} steps of a long test, and its failing step`, () => {
    const many = Array.from({ length: 50 }, (_, i) => step(`Click ${i}`, 'pw:api', i === 42 ? 'timed out' : undefined));
    const steps = stepsOf(resultWith(many));
    expect(steps).toHaveLength(MAX_STEPS_PER_TEST);
    expect(steps[0]?.title).toBe('Click 0');
    expect(steps.at(-1)).toEqual({ title: 'Click 42', durationMs: 12, error: 'timed out' });
  });
});

describe('cases of a Playwright JSON report', () => {
  it("takes the last attempt's screenshot and trace inside the run folder, and labels every attempt's", () => {
    const attachments = (n: number) => [
      { name: 'screenshot', contentType: 'image/png', path: `/runs/r1/browser/test-results/a-retry${n}/test-failed-1.png` },
      { name: 'trace', contentType: 'application/zip', path: `/runs/r1/browser/test-results/a-retry${n}/trace.zip` },
      { name: 'video', contentType: 'video/webm', path: `/runs/r1/browser/test-results/a-retry${n}/video.webm` },
    ];
    const report: PlaywrightJsonReport = {
      suites: [
        {
          title: 'a.spec.ts',
          specs: [
            {
              id: 'id-1',
              title: 'buys',
              tests: [
                {
                  status: 'unexpected',
                  results: [
                    { duration: 100, retry: 0, error: { message: 'first' }, attachments: attachments(0) },
                    { duration: 50, retry: 1, error: { message: 'second' }, attachments: [...attachments(1), { name: 'screenshot', contentType: 'image/png', path: '/elsewhere/x.png' }] },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const { cases, evidence } = casesFromReport(report, { runDir: '/runs/r1', steps: { 'id-1': [[{ title: 'one', durationMs: 1 }], [{ title: 'two', durationMs: 2 }]] } });
    expect(cases).toEqual([
      {
        name: 'a.spec.ts › buys',
        status: 'failed',
        durationMs: 150,
        error: 'second',
        steps: [{ title: 'two', durationMs: 2 }],
        screenshot: 'browser/test-results/a-retry1/test-failed-1.png',
        trace: 'browser/test-results/a-retry1/trace.zip',
      },
    ]);
    expect(evidence.map((e) => e.label)).toEqual([
      'Screenshot: a.spec.ts › buys (first try)',
      'Trace: a.spec.ts › buys (first try)',
      'Screenshot: a.spec.ts › buys (retry 1)',
      'Trace: a.spec.ts › buys (retry 1)',
    ]);
  });
});
