import type { ClientHealth } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { countText, needsAttention, signingText, sortByAttention, waitingForSuite } from './health-texts.ts';

const calm: ClientHealth = { lastRun: null, failingTests: 0, openBugs: 0, requestsWaiting: 0, hasSuite: true };

describe('client health texts', () => {
  it('counts with the right noun', () => {
    expect(countText(1, 'open bug')).toBe('1 open bug');
    expect(countText(0, 'open bug')).toBe('0 open bugs');
  });

  it('puts clients that need a look first, then by name', () => {
    const clients = [
      { clientName: 'Beta', health: calm },
      { clientName: 'Acme', health: calm },
      { clientName: 'Zed', health: { ...calm, requestsWaiting: 1 } },
    ];
    expect(sortByAttention(clients).map((c) => c.clientName)).toEqual(['Zed', 'Acme', 'Beta']);
    expect(needsAttention({ ...calm, lastRun: { id: 'r', status: 'error', createdAt: '', finishedAt: null } })).toBe(true);
  });

  it('lists clients without a current suite, the longest waiting first, with the time since signing', () => {
    const clients = [
      { clientName: 'Ready', createdAt: '2026-11-01T00:00:00Z', health: calm },
      { clientName: 'New', createdAt: '2026-11-28T09:00:00Z', health: { ...calm, hasSuite: false } },
      { clientName: 'Late', createdAt: '2026-11-25T12:00:00Z', health: { ...calm, hasSuite: false } },
    ];
    expect(waitingForSuite(clients).map((c) => c.clientName)).toEqual(['Late', 'New']);
    expect(needsAttention(clients[1]!.health)).toBe(true);
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(signingText('2026-11-28T09:00:00Z', now)).toEqual({ text: 'signed 3 h ago; first report due in 45 h', overdue: false });
    expect(signingText('2026-11-25T12:00:00Z', now)).toEqual({ text: 'signed 3 days ago; first report overdue by 24 h', overdue: true });
  });
});
