import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect, useRef, useState } from 'react';
import { describeError } from '@/lib/http-client.ts';
import { AsyncEmpty, AsyncLoading } from '../components/async-state.tsx';
import { CollapsibleGroup } from '../components/collapsible-group.tsx';
import { FirstDayCard } from '../components/first-day/first-day-card.tsx';
import { ManualWaitingNote } from '../components/manual-waiting.tsx';
import { openHtmlReport } from '../components/open-html-report.ts';
import { useGetLatestResultsQuery, useGetNewestRunQuery, useGetRunDetailQuery } from '../store/client-results-api.ts';
import { useClientProfile } from '../store/use-client-profile.ts';
import { useViewerReason } from '../store/viewer.ts';
import { isGoing, useLiveTests } from './live-status.ts';
import { endedKey, followedRunAll, runAllProgress, runAllProgressText } from './run-progress.ts';
import { TestRow } from './test-row.tsx';
import { TestSchedules } from './test-schedules.tsx';
import { useCancelRunTestMutation, useGetManualCasesQuery, useGetTestsQuery, useRunAllTestsMutation, useRunTestMutation } from './tests-api.ts';
import { useConfirm } from '../components/confirm-dialog.tsx';
import { countTests, runAcceptedText, TESTS_TEXT } from './tests-texts.ts';
import './tests.css';

/**
 * While a run of all goes, the page reads that run again this often: the live stream keeps each test's newest event
 * only, and may miss the run's end. The run as read also gives its manual cases waiting for a tester.
 */
const RUN_POLL_MS = 4000;

export function TestsPage() {
  const profile = useClientProfile();
  const apiKey = profile.data?.apiToken || null;
  const tests = useGetTestsQuery(apiKey ?? skipToken);
  const total = countTests(tests.data ?? {});
  const latest = useGetLatestResultsQuery(apiKey && total > 0 ? apiKey : skipToken);
  // Read once for the page; when it fails the rows are just shown without their steps.
  const manualCases = useGetManualCasesQuery(apiKey && total > 0 ? apiKey : skipToken);
  const [startedRunId, setStartedRunId] = useState<string | null>(null);
  const [starting, setStarting] = useState<ReadonlySet<string>>(new Set());
  const live = useLiveTests(total > 0);
  const [runAll, runAllState] = useRunAllTestsMutation();
  const [runOne] = useRunTestMutation();
  const viewerNote = useViewerReason('run tests');
  const cancelNote = useViewerReason('cancel runs');
  const [cancelOne] = useCancelRunTestMutation();
  const confirm = useConfirm();

  // Read again when a test ends (below): a run of all started elsewhere shows up then.
  const newest = useGetNewestRunQuery(apiKey && total > 0 ? apiKey : skipToken);
  const followed = followedRunAll(startedRunId, newest.data?.runs[0]);
  const goingRun = useGetRunDetailQuery(apiKey && followed ? { runId: followed, apiKey } : skipToken, { pollingInterval: followed ? RUN_POLL_MS : 0 });
  const progress = runAllProgress(followed, newest.data?.runs[0], live, total, goingRun.data);

  // The run this page started has ended: forget it, and read the newest run again (it no longer goes).
  const { refetch: refetchNewest } = newest;
  useEffect(() => {
    if (startedRunId && !progress) {
      setStartedRunId(null);
      void refetchNewest();
    }
  }, [startedRunId, progress, refetchNewest]);

  // A test ended: its latest result (time, duration, report) is worth reading again, and so is the newest run
  // (a run of all started elsewhere may have ended with it).
  const ended = endedKey(live);
  const lastEnded = useRef<string | null>(null);
  const { refetch: refetchLatest } = latest;
  useEffect(() => {
    const previous = lastEnded.current;
    lastEnded.current = ended;
    // The first snapshot only tells what the page already read.
    if (previous !== null && previous !== ended && apiKey) {
      void refetchLatest();
      void refetchNewest();
    }
  }, [ended, apiKey, refetchLatest, refetchNewest]);

  async function onRunAll() {
    if (!apiKey) return;
    try {
      const queued = await runAll(apiKey).unwrap();
      setStartedRunId(queued.runId);
      window.alert(runAcceptedText(queued));
    } catch (error) {
      window.alert(TESTS_TEXT.runAllError + describeError(error));
    }
  }

  async function onRunTest(testName: string) {
    if (!apiKey) return;
    setStarting((names) => new Set(names).add(testName));
    try {
      window.alert(runAcceptedText(await runOne({ testName, apiKey }).unwrap()));
    } catch (error) {
      window.alert(TESTS_TEXT.runOneError(testName) + describeError(error));
    } finally {
      setStarting((names) => {
        const next = new Set(names);
        next.delete(testName);
        return next;
      });
    }
  }

  function onCancel(testName: string) {
    const test = live[testName];
    if (!test || !isGoing(test)) return;
    confirm.ask({
      title: TESTS_TEXT.cancelTitle(testName),
      message: TESTS_TEXT.cancelQuestion(test.status === 'running' ? 'running' : 'queued'),
      confirmText: 'Cancel the test',
      onConfirm: () => {
        cancelOne({ runId: test.runId, runTestId: test.runTestId })
          .unwrap()
          .catch((error: unknown) => window.alert(TESTS_TEXT.cancelError(testName) + describeError(error)));
      },
    });
  }

  async function onOpenReport(testName: string) {
    if (!apiKey) return;
    try {
      await openHtmlReport(testName, apiKey);
    } catch (error) {
      window.alert(TESTS_TEXT.reportError(testName) + describeError(error));
    }
  }

  // Run Test waits while the test's own run goes; a test that is only part of the run of all can still be run on
  // its own (the run of all has its own button and progress).
  const busy = (testName: string) => starting.has(testName) || (isGoing(live[testName]) && live[testName]?.runId !== progress?.runId);
  const latestByName = new Map((latest.data?.tests ?? []).map((result) => [result.testName, result]));
  const manualByName = new Map((manualCases.data?.cases ?? []).map((manualCase) => [manualCase.testName, manualCase]));
  const groups = Object.entries(tests.data ?? {});
  const loading = profile.isLoading || tests.isLoading;
  return (
    <section aria-labelledby="tests-title">
      <div className="portal-page-head">
        <h1 id="tests-title" className="portal-page-title">
          Tests
        </h1>
        {total > 0 && (
          <div className="tests-run-all">
            {progress && (
              <span className="tests-run-all__progress" role="status" data-testid="run-all-progress">
                {runAllProgressText(progress)}
              </span>
            )}
            <button
              type="button"
              className="btn btn--primary"
              onClick={onRunAll}
              disabled={runAllState.isLoading || progress !== null || viewerNote !== null}
              aria-describedby={viewerNote ? 'tests-viewer-note' : undefined}
            >
              Run All Tests
            </button>
          </div>
        )}
      </div>
      {progress && goingRun.data?.runId === progress.runId && <ManualWaitingNote run={goingRun.data} />}
      <TestSchedules />
      {viewerNote && total > 0 && (
        <p id="tests-viewer-note" className="portal-alert portal-alert--info">
          {viewerNote}
        </p>
      )}
      {loading ? (
        <AsyncLoading>Loading tests…</AsyncLoading>
      ) : total === 0 ? (
        <div className="portal-stack">
          <AsyncEmpty>{TESTS_TEXT.empty}</AsyncEmpty>
          <FirstDayCard />
        </div>
      ) : (
        <div className="portal-stack">
          {groups.map(([group, names]) => (
            <CollapsibleGroup key={group} name={group} count={names.length}>
              <ul className="portal-rows">
                {names.map((testName) => (
                  <TestRow
                    key={testName}
                    testName={testName}
                    live={live[testName]}
                    latest={latestByName.get(testName)}
                    resultsRead={latest.isSuccess}
                    busy={busy(testName) || viewerNote !== null}
                    onRun={() => void onRunTest(testName)}
                    onOpenReport={() => void onOpenReport(testName)}
                    onCancel={cancelNote ? undefined : () => onCancel(testName)}
                    manualCase={manualByName.get(testName)}
                  />
                ))}
              </ul>
            </CollapsibleGroup>
          ))}
        </div>
      )}
      {confirm.dialog}
    </section>
  );
}
