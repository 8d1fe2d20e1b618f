import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPortalStore } from '../../store/store.ts';
import { ClientManualSettings, manualDueWords } from './client-manual-settings.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

describe('the console’s Manual testing card (issue 41)', () => {
  it('says the rule in words', () => {
    expect(manualDueWords({ dueHours: 48, workingDaysOnly: true })).toBe('Manual cases are due 48 hours after a run, counting working days only.');
    expect(manualDueWords({ dueHours: 1, workingDaysOnly: false })).toBe('Manual cases are due 1 hour after a run.');
  });

  it('reads the client’s settings into one sentence, checks the hours, and saves them', async () => {
    const puts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        expect(String(input)).toBe('/operator/clients/c1/manual-settings');
        if (init?.method === 'PUT') {
          const body: unknown = JSON.parse(String(init.body));
          puts.push(body);
          return json(body);
        }
        return json({ dueHours: 48, workingDaysOnly: true });
      }),
    );
    render(
      <Provider store={createPortalStore()}>
        <ClientManualSettings clientId="c1" />
      </Provider>,
    );
    const hours = await screen.findByRole('textbox', { name: 'Manual cases are due hours after a run' });
    const days = screen.getByRole('checkbox', { name: 'Counting working days only (Monday to Friday, UTC)' }) as HTMLInputElement;
    expect(days.checked).toBe(true);
    const user = userEvent.setup();
    await user.clear(hours);
    await user.type(hours, '400');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter a whole number of hours from 1 to 336 (two weeks).');
    expect(puts).toHaveLength(0);

    await user.clear(hours);
    await user.type(hours, '24');
    await user.click(days);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('status')).textContent).toBe('Saved. Manual cases are due 24 hours after a run.');
    expect(puts).toEqual([{ dueHours: 24, workingDaysOnly: false }]);
  });
});
