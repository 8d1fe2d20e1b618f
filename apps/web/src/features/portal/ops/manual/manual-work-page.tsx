import { paths, type ManualWorkDetailResponse } from '@fullstop/contracts';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { failureMessage } from '@/lib/failure-message.ts';
import { formatDate } from '@/lib/format-date.ts';
import { AsyncEmpty, AsyncFailed, AsyncLoading, isMissing } from '../../components/async-state.tsx';
import { BusyButton } from '../../components/busy-button.tsx';
import { DataFacts } from '../../components/data-facts.tsx';
import { Notice } from '../../components/notice.tsx';
import '../ops.css';
import { useClaimManualWorkMutation, useGetManualQueueQuery, useGetManualWorkQuery } from './manual-api.ts';
import { ManualBrief } from './manual-brief.tsx';
import { DueBy } from './manual-due.tsx';
import { ManualFinish } from './manual-finish.tsx';
import { ManualStepCard } from './manual-step-card.tsx';
import { claimBlockedReason, holderText, isNotReached, minutesText, progressText, STATUS_LABELS, type ManualQueueState } from './manual-texts.ts';
import './manual.css';

function WorkFacts({ work, now }: { work: ManualWorkDetailResponse; now: number }) {
  const holder = holderText(work);
  return (
    <div className="portal-card">
      <DataFacts
        className="ops-facts manual-facts"
        facts={[
          { term: 'Client', value: work.clientName },
          { term: 'Group', value: work.group },
          { term: 'Platform asked', value: work.platform },
          { term: 'Due by', value: <DueBy dueAt={work.dueAt} now={now} /> },
          { term: 'Estimate', value: minutesText(work.estimateMinutes) },
          { term: 'Status', value: holder ? `${STATUS_LABELS[work.status]} by ${holder}` : STATUS_LABELS[work.status] },
        ]}
      />
      {work.claimedByMe && work.claimExpiresAt && (
        <p className="portal-muted manual-claim-until">
          Your claim holds until {formatDate(work.claimExpiresAt)}. After that the case goes back to the queue for another tester.
        </p>
      )}
    </div>
  );
}

/** Before the steps, for an operator who does not hold the work: claim it, or why they cannot. */
function ClaimPanel({ work }: { work: ManualWorkDetailResponse }) {
  const queue = useGetManualQueueQuery(undefined, { skip: work.status !== 'waiting' });
  const [claim, claiming] = useClaimManualWorkMutation();
  const [problem, setProblem] = useState<string | null>(null);
  if (work.status === 'submitted') return <Notice tone="info">This case was submitted: its verdict is the test’s result in the run.</Notice>;
  if (work.status === 'not-run') return <Notice tone="info">This case was not run by its due time: the run counts it as not run.</Notice>;
  const reason = claimBlockedReason(work, queue.data?.holding ?? null);
  if (work.status === 'claimed') {
    return (
      <Notice tone="info">
        {reason} {work.claimExpiresAt ? `Their claim holds until ${formatDate(work.claimExpiresAt)}.` : ''}
      </Notice>
    );
  }

  async function onClaim() {
    setProblem(null);
    try {
      await claim(work.id).unwrap();
    } catch (failure) {
      setProblem(failureMessage(failure, 'The case could not be claimed. Please try again.'));
    }
  }

  return (
    <div className="portal-alert portal-alert--info manual-claim" role="region" aria-label="Claim">
      <p id="manual-claim-note">{reason ?? 'Claim this case to walk its steps. The steps below are read-only until you do.'}</p>
      <BusyButton
        type="button"
        className="btn btn--primary"
        busy={claiming.isLoading}
        busyText="Claiming…"
        disabled={reason !== null}
        aria-describedby="manual-claim-note"
        onClick={() => void onClaim()}
      >
        Claim
      </BusyButton>
      {problem && <Notice tone="error">{problem}</Notice>}
    </div>
  );
}

/**
 * The tester's page (issue 41), made for a phone held in one hand: the case, its goal, preconditions and test data,
 * then each step as a card with Pass, Fail or Blocked, a note and evidence, and at the end what was used, Submit and
 * Release. An operator who does not hold it sees the steps read-only, with Claim first.
 */
export function OpsManualWorkPage() {
  const { manualId = '' } = useParams();
  const work = useGetManualWorkQuery(manualId, { skip: !manualId, refetchOnMountOrArgChange: true });
  const navigate = useNavigate();
  const data = work.data;
  const editable = Boolean(data?.claimedByMe && data.status === 'claimed');
  const backWith = (done: string) => void navigate(paths.opsManual, { state: { done } satisfies ManualQueueState });

  return (
    <section aria-labelledby="manual-work-title" className="ops-page manual-work">
      <Link to={paths.opsManual}>← Manual work</Link>
      {work.isLoading ? (
        <AsyncLoading>Loading the case…</AsyncLoading>
      ) : !data ? (
        <>
          <h1 id="manual-work-title" className="portal-page-title">
            Case not found
          </h1>
          {isMissing(work) ? (
            <AsyncEmpty>There is no such piece of manual work. It may have been submitted, or its run deleted.</AsyncEmpty>
          ) : (
            <AsyncFailed>The case could not be loaded. Please try again in a moment.</AsyncFailed>
          )}
        </>
      ) : (
        <>
          <h1 id="manual-work-title" className="portal-page-title">
            {data.testName}
          </h1>
          <WorkFacts work={data} now={work.fulfilledTimeStamp ?? Date.now()} />
          {!editable && <ClaimPanel work={data} />}
          <ManualBrief work={data} />
          <section className="manual-steps-section" aria-labelledby="manual-steps-title">
            <div className="manual-steps-head">
              <h2 id="manual-steps-title" className="portal-card__title">
                Steps
              </h2>
              <p className="portal-muted">{progressText(data.steps)}</p>
            </div>
            <ol className="manual-steps">
              {data.steps.map((step, index) => (
                <ManualStepCard
                  // A new claim starts the cards again from what the server kept.
                  key={`${index}-${editable}`}
                  workId={data.id}
                  number={index + 1}
                  step={step}
                  notReached={isNotReached(data.steps, index)}
                  editable={editable}
                />
              ))}
            </ol>
          </section>
          {editable && <ManualFinish work={data} onDone={backWith} />}
        </>
      )}
    </section>
  );
}
