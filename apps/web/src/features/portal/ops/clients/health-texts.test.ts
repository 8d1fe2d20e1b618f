import type { ClientHealth } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { countText, needsAttention, sortByAttention } from './health-texts.ts';

const calm: ClientHealth = { lastRun: null, failingTests: 0, openBugs: 0, requestsWaiting: 0 };

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
});
