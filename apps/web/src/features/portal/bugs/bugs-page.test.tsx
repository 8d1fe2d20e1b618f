import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithStore, reply } from '../components/test-api.tsx';
import { BugsPage } from './bugs-page.tsx';

const at = '2026-11-20T10:00:00.000Z';
const summary = { id: 'b3', number: 3, title: 'Pay button hidden on phones', severity: 'critical', status: 'open', source: 'test', testName: 'checkout', createdAt: at, updatedAt: at, clientId: 'c1' };

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.search}</output>;
}

function renderPage(entry: string, bugs: unknown[]) {
  const fetch = vi.fn((_url: string) => Promise.resolve(reply(200, { bugs, counts: { open: bugs.length } })));
  vi.stubGlobal('fetch', fetch);
  renderWithStore(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path="/dashboard/bugs" element={<><BugsPage /><Where /></>} />
      </Routes>
    </MemoryRouter>,
  );
  return fetch;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the Bugs page', () => {
  it('lists the bugs filtered as the address says, and keeps a new filter in the address', async () => {
    const fetch = renderPage('/dashboard/bugs?status=open', [summary]);
    const link = await screen.findByRole('link', { name: /BUG-3/ });
    expect(link.getAttribute('href')).toBe('/dashboard/bugs/b3');
    expect(link.textContent).toContain('Pay button hidden on phones');
    expect(within(screen.getByRole('table')).getByText('Critical')).toBeTruthy();
    expect(fetch.mock.calls[0]![0]).toBe('/bugs?status=open');
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('open');

    await userEvent.selectOptions(screen.getByLabelText('Severity'), 'high');
    expect(screen.getByTestId('where').textContent).toBe('?status=open&severity=high');
    await vi.waitFor(() => expect(fetch.mock.calls.map((c) => c[0])).toContain('/bugs?status=open&severity=high'));
    // Drafts are our QA team's: the client's filter does not offer them.
    expect([...(screen.getByLabelText('Status') as HTMLSelectElement).options].map((o) => o.text)).not.toContain('Draft');
  });

  it('explains what bugs are when there are none yet', async () => {
    renderPage('/dashboard/bugs', []);
    expect(await screen.findByText('No bugs reported yet.')).toBeTruthy();
    expect(screen.getByText(/we retest it for free/)).toBeTruthy();
  });
});
