import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepQueuePlace, type LiveTest } from './live-status.ts';
import { TestRow } from './test-row.tsx';

afterEach(cleanup);

const queued: LiveTest = {
  runId: 'r1',
  runTestId: 'rt1',
  testName: 'Checkout',
  status: 'queued',
  progress: null,
  totals: null,
  error: null,
  finishedAt: null,
  queue: { position: 2, startsInSeconds: 64 },
};

function row(live: LiveTest | undefined, onCancel?: () => void) {
  render(
    <ul>
      <TestRow testName="Checkout" live={live} latest={undefined} resultsRead busy={false} onRun={vi.fn()} onOpenReport={vi.fn()} onCancel={onCancel} />
    </ul>,
  );
}

describe('a waiting or running test on the Tests page (issue 39)', () => {
  it('says where it stands in the queue and about when it starts', () => {
    row(queued);
    expect(screen.getByTestId('live-status').textContent).toBe('Queued: 2nd in line · starts in about 1 min');
  });

  it('offers Cancel while it waits or runs, and not once it ended or to a viewer', () => {
    const onCancel = vi.fn();
    row(queued, onCancel);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Checkout' }));
    expect(onCancel).toHaveBeenCalledOnce();
    cleanup();

    row({ ...queued, status: 'running', queue: null }, onCancel);
    expect(screen.getByRole('button', { name: 'Cancel Checkout' })).toBeTruthy();
    cleanup();

    row({ ...queued, status: 'cancelled', queue: null, error: 'Cancelled by Ada' }, onCancel);
    expect(screen.queryByRole('button', { name: 'Cancel Checkout' })).toBeNull();
    expect(screen.getByTestId('live-status').textContent).toBe('Cancelled: by Ada');
    cleanup();

    // A viewer's page gives no onCancel.
    row(queued, undefined);
    expect(screen.queryByRole('button', { name: 'Cancel Checkout' })).toBeNull();
  });

  it('keeps the place an earlier event said when a later one of the same waiting test does not say it', () => {
    const bare = { ...queued, queue: undefined };
    expect(keepQueuePlace(queued, bare).queue).toEqual(queued.queue);
    expect(keepQueuePlace(queued, { ...bare, status: 'running' }).queue).toBeUndefined();
    expect(keepQueuePlace({ ...queued, runTestId: 'older' }, bare).queue).toBeUndefined();
  });
});
