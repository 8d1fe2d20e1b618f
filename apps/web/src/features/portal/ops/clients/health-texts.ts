import { type ClientHealth, firstReportDue } from '@fullstop/contracts';
import { formatAge, formatSpan } from '@/lib/format-date.ts';

/** "2 failing tests", "1 open bug": a count with its noun in the right number. */
export function countText(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Whether a client needs a look: no suite yet, something fails, a bug is open or a request waits. */
export function needsAttention(health: ClientHealth): boolean {
  return !health.hasSuite || health.failingTests > 0 || health.openBugs > 0 || health.requestsWaiting > 0 || health.lastRun?.status === 'failed' || health.lastRun?.status === 'error';
}

/** Clients that need a look first, then by name; the server's order otherwise. */
export function sortByAttention<T extends { clientName: string; health: ClientHealth }>(clients: readonly T[]): T[] {
  return [...clients].sort((a, b) => Number(needsAttention(b.health)) - Number(needsAttention(a.health)) || a.clientName.localeCompare(b.clientName));
}

/** Clients without a current suite (their tests page is empty), the longest waiting first. */
export function waitingForSuite<T extends { createdAt: string; health: ClientHealth }>(clients: readonly T[]): T[] {
  return clients.filter((c) => !c.health.hasSuite).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** "signed 3 days ago; first report due in 5 h" or "… overdue by 2 days" (the site promises a start within 48 hours). */
export function signingText(createdAt: string, now = Date.now()): { text: string; overdue: boolean } {
  const due = firstReportDue(new Date(createdAt)).getTime();
  const overdue = due <= now;
  const left = overdue ? `first report overdue by ${formatSpan(now - due)}` : `first report due in ${formatSpan(due - now)}`;
  return { text: `signed ${formatAge(createdAt, now)} ago; ${left}`, overdue };
}
