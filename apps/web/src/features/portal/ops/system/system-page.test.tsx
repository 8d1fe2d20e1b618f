import { cleanup, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPortalStore } from '../../store/store.ts';
import { OpsSystemPage } from './system-page.tsx';

const at = '2026-11-23T10:00:00.000Z';

function reply(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  render(
    <Provider store={createPortalStore()}>
      <MemoryRouter>
        <OpsSystemPage />
      </MemoryRouter>
    </Provider>,
  );
}

describe('the console’s System page', () => {
  it('lists every process with its role, its tests and whether it is running, and where artifacts go', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          reply({
            processes: [
              { id: 'api-1:10:aa', role: 'api', host: 'api-1', pid: 10, version: '0.1.0', startedAt: at, lastSeenAt: at, alive: true, workers: 0, running: 0 },
              { id: 'work-1:20:bb', role: 'worker', host: 'work-1', pid: 20, version: '0.1.0', startedAt: at, lastSeenAt: at, alive: true, workers: 2, running: 1 },
              { id: 'work-2:30:cc', role: 'worker', host: 'work-2', pid: 30, version: '0.1.0', startedAt: at, lastSeenAt: at, alive: false, workers: 2, running: 0 },
            ],
            database: 'postgresql',
            artifacts: { kind: 's3', location: 's3://fullstop at minio:9000' },
            queue: { queued: 3, running: 1 },
            aliveWithinSeconds: 45,
          }),
        ),
      ),
    );
    renderPage();
    const table = await screen.findByRole('table', { name: 'Server processes, running ones first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['APIpid 10 · v0.1.0', 'api-1', 'Queues only', expect.any(String), expect.any(String), 'Running'],
      ['Workerpid 20 · v0.1.0', 'work-1', '1 of 2 running', expect.any(String), expect.any(String), 'Running'],
      ['Workerpid 30 · v0.1.0', 'work-2', '0 of 2 running', expect.any(String), expect.any(String), 'Stopped'],
    ]);
    expect(screen.getByText('S3-compatible storage')).toBeTruthy();
    expect(screen.getByText('s3://fullstop at minio:9000')).toBeTruthy();
    expect(screen.getByText('1 API, 1 worker')).toBeTruthy();
    expect(within(rows[0]!).getByText('api-1').className).toBe('portal-mono');
  });

  it('says so when the installation cannot be read', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(reply({ message: 'Operator access required', code: 'FORBIDDEN' }, 403))));
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe('Operator access required');
  });
});
