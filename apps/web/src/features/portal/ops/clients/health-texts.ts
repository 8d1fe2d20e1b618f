import type { ClientHealth } from '@fullstop/contracts';

/** "2 failing tests", "1 open bug": a count with its noun in the right number. */
export function countText(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Whether a client needs a look: something fails, a bug is open or a request waits. */
export function needsAttention(health: ClientHealth): boolean {
  return health.failingTests > 0 || health.openBugs > 0 || health.requestsWaiting > 0 || health.lastRun?.status === 'failed' || health.lastRun?.status === 'error';
}

/** Clients that need a look first, then by name; the server's order otherwise. */
export function sortByAttention<T extends { clientName: string; health: ClientHealth }>(clients: readonly T[]): T[] {
  return [...clients].sort((a, b) => Number(needsAttention(b.health)) - Number(needsAttention(a.health)) || a.clientName.localeCompare(b.clientName));
}
