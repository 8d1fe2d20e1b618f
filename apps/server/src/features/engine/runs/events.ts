import { EventEmitter } from 'node:events';
import type { RunStatusValue } from '../../../db/schema/engine.ts';

/**
 * What the live status stream carries (GET /test/events, one SSE `data:` line each, JSON):
 *
 *   event: test  { runId, runTestId, testName, group, kind, status, attempt, maxAttempts,
 *                  progress: { done, total, message? } | null, totals | null, error | null,
 *                  startedAt | null, finishedAt | null }
 *   event: run   { runId, scope, status, totals | null, createdAt, finishedAt | null }
 *   event: snapshot  { tests: { [testName]: <test event of its latest run> } }  (sent first on connect)
 *
 * status is queued | running | passed | failed | error | cancelled; a test event with status queued after
 * running means an attempt errored and a retry is queued.
 */
export interface TestEvent {
  runId: string;
  runTestId: string;
  testName: string;
  group: string;
  kind: string;
  status: RunStatusValue;
  attempt: number;
  maxAttempts: number;
  progress: { done: number; total: number; message?: string } | null;
  totals: { totalTests: number; passedTests: number; failedTests: number; skippedTests: number } | null;
  error: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface RunEvent {
  runId: string;
  scope: string;
  status: RunStatusValue;
  totals: TestEvent['totals'];
  createdAt: string;
  finishedAt: string | null;
}

export type EngineEvent = { type: 'test'; data: TestEvent } | { type: 'run'; data: RunEvent };

/** In-process fan-out of engine events per client; the SSE route also polls the database for other processes' work. */
export class EngineBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  emit(clientId: string, event: EngineEvent): void {
    this.emitter.emit(clientId, event);
    this.emitter.emit('*', clientId, event);
  }

  on(clientId: string, listener: (event: EngineEvent) => void): () => void {
    this.emitter.on(clientId, listener);
    return () => this.emitter.off(clientId, listener);
  }
}
