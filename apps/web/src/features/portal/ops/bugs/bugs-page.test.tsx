import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPortalStore } from '../../store/store.ts';
import { OpsBugsPage } from './bugs-page.tsx';

const at = '2026-11-20T10:00:00.000Z';
const created = {
  id: 'b9', number: 9, title: 'Form has no label', severity: 'medium', status: 'open', source: 'accessibility', testName: 'a11y', createdAt: at, updatedAt: at,
  clientId: 'c1', url: 'https://shop.example.test/', environment: {}, steps: [], expected: '', actual: '', link: null,
  attachments: [], comments: [], events: [], exports: [], actions: [],
};

function reply(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The Bugs page at `entry`; creating a bug leads to its page, here a marker. */
function renderAt(entry: string) {
  render(
    <Provider store={createPortalStore()}>
      <MemoryRouter initialEntries={[entry]}>
        <Routes>
          <Route path="/ops/bugs" element={<OpsBugsPage />} />
          <Route path="/ops/bugs/:bugId" element={<p>Bug page reached</p>} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

describe('the console’s Bugs page', () => {
  it('opens the New bug form prefilled from a run test’s evidence, says what will be attached, and publishes it', async () => {
    const fetch = vi.fn((url: string, init?: RequestInit) => {
      if (url === '/operator/clients') return Promise.resolve(reply({ clients: [{ id: 'c1', clientName: 'Acme Shop', website: 'https://shop.example.test', createdAt: at, users: 2, apiKeyMasked: 'fsk_…abcd' }] }));
      if (url.startsWith('/operator/bugs')) return Promise.resolve(reply({ bugs: [], counts: {} }));
      if (url === '/operator/clients/c1/bugs/prefill?runTestId=rt1&ruleId=label')
        return Promise.resolve(
          reply({
            title: 'Form elements must have labels', severity: 'high', url: 'https://shop.example.test/', environment: { browser: 'Chromium' },
            steps: ['Open the home page'], expected: 'Every field is labelled.', actual: '2 fields have no label.',
            source: 'accessibility', runTestId: 'rt1', ruleId: 'label', evidence: [{ name: 'axe-findings.json', kind: 'finding' }],
          }),
        );
      if (url === '/operator/clients/c1/bugs' && init?.method === 'POST') return Promise.resolve(reply(created, 201));
      return Promise.resolve(reply({ message: 'not found' }, 404));
    });
    vi.stubGlobal('fetch', fetch);
    renderAt('/ops/bugs?new=1&clientId=c1&runTestId=rt1&ruleId=label');

    const form = await screen.findByRole('form', { name: 'New bug from a failed test' });
    await vi.waitFor(() => expect((within(form).getByLabelText('Title') as HTMLInputElement).value).toBe('Form elements must have labels'));
    expect(within(form).getByText(/Prefilled from the evidence \(Accessibility violation, rule label\)/)).toBeTruthy();
    expect(within(form).getByText('axe-findings.json')).toBeTruthy();
    expect((within(form).getByLabelText('Steps to reproduce (one a line)') as HTMLTextAreaElement).value).toBe('Open the home page');

    await userEvent.click(within(form).getByRole('button', { name: 'Publish to the client' }));
    expect(await screen.findByText('Bug page reached')).toBeTruthy();
    const post = fetch.mock.calls.find(([url, init]) => url === '/operator/clients/c1/bugs' && init?.method === 'POST');
    expect(JSON.parse(String(post![1]!.body))).toMatchObject({
      title: 'Form elements must have labels', severity: 'high', source: 'accessibility', runTestId: 'rt1', ruleId: 'label', publish: true,
      environment: { browser: 'Chromium' }, steps: ['Open the home page'],
    });
  });

  it('checks a hand-written bug before sending it', async () => {
    const fetch = vi.fn((url: string, _init?: RequestInit) => Promise.resolve(url === '/operator/clients' ? reply({ clients: [] }) : reply({ bugs: [], counts: {} })));
    vi.stubGlobal('fetch', fetch);
    renderAt('/ops/bugs');
    await userEvent.click(await screen.findByRole('button', { name: 'Write a bug' }));
    const form = screen.getByRole('form', { name: 'Write a bug' });
    await userEvent.click(within(form).getByRole('button', { name: 'Save as draft' }));
    expect(within(form).getByText('Choose the client this bug is for.')).toBeTruthy();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });
});
