import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPortalStore } from '../store/store.ts';
import { CancelRunButton } from './cancel-run-button.tsx';

function reply(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderButton(onCancelled = vi.fn()) {
  render(
    <Provider store={createPortalStore()}>
      <CancelRunButton runId="run-1" running onCancelled={onCancelled} />
    </Provider>,
  );
  return onCancelled;
}

describe('Cancel run on the run page (issue 39)', () => {
  it('asks first, then cancels the run and says what was stopped', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => reply({ message: 'Run cancelled: 2 queued tests will not start, 1 running test is being stopped', runId: 'run-1', cancelled: 3 }));
    vi.stubGlobal('fetch', fetch);
    const onCancelled = renderButton();

    await userEvent.click(screen.getByRole('button', { name: 'Cancel run' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel this run?' });
    expect(dialog.textContent).toMatch(/running tests are stopped now/);
    // Its own Cancel only closes the question.
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Cancel run' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the run' }));
    expect((await screen.findByRole('status')).textContent).toBe('Run cancelled: 2 queued tests will not start, 1 running test is being stopped');
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toMatch(/\/test\/runs\/run-1\/cancel$/);
    expect(init?.method).toBe('POST');
    expect(onCancelled).toHaveBeenCalled();
  });

  it('says the server’s refusal, such as a run that already ended', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => reply({ code: 'CONFLICT', message: 'This run already ended (passed): there is nothing to cancel' }, 409)));
    renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel run' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the run' }));
    expect((await screen.findByRole('status')).textContent).toBe('This run already ended (passed): there is nothing to cancel');
  });
});
