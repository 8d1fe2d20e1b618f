import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { describeError } from '@/lib/http-client.ts';
import { AsyncLoading } from '../components/async-state.tsx';
import { FirstDayCard } from '../components/first-day/first-day-card.tsx';
import { Notice } from '../components/notice.tsx';
import { openHtmlReport } from '../components/open-html-report.ts';
import { PortalPage } from '../components/portal-page.tsx';
import { useGetInsightsQuery, useGetLatestResultsQuery, useGetNewestRunQuery, useGetRunDetailQuery } from '../store/client-results-api.ts';
import { useClientProfile } from '../store/use-client-profile.ts';
import { AlertsCard } from './alerts-card.tsx';
import { DASHBOARD_PAGES } from './dashboard-pages.ts';
import { FailingTestsCard } from './failing-tests-card.tsx';
import { alertsByRisk, failingTests } from './home-summary.ts';
import { LastRunCard } from './last-run-card.tsx';
import { NextScheduleNote } from './next-schedule-card.tsx';
import { OpenBugsCard } from './open-bugs-card.tsx';
import './dashboard-home.css';

/** While the newest run goes, the home reads it again this often. */
const RUNNING_POLL_MS = 5000;

/** The dashboard home, under the layout's welcome line: the last run, alerts, open bugs, failing tests, then quick links. */
export function DashboardHome() {
  const profile = useClientProfile();
  const apiKey = profile.data?.apiToken || null;
  const newest = useGetNewestRunQuery(apiKey ?? skipToken);
  const run = newest.data?.runs[0];
  const going = run?.status === 'queued' || run?.status === 'running';
  const detail = useGetRunDetailQuery(apiKey && run ? { runId: run.runId, apiKey } : skipToken, { pollingInterval: going ? RUNNING_POLL_MS : 0 });
  const latest = useGetLatestResultsQuery(apiKey && run ? apiKey : skipToken);
  const insights = useGetInsightsQuery(apiKey && run ? apiKey : skipToken);
  // The run ended while the page was open: read the newest run (and what follows from it) again.
  const ended = Boolean(detail.data && run && going && detail.data.status !== 'queued' && detail.data.status !== 'running');
  const shownRun = ended && detail.data && run ? { ...run, status: detail.data.status, finishedAt: detail.data.finishedAt } : run;
  const { refetch: refetchNewest } = newest;
  const { refetch: refetchLatest } = latest;
  const { refetch: refetchInsights } = insights;
  useEffect(() => {
    if (!ended) return;
    void refetchNewest();
    void refetchLatest();
    void refetchInsights();
  }, [ended, refetchNewest, refetchLatest, refetchInsights]);

  async function onOpenReport(testName: string) {
    if (!apiKey) return;
    try {
      await openHtmlReport(testName, apiKey);
    } catch (error) {
      window.alert(`Could not open the report of ${testName}: ${describeError(error)}`);
    }
  }

  let body: ReactNode = null;
  if (newest.isError) {
    body = (
      <Notice tone="error">Could not load your runs: {describeError(newest.error)}</Notice>
    );
  } else if (profile.isLoading || newest.isLoading) {
    body = (
      <AsyncLoading>Loading your latest run…</AsyncLoading>
    );
  } else if (apiKey && !shownRun) {
    // Before the first suite is current there is nothing to run: say what happens next instead.
    body = (
      <FirstDayCard
        otherwise={
          <p className="portal-empty home-empty">
            No runs yet. Run your tests from the <Link to={paths.tests}>Tests page</Link>.
          </p>
        }
      />
    );
  } else if (shownRun) {
    body = (
      <div className="home-grid">
        <LastRunCard run={shownRun} detail={detail.data} />
        <div className="home-stack">
          {insights.data && <AlertsCard alerts={alertsByRisk(insights.data.zap)} />}
          <OpenBugsCard />
        </div>
        {latest.data && <FailingTestsCard failing={failingTests(latest.data.tests)} onOpenReport={(name) => void onOpenReport(name)} />}
      </div>
    );
  }

  return (
    <PortalPage id="dashboard-home-title" title="Overview">
      <NextScheduleNote />
      {body}
      {/* Bugs are read with the session, not the API key: the count shows even before the first run. */}
      {!shownRun && (
        <div className="home-grid home-bugs-alone">
          <OpenBugsCard />
        </div>
      )}
      <nav className="home-links" aria-label="Quick links">
        <ul>
          {DASHBOARD_PAGES.map((page) => (
            <li key={page.to}>
              <Link to={page.to} className="home-links__link" title={page.text}>
                {page.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </PortalPage>
  );
}
