import { type HealingProposal, type HealingProposalHeal, healedWords } from '@fullstop/contracts';
import { useState } from 'react';
import { failureMessage } from '@/lib/failure-message.ts';
import { formatDate } from '@/lib/format-date.ts';
import { AsyncEmpty, AsyncFailed, AsyncLoading } from '../../components/async-state.tsx';
import { BusyButton } from '../../components/busy-button.tsx';
import { Card } from '../../components/card.tsx';
import { Notice, type NoticeText } from '../../components/notice.tsx';
import { ProposalDiff } from './proposal-diff.tsx';
import { useAcceptHealingProposalMutation, useGetHealingProposalsQuery, useRejectHealingProposalMutation } from './healing-api.ts';
import './healing.css';

const shortRun = (runId: string) => runId.replace(/-/g, '').slice(0, 8);

const STATUS_WORDS: Record<HealingProposal['status'], string> = { proposed: 'Waiting for a decision', accepted: 'Accepted', rejected: 'Rejected' };

/** One heal in words: what changed, where, the two locators, and why it is not in the version when it is not. */
function HealItem({ heal }: { heal: HealingProposalHeal }) {
  return (
    <li className="ops-healing__heal">
      <p className="ops-healing__words">{healedWords(heal)}</p>
      <p className="portal-muted ops-healing__case">
        {heal.testName} · {heal.caseName}
      </p>
      <dl className="ops-healing__locators">
        <dt>The spec says</dt>
        <dd className="portal-mono">{heal.oldLocator}</dd>
        <dt>Found as</dt>
        <dd className="portal-mono">{heal.newLocator}</dd>
        <dt>Score</dt>
        <dd>
          {heal.score.toFixed(2)}
          {heal.runnerUp === null ? ', no other candidate' : `, the next best ${heal.runnerUp.toFixed(2)}`}
        </dd>
      </dl>
      {!heal.patched && heal.why && <Notice tone="info">Not in the proposed version: {heal.why}.</Notice>}
      {heal.screenshotUrl && (
        <a className="ops-healing__shot" href={heal.screenshotUrl} target="_blank" rel="noreferrer">
          <img src={heal.screenshotUrl} alt={`The page when healed, the element outlined (${heal.caseName})`} loading="lazy" />
        </a>
      )}
    </li>
  );
}

/** A decided proposal says who decided, when, and the note. */
function Decision({ proposal }: { proposal: HealingProposal }) {
  if (proposal.status === 'proposed') return null;
  return (
    <p className="portal-muted">
      {STATUS_WORDS[proposal.status]} by {proposal.decidedBy ?? 'an operator'} on {formatDate(proposal.decidedAt)}
      {proposal.note ? `: “${proposal.note}”` : ''}
    </p>
  );
}

/** Accept (the version becomes current) or reject with a note (the same heals are not proposed again). */
function DecideForm({ clientId, proposal, onDone }: { clientId: string; proposal: HealingProposal; onDone: (n: NoticeText) => void }) {
  const [accept, accepting] = useAcceptHealingProposalMutation();
  const [reject, rejecting] = useRejectHealingProposalMutation();
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const busy = accepting.isLoading || rejecting.isLoading;
  const noteId = `ops-healing-note-${proposal.id}`;

  async function act(call: () => Promise<{ message: string }>) {
    try {
      onDone({ tone: 'success', text: (await call()).message });
    } catch (error) {
      onDone({ tone: 'error', text: `That did not work: ${failureMessage(error)}` });
    }
  }

  function onReject() {
    if (!note.trim()) {
      setNoteError('Say why the heal is rejected: whoever fixes the spec reads it.');
      return;
    }
    setNoteError(null);
    void act(() => reject({ clientId, proposalId: proposal.id, note: note.trim() }).unwrap());
  }

  return (
    <div className="ops-healing__decide">
      {proposal.proposedVersion !== null && (
        <BusyButton type="button" className="btn btn--primary portal-btn-sm" busy={accepting.isLoading} busyText="Accepting…" disabled={busy} onClick={() => void act(() => accept({ clientId, proposalId: proposal.id }).unwrap())}>
          Accept: make version {proposal.proposedVersion} current
        </BusyButton>
      )}
      <div className="portal-field ops-healing__note">
        <label htmlFor={noteId}>Why reject (required to reject)</label>
        <textarea id={noteId} rows={2} value={note} onChange={(e) => setNote(e.target.value)} aria-invalid={noteError ? true : undefined} aria-describedby={noteError ? `${noteId}-error` : undefined} />
        {noteError && (
          <p id={`${noteId}-error`} className="portal-field__error" role="alert">
            {noteError}
          </p>
        )}
      </div>
      <BusyButton type="button" className="btn btn--ghost portal-btn-sm" busy={rejecting.isLoading} busyText="Rejecting…" disabled={busy} onClick={onReject}>
        Reject
      </BusyButton>
    </div>
  );
}

function ProposalItem({ clientId, proposal }: { clientId: string; proposal: HealingProposal }) {
  const [notice, setNotice] = useState<NoticeText | null>(null);
  const [showDiff, setShowDiff] = useState(proposal.status === 'proposed');
  const titleId = `ops-healing-${proposal.id}`;
  return (
    <article className="ops-healing__proposal" aria-labelledby={titleId}>
      <h3 id={titleId} className="ops-healing__title">
        Run {shortRun(proposal.runId)}: {proposal.heals.length === 1 ? '1 healed locator' : `${proposal.heals.length} healed locators`}
        <span className={`ops-healing__status ops-healing__status--${proposal.status}`}>{STATUS_WORDS[proposal.status]}</span>
      </h3>
      <p className="portal-muted ops-healing__meta">
        {formatDate(proposal.createdAt)} · version {proposal.fromVersion} →{' '}
        {proposal.proposedVersion === null ? 'no version: nothing could be written into a spec' : `proposed version ${proposal.proposedVersion}`}
      </p>
      <ul className="ops-healing__heals">
        {proposal.heals.map((h) => (
          <HealItem key={h.key} heal={h} />
        ))}
      </ul>
      {proposal.proposedVersion !== null && (
        <>
          <button type="button" className="btn btn--ghost portal-btn-sm" aria-expanded={showDiff} onClick={() => setShowDiff((v) => !v)}>
            {showDiff ? 'Hide the change to the spec' : 'Show the change to the spec'}
          </button>
          {showDiff && <ProposalDiff clientId={clientId} from={proposal.fromVersion} to={proposal.proposedVersion} />}
        </>
      )}
      <Decision proposal={proposal} />
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      {proposal.status === 'proposed' && <DecideForm clientId={clientId} proposal={proposal} onDone={setNotice} />}
    </article>
  );
}

/**
 * The client's healed locators, as proposed suite versions (docs/healing.md): each run's heals in words, the change
 * to the spec, the page when healed; accept makes the version current, reject (with a note) keeps it from coming back.
 */
export function HealingProposals({ clientId }: { clientId: string }) {
  const proposals = useGetHealingProposalsQuery(clientId, { refetchOnMountOrArgChange: true });
  const list = proposals.data?.proposals ?? [];
  const waiting = list.filter((p) => p.status === 'proposed').length;
  return (
    <Card id="ops-healing-title" title={waiting > 0 ? `Healed locators (${waiting} waiting)` : 'Healed locators'} className="ops-healing">
      {proposals.isLoading ? (
        <AsyncLoading>Loading the healing proposals…</AsyncLoading>
      ) : proposals.isError ? (
        <AsyncFailed>The healing proposals could not be loaded. Please reload the page.</AsyncFailed>
      ) : list.length === 0 ? (
        <AsyncEmpty>No locator was healed: when a run finds a changed element again, the change to its spec is proposed here.</AsyncEmpty>
      ) : (
        <div className="portal-stack">
          {list.map((p) => (
            <ProposalItem key={p.id} clientId={clientId} proposal={p} />
          ))}
        </div>
      )}
    </Card>
  );
}
