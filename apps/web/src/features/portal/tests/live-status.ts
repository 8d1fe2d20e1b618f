import { eventsTokenResponse, testEvent, testEventsSnapshot, type TestEvent } from '@fullstop/contracts';
import { useEffect, useState } from 'react';
import { http } from '@/lib/http-client.ts';
import { queuePlaceText } from '../components/queue-place-text.ts';
import { testStatusWords } from '../components/run-status-badge.tsx';

/**
 * The engine's `test` event (GET /test/events): the page shows its status, progress, totals and error; the run
 * and run test ids tell which run it belongs to (a run of all counts its tests by them).
 */
export type LiveTest = Pick<TestEvent, 'runId' | 'runTestId' | 'testName' | 'status' | 'progress' | 'totals' | 'error' | 'finishedAt' | 'queue'>;

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
          setTests((previous) => ({ ...previous, [test.testName]: keepQueuePlace(previous[test.testName], test) }));
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

/**
 * An event of a waiting test that does not say its place (some events carry only the status) keeps the place the
 * last one said; the queue's own events replace it as it moves.
 */
export function keepQueuePlace(previous: LiveTest | undefined, next: LiveTest): LiveTest {
  if (next.queue !== undefined || next.status !== 'queued' || previous?.runTestId !== next.runTestId) return next;
  return { ...next, queue: previous.queue ?? null };
}

/** Queued and running tests are still going; the others have ended. */
export function isGoing(test: Pick<LiveTest, 'status'> | undefined): boolean {
  return test?.status === 'queued' || test?.status === 'running';
}

/** What follows the status word: progress while it runs, totals once it ended, or why it could not run. */
export function liveTestDetails(test: Omit<LiveTest, 'runId' | 'runTestId'>): string | null {
  if (test.status === 'queued' && test.queue) return queuePlaceText(test.queue);
  // "by Ada Lovelace", "with the API key": who stopped it, after the word Cancelled.
  if (test.status === 'cancelled' && test.error) return test.error.replace(/^Cancelled (?=by |with )/, '');
  if (test.status === 'running' && test.progress && test.progress.total > 0) {
    const step = `${test.progress.done} of ${test.progress.total}`;
    return test.progress.message ? `${step} · ${test.progress.message}` : step;
  }
  if (test.totals && (test.status === 'passed' || test.status === 'failed')) {
    const { passedTests, failedTests, skippedTests } = test.totals;
    return `${passedTests} passed, ${failedTests} failed, ${skippedTests} skipped`;
  }
  if (test.status === 'error' && test.error) return test.error;
  return null;
}

/** One line a person can read: what the test is doing now, or how its last run ended. */
export function describeLiveTest(test: Omit<LiveTest, 'runId' | 'runTestId'>): string {
  const details = liveTestDetails(test);
  const word = testStatusWords(test.status, test.error);
  return details ? `${word}: ${details}` : word;
}
