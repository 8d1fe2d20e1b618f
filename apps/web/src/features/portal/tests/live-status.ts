import { eventsTokenResponse, type RunStatus, testEvent, testEventsSnapshot, type TestEvent } from '@fullstop/contracts';
import { useEffect, useState } from 'react';
import { http } from '@/lib/http-client.ts';

/** The engine's `test` event (GET /test/events): the page shows its status, progress, totals and error. */
export type LiveTest = Pick<TestEvent, 'testName' | 'status' | 'progress' | 'totals' | 'error' | 'finishedAt'>;

export type LiveTests = Record<string, LiveTest>;

/** After a failed connection, wait this long before asking for a new stream token. */
export const RECONNECT_MS = 5000;

/**
 * Live status of the client's tests while the page is open. EventSource cannot send headers, so the stream
 * opens with a short-lived token that the session client fetches (and renews) like any other call.
 */
export function useLiveTests(active: boolean): LiveTests {
  const [tests, setTests] = useState<LiveTests>({});
  useEffect(() => {
    if (!active || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      if (!stopped) retry = setTimeout(connect, RECONNECT_MS);
    };
    async function connect() {
      try {
        const { token } = eventsTokenResponse.parse(await http.request('/test/events/token', { method: 'POST' }));
        if (stopped) return;
        source = new EventSource(`/test/events?token=${encodeURIComponent(token)}`);
        source.addEventListener('snapshot', (event) => {
          setTests(testEventsSnapshot.parse(JSON.parse(event.data)).tests);
        });
        source.addEventListener('test', (event) => {
          const test = testEvent.parse(JSON.parse(event.data));
          setTests((previous) => ({ ...previous, [test.testName]: test }));
        });
        source.onerror = () => {
          // EventSource retries a dropped stream by itself; once it gives up (token expired), start over.
          if (source?.readyState === EventSource.CLOSED) {
            source.close();
            schedule();
          }
        };
      } catch (error) {
        console.error('Live test status unavailable', error);
        schedule();
      }
    }
    void connect();
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(retry);
    };
  }, [active]);
  return tests;
}

const STATUS_WORDS: Record<RunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  passed: 'Passed',
  failed: 'Failed',
  error: 'Error',
  cancelled: 'Cancelled',
};

/** One line a person can read: what the test is doing now, or how its last run ended. */
export function describeLiveTest(test: LiveTest): string {
  const word = STATUS_WORDS[test.status];
  if (test.status === 'running' && test.progress && test.progress.total > 0) {
    const step = `${word} ${test.progress.done}/${test.progress.total}`;
    return test.progress.message ? `${step}: ${test.progress.message}` : step;
  }
  if (test.totals && (test.status === 'passed' || test.status === 'failed')) {
    const { passedTests, failedTests, skippedTests } = test.totals;
    return `${word}: ${passedTests} passed, ${failedTests} failed, ${skippedTests} skipped`;
  }
  if (test.status === 'error' && test.error) return `${word}: ${test.error}`;
  return word;
}
