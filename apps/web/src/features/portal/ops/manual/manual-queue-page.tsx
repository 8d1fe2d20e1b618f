import { useLocation } from 'react-router';
import { AsyncState } from '../../components/async-state.tsx';
import { Notice } from '../../components/notice.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import '../ops.css';
import { useGetManualQueueQuery } from './manual-api.ts';
import { ManualQueue } from './manual-queue.tsx';
import type { ManualQueueState } from './manual-texts.ts';
import './manual.css';

/** Other testers claim and submit work meanwhile: the queue is read again this often while the page is in view. */
const QUEUE_REFRESH_MS = 30_000;

/** The console's Manual work page (issue 41): every client's manual cases waiting for a tester, soonest due first. */
export function OpsManualQueuePage() {
  const queue = useGetManualQueueQuery(undefined, { pollingInterval: QUEUE_REFRESH_MS, skipPollingIfUnfocused: true, refetchOnMountOrArgChange: true });
  const done = (useLocation().state as ManualQueueState | null)?.done;
  return (
    <PortalPage id="ops-manual-page-title" title="Manual work">
      <div className="ops-page">
        {done && <Notice tone="success">{done}</Notice>}
        <p className="portal-muted manual-intro">
          Manual test cases of the clients’ runs, soonest due first. Claim one, walk its steps on the platform it asks for, then submit it: its verdict
          becomes the test’s result in that run. You work on one case at a time.
        </p>
        <AsyncState
          query={queue}
          loading="Loading the manual work…"
          failed="The manual work could not be loaded. Please try again in a moment."
          empty="No manual work is waiting."
          isEmpty={(data) => data.items.length === 0}
        >
          {(data) => <ManualQueue data={data} now={queue.fulfilledTimeStamp ?? Date.now()} />}
        </AsyncState>
      </div>
    </PortalPage>
  );
}
