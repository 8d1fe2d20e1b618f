import type { engineRuns, engineRunTests } from '../../../db/schema/engine.ts';
import type { RunEvent, TestEvent } from './events.ts';

type RunTestRow = typeof engineRunTests.$inferSelect;
type RunRow = typeof engineRuns.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function testEventOf(rt: RunTestRow): TestEvent {
  return {
    runId: rt.runId,
    runTestId: rt.id,
    testName: rt.testName,
    group: rt.groupName,
    kind: rt.kind,
    status: rt.status,
    attempt: rt.attempts,
    maxAttempts: rt.maxAttempts,
    progress: rt.progress ?? null,
    totals: rt.totals ?? null,
    error: rt.error,
    startedAt: iso(rt.startedAt),
    finishedAt: iso(rt.finishedAt),
  };
}

export function runEventOf(run: RunRow): RunEvent {
  return {
    runId: run.id,
    scope: run.scope,
    status: run.status,
    totals: run.totals ?? null,
    createdAt: run.createdAt.toISOString(),
    finishedAt: iso(run.finishedAt),
  };
}

export const TERMINAL_STATUSES = ['passed', 'failed', 'error', 'cancelled'] as const;
export function isTerminal(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}
