import { opsClientPath, opsManualPath, type ManualWorkItem, type ManualWorkListResponse } from '@fullstop/contracts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { failureMessage } from '@/lib/failure-message.ts';
import { DataTable, type DataColumn } from '../../components/data-table.tsx';
import { Notice } from '../../components/notice.tsx';
import { useClaimManualWorkMutation } from './manual-api.ts';
import { DueBy } from './manual-due.tsx';
import { STATUS_LABELS, claimBlockedReason, dueState, holderText, minutesText, stepsText } from './manual-texts.ts';

const HOLDING_NOTE_ID = 'manual-holding-note';

/** "Waiting", "Claimed by you", "Claimed by Ana Tester". */
function statusText(item: ManualWorkItem): string {
  const holder = holderText(item);
  return holder ? `${STATUS_LABELS[item.status]} by ${holder}` : STATUS_LABELS[item.status];
}

interface ActionProps {
  item: ManualWorkItem;
  holding: string | null;
  claiming: boolean;
  onClaim: (item: ManualWorkItem) => void;
}

/** Continue on the caller's own work; Claim on waiting work, pressed in vain while the caller holds another. */
function Action({ item, holding, claiming, onClaim }: ActionProps) {
  if (item.claimedByMe) {
    return (
      <Link className="btn btn--primary portal-btn-sm" to={opsManualPath(item.id)} aria-label={`Continue ${item.testName}`}>
        Continue
      </Link>
    );
  }
  if (item.status !== 'waiting') return null;
  const blocked = claimBlockedReason(item, holding) !== null;
  return (
    <button
      type="button"
      className="btn btn--ghost portal-btn-sm"
      disabled={blocked || claiming}
      aria-describedby={blocked ? HOLDING_NOTE_ID : undefined}
      aria-label={`Claim ${item.testName}`}
      onClick={() => onClaim(item)}
    >
      {claiming ? 'Claiming…' : 'Claim'}
    </button>
  );
}

/**
 * The queue of manual work: client, case, platform, due time (overdue and due-soon work highlighted), estimate,
 * steps, status and tester, and the claim. A table from tablet width, cards on phones.
 */
export function ManualQueue({ data, now }: { data: ManualWorkListResponse; now: number }) {
  const navigate = useNavigate();
  const [claim] = useClaimManualWorkMutation();
  const [claiming, setClaiming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const held = data.items.find((item) => item.id === data.holding);

  async function onClaim(item: ManualWorkItem) {
    setClaiming(item.id);
    setError(null);
    try {
      await claim(item.id).unwrap();
      void navigate(opsManualPath(item.id));
    } catch (failure) {
      setError(failureMessage(failure, `${item.testName} could not be claimed. Please try again.`));
      setClaiming(null);
    }
  }

  const columns: DataColumn<ManualWorkItem>[] = [
    { header: 'Client', cell: (item) => <Link to={opsClientPath(item.clientId)}>{item.clientName}</Link> },
    {
      header: 'Case',
      cell: (item) => (
        <>
          <span className="manual-case-name">{item.testName}</span>
          <span className="ops-muted">{item.group}</span>
        </>
      ),
    },
    { header: 'Platform', cell: (item) => item.platform },
    { header: 'Due by', cell: (item) => <DueBy dueAt={item.dueAt} now={now} /> },
    {
      header: 'Estimate',
      className: 'manual-queue__nowrap',
      cell: (item) => (
        <>
          <span>{minutesText(item.estimateMinutes)}</span>
          <span className="ops-muted">{stepsText(item.stepCount)}</span>
        </>
      ),
    },
    { header: 'Status', className: 'manual-queue__status', cell: statusText },
    {
      header: 'Action',
      className: 'manual-queue__nowrap',
      cell: (item) => <Action item={item} holding={data.holding} claiming={claiming === item.id} onClaim={(i) => void onClaim(i)} />,
    },
  ];

  return (
    <>
      {data.holding && (
        <div className="portal-alert portal-alert--info manual-holding">
          <p id={HOLDING_NOTE_ID}>
            {held ? `You are working on ${held.testName} for ${held.clientName}.` : 'You are working on a case.'} Submit it or give it back to the
            queue before you claim another.
          </p>
          <Link className="btn btn--primary portal-btn-sm" to={opsManualPath(data.holding)}>
            Continue
          </Link>
        </div>
      )}
      {error && <Notice tone="error">{error}</Notice>}
      <DataTable
        className="ops-table manual-queue"
        caption="Manual work, soonest due first"
        columns={columns}
        rows={data.items}
        rowKey={(item) => item.id}
        rowClassName={(item) => {
          const state = dueState(item.dueAt, now);
          return state === 'later' ? undefined : `manual-row--${state}`;
        }}
      />
    </>
  );
}
