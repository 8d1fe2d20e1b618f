import { paths, type SuiteProposal } from '@fullstop/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { failureMessage } from '@/lib/failure-message.ts';
import { Card } from '../../components/card.tsx';
import { Notice } from '../../components/notice.tsx';
import { queryString } from '../ops-api.ts';
import { useGetSuiteProposalQuery, useProposeSuiteMutation } from '../suites/suites-api.ts';

/** How often the card asks how a proposal goes. */
const POLL_MS = 2_000;

const running = (p: SuiteProposal | undefined) => p?.status === 'crawling' || p?.status === 'writing';

/** A proposal that ended: what it wrote, and where to review it. */
function Outcome({ clientId, proposal }: { clientId: string; proposal: SuiteProposal }) {
  if (proposal.status === 'failed') return <Notice tone="error">{proposal.message}</Notice>;
  const review = `${paths.opsSuites}${queryString({ clientId, version: String(proposal.version) })}`;
  const lines = [
    proposal.message,
    ...proposal.notes,
    ...(proposal.leftOut.length > 0 ? [`Left out: ${proposal.leftOut.map((p) => `${p.path} (${p.reason})`).join(', ')}.`] : []),
  ];
  return (
    <Notice tone="success" as="div">
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
 * "Propose a starter suite": crawls the client's website (within its target policy, logged in when the suite's
 * secrets are set) and writes a new suite version, proposed, not current. Shows how the crawl goes, then a link to
 * the version in the Suites page's diff view.
 */
export function ClientStarterSuite({ clientId }: { clientId: string }) {
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
        The current suite keeps running until you make the new version current.
      </p>
      <div className="portal-actions" style={{ marginTop: 12 }}>
        <button type="button" className="btn btn--primary portal-btn-sm" disabled={busy} onClick={() => void start()}>
          {busy ? 'Proposing…' : 'Propose a starter suite'}
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
