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

const proc = (id: string, host: string, pid: number) => ({ id, role: 'worker', host, pid, version: '0.1.0', startedAt: at, lastSeenAt: at, alive: true });
const isolated = { runnerUser: 'fullstop-runner', chromiumSandbox: true, reason: null };
const ON = 'Runners run as fullstop-runner; Chromium sandbox on';

async function processRows() {
  const table = await screen.findByRole('table', { name: 'Server processes, running ones first' });
  return within(table).getAllByRole('row').slice(1);
}

/** Every call of the page answers `body` (the system view). */
function answerWith(body: unknown) {
  vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(reply(body))));
}

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
    answerWith({
      processes: [
        { ...proc('api-1:10:aa', 'api-1', 10), role: 'api', workers: 0, running: 0, isolation: null },
        { ...proc('work-1:20:bb', 'work-1', 20), workers: 2, running: 1, isolation: isolated },
        { ...proc('work-2:30:cc', 'work-2', 30), alive: false, workers: 2, running: 0, isolation: isolated },
      ],
      database: 'postgresql',
      artifacts: { kind: 's3', location: 's3://fullstop at minio:9000' },
      queue: { queued: 3, running: 1 },
      aliveWithinSeconds: 45,
    });
    renderPage();
    const rows = await processRows();
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['APIpid 10 · v0.1.0', 'api-1', 'Queues only', expect.any(String), expect.any(String), 'Running', 'Runs no tests'],
      ['Workerpid 20 · v0.1.0', 'work-1', '1 of 2 running', expect.any(String), expect.any(String), 'Running', ON],
      ['Workerpid 30 · v0.1.0', 'work-2', '0 of 2 running', expect.any(String), expect.any(String), 'Stopped', ON],
    ]);
    expect(screen.getByText('S3-compatible storage')).toBeTruthy();
    expect(screen.getByText('s3://fullstop at minio:9000')).toBeTruthy();
    expect(screen.getByText('1 API, 1 worker')).toBeTruthy();
    expect(within(rows[0]!).getByText('api-1').className).toBe('portal-mono');
  });

  it('says of each process that runs tests whether its runners are isolated, and warns when they are not', async () => {
    const refused = 'the kernel refuses user namespaces here (unshare: Operation not permitted)';
    answerWith({
      processes: [
        { ...proc('w-1:1:aa', 'w-1', 1), workers: 2, running: 0, isolation: isolated },
        { ...proc('w-2:2:bb', 'w-2', 2), workers: 2, running: 0, isolation: { runnerUser: null, chromiumSandbox: true, reason: null } },
        { ...proc('w-3:3:cc', 'w-3', 3), workers: 2, running: 0, isolation: { runnerUser: 'fullstop-runner', chromiumSandbox: false, reason: refused } },
        { ...proc('w-4:4:dd', 'w-4', 4), workers: 2, running: 0, isolation: { runnerUser: null, chromiumSandbox: false, reason: refused } },
        { ...proc('w-5:5:ee', 'w-5', 5), workers: 2, running: 0, isolation: null },
      ],
      database: 'postgresql',
      artifacts: { kind: 'data-dir', location: '/var/lib/fullstop/storage' },
      queue: { queued: 0, running: 0 },
      aliveWithinSeconds: 45,
    });
    renderPage();
    const cells = (await processRows()).map((r) => within(r).getAllByRole('cell').at(-1)!);
    const ownUser = 'Runners run as the server’s own user (ENGINE_RUNNER_USER is not set): a browser exploit could read the server’s secrets';
    expect(cells.map((c) => c.textContent)).toEqual([
      ON,
      `Not isolated. ${ownUser}; Chromium sandbox on`,
      `Not isolated. Runners run as fullstop-runner; Chromium sandbox off: ${refused}`,
      `Not isolated. ${ownUser}; Chromium sandbox off: ${refused}`,
      'Unknown: this process’s version does not report it',
    ]);
    // Only the processes that are not isolated are marked as a warning.
    expect(cells.map((c) => within(c).queryByRole('alert') !== null)).toEqual([false, true, true, true, false]);
  });

  it('says who runners run as, how tests end and their network, for processes that report it (issue 37)', async () => {
    const pool = ['fullstop-runner-1', 'fullstop-runner-2', 'fullstop-runner-3', 'fullstop-runner-4'];
    const whole = { attemptEnd: { how: 'cgroup' }, networkNamespace: { ok: true, reason: null } };
    const noNet = 'the kernel or a tool refuses the network namespace here (unshare: Operation not permitted)';
    const refusal = 'this server runs as root and could not create its runner users (useradd: Permission denied); set ENGINE_RUNNER_USER …';
    answerWith({
      processes: [
        { ...proc('p-1:1:aa', 'p-1', 1), workers: 2, running: 0, isolation: { ...isolated, runnerUser: 'fullstop-runner-1 … fullstop-runner-4', runnerUsers: { mode: 'pool', names: pool, problem: null }, ...whole } },
        { ...proc('p-2:2:bb', 'p-2', 2), workers: 2, running: 0, isolation: { ...isolated, runnerUsers: { mode: 'shared', names: ['fullstop-runner'], problem: null }, ...whole } },
        { ...proc('p-3:3:cc', 'p-3', 3), workers: 2, running: 0, isolation: { ...isolated, runnerUsers: { mode: 'pool', names: pool.slice(0, 2), problem: null }, attemptEnd: { how: 'tags' }, networkNamespace: { ok: false, reason: noNet } } },
        { ...proc('p-4:4:dd', 'p-4', 4), workers: 2, running: 0, isolation: { ...isolated, runnerUser: null, runnerUsers: { mode: 'refused', names: [], problem: refusal }, ...whole } },
        { ...proc('p-5:5:ee', 'p-5', 5), workers: 2, running: 0, isolation: { ...isolated, runnerUser: null, runnerUsers: { mode: 'server', names: [], problem: null }, ...whole, attemptEnd: { how: 'subreaper' } } },
      ],
      database: 'postgresql',
      artifacts: { kind: 'data-dir', location: '/var/lib/fullstop/storage' },
      queue: { queued: 0, running: 0 },
      aliveWithinSeconds: 45,
    });
    renderPage();
    const cells = (await processRows()).map((r) => within(r).getAllByRole('cell').at(-1)!);
    expect(cells.map((c) => c.textContent)).toEqual([
      'Runners run as 4 users, one per running test (fullstop-runner-1 … fullstop-runner-4); Chromium sandbox on; Tests end whole (cgroups); Own network namespace per test',
      'Partly isolated. Runners run as fullstop-runner, shared by the tests running at once: they can read each other’s processes; Chromium sandbox on; Tests end whole (cgroups); Own network namespace per test',
      `Partly isolated. Runners run as 2 users, one per running test (fullstop-runner-1, fullstop-runner-2); Chromium sandbox on; A detached process that drops its test’s tag may outlive the test; No network namespace per test: ${noNet}`,
      `Not isolated. Runs no tests: ${refusal}`,
      'Not isolated. Runners run as the server’s own user (ENGINE_RUNNER_USER is not set): a browser exploit could read the server’s secrets; Chromium sandbox on; Tests end whole unless their runner is killed first (child subreaper); Own network namespace per test',
    ]);
    // Only a process whose runners are not kept from the server is an alert; the partial ones are a polite status.
    expect(cells.map((c) => (within(c).queryByRole('alert') ? 'alert' : within(c).queryByRole('status') ? 'status' : null))).toEqual([null, 'status', 'status', 'alert', 'alert']);
  });

  it('says so when the installation cannot be read', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(reply({ message: 'Operator access required', code: 'FORBIDDEN' }, 403))));
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe('Operator access required');
  });
});
