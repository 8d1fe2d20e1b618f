import { paths, patchSummary, type SuiteProposal, type SuiteProposalPatch } from '@fullstop/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { failureMessage } from '@/lib/failure-message.ts';
import { Card } from '../../components/card.tsx';
import { Notice } from '../../components/notice.tsx';
import { queryString } from '../ops-api.ts';
import { SuiteDiffView } from '../suites/suite-diff.tsx';
import { useGetSuiteProposalQuery, useGetSuiteVersionsQuery, useProposeSuiteMutation, useTrySuiteMutation } from '../suites/suites-api.ts';
// SuiteDiffView's styles (its diff colours, status pills, scrolling code); only the Suites page imported them.
import './client-starter-suite.css';

/** How often the card asks how a proposal goes. */
const POLL_MS = 2_000;

const running = (p: SuiteProposal | undefined) => p?.status === 'crawling' || p?.status === 'writing';

const plural = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;

/** A run's id as the console shortens it: its first 8 hex digits. */
const shortRun = (runId: string) => runId.replace(/-/g, '').slice(0, 8);

/** Each page's tests, in the order written: "/careers: Page Careers (careers) loads cleanly, …". */
function byPage<T extends { page: string }>(list: T[]): [string, T[]][] {
  const pages = new Map<string, T[]>();
  for (const item of list) pages.set(item.page, [...(pages.get(item.page) ?? []), item]);
  return [...pages];
}

/** What a re-crawl's patch changes in version `base`, and the way to check it before it is made current. */
function PatchOutcome({ clientId, proposal, patch }: { clientId: string; proposal: SuiteProposal; patch: SuiteProposalPatch }) {
  const version = proposal.version ?? 0;
  const [comparing, setComparing] = useState(false);
  const [trySuite, trying] = useTrySuiteMutation();
  const [tried, setTried] = useState<{ tone: 'success' | 'error'; text: string; run: boolean } | null>(null);
  const versions = useGetSuiteVersionsQuery(clientId, { skip: !comparing });
  const pair = (versions.data?.versions ?? []).filter((v) => v.version === version || v.version === patch.base);
  const review = `${paths.opsSuites}${queryString({ clientId, version: String(version) })}`;

  async function onTry() {
    try {
      const res = await trySuite({ clientId, version }).unwrap();
      setTried({ tone: 'success', text: `Version ${version} is running (run ${shortRun(res.runId)}); the current version is unchanged.`, run: true });
    } catch (error) {
      setTried({ tone: 'error', text: `Version ${version} could not be run: ${failureMessage(error, 'Please try again later.')}`, run: false });
    }
  }

  return (
    <div className="ops-starter-patch">
      <Notice tone="success" as="div">
        <p className="ops-starter-patch__summary">{patchSummary(patch)}</p>
        <p className="ops-starter-patch__meta">
          Version {version}
          {proposal.current ? ' (made current)' : ' (not current)'} is version {patch.base} with these changes. Hand-written tests, and proposed ones edited since, are kept as
          they are.
        </p>
      </Notice>
      {patch.added.length > 0 && (
        <section aria-labelledby="ops-starter-added" className="ops-starter-patch__part">
          <h3 id="ops-starter-added" className="ops-starter-patch__title">
            Adds {plural(patch.added.length, 'test')}
          </h3>
          <ul className="ops-starter-patch__list">
            {byPage(patch.added).map(([page, tests]) => (
              <li key={page}>
                <span className="portal-mono">{page}</span>: {tests.map((t) => t.name).join(', ')}
              </li>
            ))}
          </ul>
        </section>
      )}
      {patch.removed.length > 0 && (
        <section aria-labelledby="ops-starter-removed" className="ops-starter-patch__part">
          <h3 id="ops-starter-removed" className="ops-starter-patch__title">
            Removes {plural(patch.removed.length, 'test')}
          </h3>
          <ul className="ops-starter-patch__list">
            {byPage(patch.removed).map(([page, tests]) => (
              <li key={page}>
                {tests.map((t) => t.name).join(', ')}: <span className="portal-muted">{tests[0]!.evidence}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <Details proposal={proposal} />
      <div className="portal-actions ops-starter-patch__actions">
        <button type="button" className="btn btn--ghost portal-btn-sm" aria-expanded={comparing} onClick={() => setComparing(!comparing)}>
          {comparing ? 'Hide the changes' : `Compare with version ${patch.base}`}
        </button>
        <button type="button" className="btn btn--ghost portal-btn-sm" disabled={trying.isLoading} onClick={() => void onTry()}>
          Try version {version} in a run
        </button>
        <Link to={review}>Review version {version} on the Suites page</Link>
      </div>
      {tried && (
        <Notice tone={tried.tone}>
          {tried.text} {tried.run && <Link to={`${paths.opsRuns}?clientId=${encodeURIComponent(clientId)}`}>See the run</Link>}
        </Notice>
      )}
      {comparing && pair.length === 2 && <SuiteDiffView clientId={clientId} versions={pair} />}
      {!proposal.current && <p className="portal-muted">Once its trial run passes, make it current on the Suites page.</p>}
    </div>
  );
}

/** The proposal's notes and the pages it left out, one paragraph each. */
function Details({ proposal }: { proposal: SuiteProposal }) {
  const lines = [...proposal.notes, ...(proposal.leftOut.length > 0 ? [`Left out: ${proposal.leftOut.map((p) => `${p.path} (${p.reason})`).join(', ')}.`] : [])];
  if (lines.length === 0) return null;
  return (
    <div className="ops-starter-patch__notes portal-muted">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}

/** A proposal that ended: what it wrote (a whole suite, or a patch of the current one), and where to review it. */
function Outcome({ clientId, proposal }: { clientId: string; proposal: SuiteProposal }) {
  if (proposal.status === 'failed') return <Notice tone="error">{proposal.message}</Notice>;
  // A re-crawl with nothing to change wrote no version: nothing to review.
  if (proposal.patch && proposal.version === null) return <Notice tone="info">{proposal.message}</Notice>;
  if (proposal.patch) return <PatchOutcome clientId={clientId} proposal={proposal} patch={proposal.patch} />;
  const review = `${paths.opsSuites}${queryString({ clientId, version: String(proposal.version) })}`;
  const lines = [
    proposal.message,
    ...proposal.notes,
    ...(proposal.leftOut.length > 0 ? [`Left out: ${proposal.leftOut.map((p) => `${p.path} (${p.reason})`).join(', ')}.`] : []),
  ];
  return (
    <Notice tone="success" as="div" className="ops-starter-outcome">
      {lines.map((line, i) => (
        <p key={line} style={{ margin: i === 0 ? 0 : '8px 0 0' }}>
          {line}
        </p>
      ))}
      <p style={{ margin: '8px 0 0' }}>
        <Link to={review}>Review version {proposal.version}</Link> on the Suites page (its files, and what changed from the current version), trial-run it, then make
        it current.
      </p>
    </Notice>
  );
}

/**
 * "Propose a starter suite" ("Propose additions from a new crawl" once the client has a current suite): crawls the client's website (within its target policy, logged in when the suite's
 * secrets are set) and writes a new suite version, proposed, not current. Shows how the crawl goes, then a link to
 * the version in the Suites page's diff view. For a client with a current suite the version is a patch of it
 * (decision 0102): the card says what it adds and removes, compares it with the current version and trial-runs it.
 */
export function ClientStarterSuite({ clientId, hasSuite }: { clientId: string; hasSuite: boolean }) {
  const [propose, started] = useProposeSuiteMutation();
  const [error, setError] = useState<string | null>(null);
  const id = started.data?.id ?? '';
  const [polled, setPolled] = useState<SuiteProposal | undefined>(undefined);
  // Asked again every POLL_MS while it runs; once it has ended, no more.
  const state = useGetSuiteProposalQuery({ clientId, id }, { skip: !id, pollingInterval: running(polled ?? started.data) ? POLL_MS : 0 });
  if (state.data && state.data !== polled) setPolled(state.data);
  const proposal = state.data ?? started.data;
  const busy = started.isLoading || running(proposal);

  async function start() {
    setError(null);
    setPolled(undefined);
    try {
      await propose({ clientId }).unwrap();
    } catch (failure) {
      setError(failureMessage(failure));
    }
  }

  return (
    <Card id="ops-starter-title" title="Starter suite">
      <p className="portal-muted">
        Crawls the website (up to 25 pages, within the target origins, logged in when the suite’s login secrets are set) and proposes a suite: a smoke test and an
        accessibility test per page, Lighthouse and visual tests of the most linked pages, a light load test of the home page, security checks and a passive scan.
        The current suite keeps running until you make the new version current. Once the client has a current suite, a new crawl proposes only what changed: tests
        for new pages, and the removal of proposed tests whose page is gone.
      </p>
      <div className="portal-actions" style={{ marginTop: 12 }}>
        <button type="button" className="btn btn--primary portal-btn-sm" disabled={busy} onClick={() => void start()}>
          {busy ? 'Proposing…' : hasSuite ? 'Propose additions from a new crawl' : 'Propose a starter suite'}
        </button>
      </div>
      {error && (
        <Notice tone="error" style={{ marginTop: 12 }}>
          {error}
        </Notice>
      )}
      {proposal && running(proposal) && (
        <div style={{ marginTop: 12 }}>
          <Notice tone="info">{proposal.message}</Notice>
          {proposal.progress && proposal.progress.total > 0 && (
            <progress max={proposal.progress.total} value={proposal.progress.done} aria-label="Crawl progress" style={{ width: '100%' }} />
          )}
        </div>
      )}
      {proposal && !running(proposal) && (
        <div style={{ marginTop: 12 }}>
          <Outcome clientId={clientId} proposal={proposal} />
        </div>
      )}
    </Card>
  );
}
