import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithStore, reply, serveApi } from '../components/test-api.tsx';
import { AlertConfirmPage } from './alert-confirm-page.tsx';

const calls: { url: string; body: string }[] = [];
serveApi(async ({ url, body }) => {
  calls.push({ url, body: await body() });
  const { token } = JSON.parse(calls.at(-1)!.body) as { token: string };
  return token === 'fsc_good' ? reply(200, { message: 'Confirmed: Fullstop QA alerts will be sent to qa@acme.test' }) : reply(410, { message: 'This confirmation link is not valid any more', code: 'CONFIRMATION_INVALID' });
});

function Where() {
  return <p data-testid="where">{useLocation().search}</p>;
}

function open(entry: string) {
  renderWithStore(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path="/confirm-alerts" element={<><AlertConfirmPage /><Where /></>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('the alert confirmation page', () => {
  it('confirms only when the button is pressed, drops the token from the address, and says what happened', async () => {
    calls.length = 0;
    open('/confirm-alerts?token=fsc_good');
    const button = await screen.findByRole('button', { name: 'Confirm this address' });
    expect(calls).toEqual([]);
    expect(screen.getByTestId('where').textContent).toBe('');
    await userEvent.setup().click(button);
    expect(await screen.findByText('Confirmed: Fullstop QA alerts will be sent to qa@acme.test')).toBeTruthy();
    expect(calls.map((c) => [c.url.replace(/^.*(\/alerts)/, '$1'), JSON.parse(c.body)])).toEqual([['/alerts/confirm', { token: 'fsc_good' }]]);
  });

  it('shows why a used or expired link no longer works', async () => {
    open('/confirm-alerts?token=fsc_used');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Confirm this address' }));
    expect(await screen.findByText('This confirmation link is not valid any more')).toBeTruthy();
  });

  it('says so when the link has no token', async () => {
    open('/confirm-alerts');
    expect(await screen.findByText(/This confirmation link is not complete/)).toBeTruthy();
  });
});
