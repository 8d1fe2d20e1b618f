import type { EvidenceListResponse, RunHistoryDetail } from '@fullstop/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithStore, reply, serveApi } from '../components/test-api.tsx';
import { RunTestItem } from './run-test-item.tsx';

type RunTest = RunHistoryDetail['tests'][number];

const test: RunTest = {
  runTestId: 'rt1',
  testName: 'Checkout',
  group: 'Frontend',
  kind: 'browser',
  status: 'failed',
  totals: { totalTests: 4, passedTests: 3, failedTests: 1, skippedTests: 0 },
  error: null,
  durationMs: 1200,
  attempts: 1,
  maxAttempts: 1,
  startedAt: null,
  finishedAt: null,
  reportFormats: [],
  evidenceCount: 0,
  flaky: null,
};
const cases: RunTest['cases'] = [
  { name: 'pays', status: 'passed', cell: 'chromium/desktop', error: null },
  { name: 'pays', status: 'failed', cell: 'chromium/phone', error: 'button off screen' },
  { name: 'pays', status: 'passed', cell: 'firefox/desktop', error: null },
  { name: 'pays', status: 'failed', cell: 'firefox/phone', error: 'button off screen' },
];
const evidence: EvidenceListResponse = {
  runId: 'r1',
  runTestId: 'rt1',
  testName: 'Checkout',
  status: 'failed',
  evidence: [
    { evidenceId: 'e1', kind: 'screenshot', label: 'pays', caseName: 'pays [firefox/phone]', caseError: 'button off screen', attempt: 1, contentType: 'image/png', sizeBytes: 10 },
    { evidenceId: 'e2', kind: 'trace', label: 'pays', caseName: 'pays [firefox/phone]', caseError: 'button off screen', attempt: 1, contentType: 'application/zip', sizeBytes: 10 },
  ],
};

describe('a test of a run on the run detail page (History)', () => {
  serveApi(({ url }) => (url.endsWith('/evidence') ? reply(200, evidence) : url.endsWith('/link') ? reply(200, { url: 'about:blank', expiresIn: 60 }) : reply(404, {})));

  it('shows its cases by cell, where it fails, and each cell its own evidence', async () => {
    renderWithStore(<RunTestItem runId="r1" test={{ ...test, cases, evidenceCount: 2 }} />);
    expect(screen.getByText('Fails on phone only')).toBeTruthy();
    const matrix = screen.getByRole('region', { name: 'Engines and devices (4 cells)' });
    const pays = within(matrix).getByRole('row', { name: /pays/ });
    const cells = within(pays).getAllByRole('cell');
    await within(cells[3]!).findByRole('button', { name: 'Open the screenshot of pays on firefox/phone' });
    expect(within(cells[3]!).getByRole('button', { name: 'Open the trace of pays on firefox/phone' })).toBeTruthy();
    // The same case on Chromium's phone failed too, but left no evidence of its own: no link borrowed from Firefox.
    expect(within(cells[1]!).queryByRole('button', { name: /Open the/ })).toBeNull();
  });

  it('reads as before for a test without cells', () => {
    renderWithStore(<RunTestItem runId="r1" test={test} />);
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByText(/fails on/i)).toBeNull();
  });
});
