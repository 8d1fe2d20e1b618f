import type { OpsSystem } from '@fullstop/contracts';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { WaitingTests } from './waiting-tests.tsx';

afterEach(cleanup);

const system = (waiting: OpsSystem['waiting'], queued = waiting?.length ?? 0): OpsSystem => ({
  processes: [],
  database: 'embedded',
  artifacts: { kind: 'data-dir', location: '/data/storage' },
  queue: { queued, running: 2 },
  waiting,
  aliveWithinSeconds: 45,
});
const waiting = (position: number, startsInSeconds: number) => ({ runTestId: `rt${position}`, runId: 'r1', clientId: 'c1', clientName: 'Acme', testName: `Test ${position}`, kind: 'api', position, startsInSeconds });

describe('the queue on the console’s System page (issue 39)', () => {
  it('lists the waiting tests in the order they start, each with about when', () => {
    render(
      <MemoryRouter>
        <WaitingTests system={system([waiting(1, 0), waiting(2, 95)], 7)} />
      </MemoryRouter>,
    );
    const rows = within(screen.getByRole('table', { name: 'Queue: waiting tests in the order they start' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['1', 'Acme', 'Test 1', 'api', 'Any moment'],
      ['2', 'Acme', 'Test 2', 'api', 'In about 2 min'],
    ]);
    expect(screen.getByText('And 5 more behind them.')).toBeTruthy();
  });

  it('says so when nothing waits, and shows nothing for an older server', () => {
    render(
      <MemoryRouter>
        <WaitingTests system={system([])} />
      </MemoryRouter>,
    );
    expect(screen.getByText('No test is waiting.')).toBeTruthy();
    cleanup();
    const { container } = render(<WaitingTests system={system(undefined)} />);
    expect(container.textContent).toBe('');
  });
});
