import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithStore, reply, serveApi } from '../../components/test-api.tsx';
import { FailingTestEvidence } from './failing-test-evidence.tsx';

const base = '/operator/clients/c1/runs/r1/tests/t1';
const item = (evidenceId: string, kind: 'trace' | 'screenshot', label: string) => ({
  evidenceId, kind, label, caseName: kind === 'trace' ? 'home.spec.ts › opens' : null, caseError: null, attempt: 1, contentType: 'application/zip', sizeBytes: 10,
});

describe('a failing test in the console', () => {
  const fetchMock = serveApi(({ url, method }) => {
    if (url.endsWith(`${base}/evidence`)) return reply(200, { runId: 'r1', runTestId: 't1', testName: 'Home', status: 'failed', evidence: [item('e1', 'trace', 'trace.zip'), item('e2', 'screenshot', 'failed.png')] });
    if (method === 'POST' && url.includes(`${base}/evidence/`)) return reply(200, { url: '/evidence/file/token', expiresIn: 300 });
    if (method === 'POST' && url.includes(`${base}/report/html/link`)) return reply(200, { url: '/test/history/r1/tests/t1/report/html/view?token=x', expiresIn: 300 });
    return reply(404, { message: 'not here' });
  });

  it('opens its report, traces and screenshots from the operator routes, read only when asked for', async () => {
    const user = userEvent.setup();
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    vi.stubGlobal('open', vi.fn(() => tab));
    renderWithStore(<FailingTestEvidence clientId="c1" runId="r1" runTestId="t1" report={vi.fn()} />);
    expect(fetchMock).not.toHaveBeenCalled();
    await user.click(screen.getByText('Report, traces and screenshots'));
    expect(await screen.findByRole('button', { name: 'Open trace: home.spec.ts › opens' })).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'failed.png' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Open report' }));
    await vi.waitFor(() => expect(tab.location.href).toBe('/test/history/r1/tests/t1/report/html/view?token=x'));
  });
});
