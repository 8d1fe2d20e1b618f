import type { ManualWorkItem, ManualWorkListResponse } from '@fullstop/contracts';
import { cleanup, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPortalStore } from '../../store/store.ts';
import { ManualQueue } from './manual-queue.tsx';
import { OpsManualQueuePage } from './manual-queue-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NOW = Date.parse('2026-11-28T12:00:00Z');
const hours = (h: number) => new Date(NOW + h * 3_600_000).toISOString();

function work(id: string, over: Partial<ManualWorkItem> = {}): ManualWorkItem {
  return {
    id,
    clientId: 'c1',
    clientName: 'Acme',
    runId: 'r1',
    runTestId: `rt-${id}`,
    testName: `Checkout ${id}`,
    group: 'Shop',
    platform: 'iPhone 15 · Safari · iOS 18',
    status: 'waiting',
    dueAt: hours(30),
    estimateMinutes: 15,
    stepCount: 5,
    claimedBy: null,
    claimedByMe: false,
    claimExpiresAt: null,
    createdAt: hours(-2),
    ...over,
  };
}

function show(data: ManualWorkListResponse) {
  render(
    <Provider store={createPortalStore()}>
      <MemoryRouter>
        <ManualQueue data={data} now={NOW} />
      </MemoryRouter>
    </Provider>,
  );
  const table = screen.getByRole('table', { name: 'Manual work, soonest due first' });
  return within(table).getAllByRole('row').slice(1);
}

describe('the console’s Manual work queue (issue 41)', () => {
  it('lists each case with its client, group, platform, due time, estimate, steps and status, and highlights what is near', () => {
    const rows = show({
      items: [work('a', { dueAt: hours(-1) }), work('b', { dueAt: hours(3) }), work('c', { status: 'claimed', claimedBy: 'Ana Tester' })],
      holding: null,
    });
    expect(rows.map((r) => r.className)).toEqual(['manual-row--overdue', 'manual-row--soon', '']);
    const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent);
    expect(cells(rows[0]!).slice(0, 3)).toEqual(['Acme', 'Checkout aShop', 'iPhone 15 · Safari · iOS 18']);
    expect(cells(rows[0]!)[3]).toMatch(/Overdue$/);
    expect(cells(rows[1]!)[3]).toMatch(/Due soon$/);
    expect(cells(rows[2]!).slice(4, 6)).toEqual(['15 min5 steps', 'Claimed by Ana Tester']);
    // Another tester's work has no Claim button; waiting work has one.
    expect(within(rows[2]!).queryByRole('button')).toBeNull();
    expect(within(rows[0]!).getByRole('button', { name: 'Claim Checkout a' }).hasAttribute('disabled')).toBe(false);
  });

  it('offers Continue on the caller’s own case, and Claim elsewhere only once it is done, saying why', () => {
    const rows = show({ items: [work('a'), work('b', { status: 'claimed', claimedBy: 'Me', claimedByMe: true })], holding: 'b' });
    const claim = within(rows[0]!).getByRole('button', { name: 'Claim Checkout a' });
    expect(claim.hasAttribute('disabled')).toBe(true);
    const reason = document.getElementById(claim.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe('You are working on Checkout b for Acme. Submit it or give it back to the queue before you claim another.');
    expect(within(rows[1]!).getByRole('link', { name: 'Continue Checkout b' }).getAttribute('href')).toBe('/ops/manual/b');
  });

  it('says so when no manual work is waiting', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ items: [], holding: null }), { headers: { 'content-type': 'application/json' } })));
    render(
      <Provider store={createPortalStore()}>
        <MemoryRouter>
          <OpsManualQueuePage />
        </MemoryRouter>
      </Provider>,
    );
    expect(await screen.findByText('No manual work is waiting.')).toBeTruthy();
  });
});
