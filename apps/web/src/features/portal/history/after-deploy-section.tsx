import type { AfterDeployReport } from '@fullstop/contracts';
import { useState } from 'react';
import { useGetAfterDeployQuery } from './heals-api.ts';
import './after-deploy-section.css';

/** While the run or its re-crawl goes on, the section asks again this often. */
const POLL_MS = 5_000;
const goingOn = (report: AfterDeployReport) =>
  report.runStatus === 'queued' || report.runStatus === 'running' || ['waiting', 'crawling', 'writing'].includes(report.recrawl.status);

/** Test names by page, pages in the order they come. */
function byPage(tests: { name: string; page: string }[]): [string, string[]][] {
  const pages = new Map<string, string[]>();
  for (const t of tests) pages.set(t.page, [...(pages.get(t.page) ?? []), t.name]);
  return [...pages];
}

/**
 * On a deploy's run (afterDeploy=true, docs/healing.md): which failures healed, which need a person, and what the
 * re-crawl that followed proposes. Our QA team reviews the proposal before it runs.
 */
export function AfterDeploySection({ runId }: { runId: string }) {
  const [live, setLive] = useState(true);
  // Asked again while the run or the re-crawl is still going on.
  const report = useGetAfterDeployQuery(runId, { refetchOnMountOrArgChange: true, pollingInterval: live ? POLL_MS : 0, skipPollingIfUnfocused: true }).data;
  if (report && goingOn(report) !== live) setLive(!live);
  if (!report) return null;
  const { recrawl } = report;
  return (
    <section className="history-section portal-card" aria-labelledby="after-deploy-title">
      <h2 id="after-deploy-title" className="history-subtitle">
        After the deploy
      </h2>
      {report.words.map((line) => (
        <p key={line}>{line}</p>
      ))}
      {report.needPerson.length > 0 && (
        <ul className="history-tests" aria-label="Tests that need a person">
          {report.needPerson.map((t) => (
            <li key={t.testName} className="history-test">
              <p className="history-test__name">{t.testName}</p>
              {t.error && <p className="portal-muted">{t.error.split('\n')[0]}</p>}
            </li>
          ))}
        </ul>
      )}
      {(recrawl.added.length > 0 || recrawl.removed.length > 0) && (
        <ul className="after-deploy__pages" aria-label="What the re-crawl proposes">
          {byPage(recrawl.added).map(([page, names]) => (
            <li key={`+${page}`}>
              <strong>{page}</strong>: adds {names.length === 1 ? names[0] : `${names.length} tests`}
            </li>
          ))}
          {byPage(recrawl.removed).map(([page, names]) => (
            <li key={`-${page}`}>
              <strong>{page}</strong>: removes {names.length === 1 ? names[0] : `${names.length} tests`} ({recrawl.removed.find((t) => t.page === page)!.evidence})
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
