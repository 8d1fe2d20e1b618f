import type { RunQueuedResponse } from '@fullstop/contracts';

export const TESTS_TEXT = {
  empty: 'No tests available.',
  runAllError: 'Error running all tests: ',
  runOneError: (testName: string) => `Error running ${testName} test: `,
  reportError: (testName: string) => `Could not open the report of ${testName}: `,
  cancelError: (testName: string) => `Could not cancel ${testName}: `,
  cancelTitle: (testName: string) => `Cancel ${testName}?`,
  cancelQuestion: (status: 'queued' | 'running') =>
    status === 'running'
      ? 'It is stopped now: its browsers and processes end, what it recorded so far is kept, and it counts as cancelled.'
      : 'It will not start, and counts as cancelled.',
} as const;

/** The alert after a run was accepted: the server's message and the run's id, to find it in Reports later. */
export function runAcceptedText(result: RunQueuedResponse): string {
  return result.runId && !result.message.includes(result.runId) ? `${result.message} (run ${result.runId})` : result.message;
}

export function countTests(groups: Record<string, string[]>): number {
  return Object.values(groups).reduce((sum, tests) => sum + tests.length, 0);
}
