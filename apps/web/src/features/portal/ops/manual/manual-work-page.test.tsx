import type { ManualWorkDetailResponse } from '@fullstop/contracts';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPortalStore } from '../../store/store.ts';
import { OpsManualWorkPage } from './manual-work-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const step = (n: number, verdict: 'passed' | 'failed' | 'blocked' | null = null) => ({
  action: `Action ${n}`,
  expected: `Expected ${n}`,
  wcag: n === 1 ? ['2.1.1', '2.4.3'] : [],
  verdict,
  note: null,
  evidence: [],
});

function detail(over: Partial<ManualWorkDetailResponse> = {}): ManualWorkDetailResponse {
  return {
    id: 'w1',
    clientId: 'c1',
    clientName: 'Acme',
    runId: 'r1',
    runTestId: 'rt1',
    testName: 'Checkout with a coupon',
    group: 'Shop',
    platform: 'iPhone 15 · Safari',
    status: 'claimed',
    dueAt: '2026-11-30T09:00:00.000Z',
    estimateMinutes: 20,
    stepCount: 3,
    claimedBy: 'Me',
    claimedByMe: true,
    claimExpiresAt: '2026-11-28T13:00:00.000Z',
    createdAt: '2026-11-28T08:00:00.000Z',
    goal: 'A coupon lowers the total.',
    preconditions: ['A product is in the basket'],
    testData: { coupon: 'SAVE10' },
    references: [],
    steps: [step(1, 'passed'), step(2, 'failed'), step(3)],
    asked: { device: 'iPhone 15', browser: 'Safari' },
    used: null,
    ...over,
  };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The server: the piece of work as given; a PUT of a step answers it with that step changed (or `putStatus`). */
function server(work: ManualWorkDetailResponse, putStatus = 200) {
  const puts: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as { verdict: null; note: null };
        puts.push({ url, body });
        if (putStatus !== 200) return json({ message: 'You no longer hold this case.' }, putStatus);
        const n = Number(url.split('/').at(-1));
        return json({ ...work, steps: work.steps.map((s, i) => (i === n - 1 ? { ...s, ...body } : s)) });
      }
      if (url.endsWith('/operator/manual')) return json({ items: [], holding: null });
      return json(work);
    }),
  );
  return puts;
}

function open() {
  render(
    <Provider store={createPortalStore()}>
      <MemoryRouter initialEntries={['/ops/manual/w1']}>
        <Routes>
          <Route path="/ops/manual/:manualId" element={<OpsManualWorkPage />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

describe('the tester’s page of a manual case (issue 41)', () => {
  it('shows the case, its test data to copy, and each step; the steps after the first failed one are not reached', async () => {
    server(detail());
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Checkout with a coupon' })).toBeTruthy();
    expect(screen.getByText('A coupon lowers the total.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy coupon' })).toBeTruthy();
    const step3 = screen.getByRole('listitem', { name: /^Step 3/ });
    expect(within(step3).getByText('Not reached')).toBeTruthy();
    expect(within(screen.getByRole('listitem', { name: /^Step 2/ })).queryByText('Not reached')).toBeNull();
    expect(within(screen.getByRole('listitem', { name: /^Step 1/ })).getByText('2.1.1, 2.4.3', { exact: false }).textContent).toBe('WCAG 2.2 success criteria: 2.1.1, 2.4.3');
    const step2 = within(screen.getByRole('group', { name: 'Verdict on step 2' }));
    expect(step2.getByRole('button', { name: 'Fail' }).getAttribute('aria-pressed')).toBe('true');
    expect(step2.getByRole('button', { name: 'Pass' }).getAttribute('aria-pressed')).toBe('false');
    // What you used starts from the platform asked.
    expect((screen.getByLabelText('Device') as HTMLInputElement).value).toBe('iPhone 15');
    expect((screen.getByLabelText('Browser (optional)') as HTMLInputElement).value).toBe('Safari');
  });

  it('saves a verdict at once and a note when it loses focus, and says so', async () => {
    const puts = server(detail());
    open();
    const user = userEvent.setup();
    const group = within(await screen.findByRole('group', { name: 'Verdict on step 3' }));
    await user.click(group.getByRole('button', { name: 'Blocked' }));
    expect(group.getByRole('button', { name: 'Blocked' }).getAttribute('aria-pressed')).toBe('true');
    const step3 = within(screen.getByRole('listitem', { name: /^Step 3/ }));
    expect(await step3.findByText('Saved')).toBeTruthy();
    await user.type(step3.getByLabelText('Note on step 3'), 'The coupon field is missing');
    await user.tab();
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts.map((p) => [p.url, p.body])).toEqual([
      ['/operator/manual/w1/steps/3', { verdict: 'blocked', note: null }],
      ['/operator/manual/w1/steps/3', { verdict: 'blocked', note: 'The coupon field is missing' }],
    ]);
  });

  it('shows why a step was not saved, and tries again', async () => {
    const puts = server(detail(), 409);
    open();
    const user = userEvent.setup();
    await user.click(within(await screen.findByRole('group', { name: 'Verdict on step 3' })).getByRole('button', { name: 'Pass' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Not saved: You no longer hold this case.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(puts).toHaveLength(2));
  });

  it('asks an operator who does not hold the case to claim it first, and shows its steps read-only', async () => {
    server(detail({ status: 'waiting', claimedBy: null, claimedByMe: false, claimExpiresAt: null }));
    open();
    expect(await screen.findByRole('button', { name: 'Claim' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Verdict on step 1' })).toBeNull();
    expect(screen.getAllByText('Verdict: passed')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
  });
});
