import { opsBugPath, opsClientPath } from '@fullstop/contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { failureMessage } from '@/lib/failure-message.ts';
import { AsyncState } from '../../components/async-state.tsx';
import { BusyButton } from '../../components/busy-button.tsx';
import { Popup } from '../../components/popup.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import {
  useApproveAllVisualShotsMutation,
  useApproveVisualShotMutation,
  useGetOpsVisualReviewQuery,
  useOpenVisualBugMutation,
  useRejectVisualShotMutation,
} from '../../store/visual-api.ts';
import { countsText, type ShotActions, VisualReviewView } from '../../components/visual-review/visual-review.tsx';
import '../ops.css';

/** The console's review of one run's visual shots: approve, reject, or reject and open a bug; or approve them all. */
export function OpsVisualReviewPage() {
  const { clientId = '', runId = '' } = useParams();
  const ref = { clientId, runId };
  const review = useGetOpsVisualReviewQuery(ref, { refetchOnMountOrArgChange: true });
  const [approve, approveState] = useApproveVisualShotMutation();
  const [approveAll, allState] = useApproveAllVisualShotsMutation();
  const [reject, rejectState] = useRejectVisualShotMutation();
  const [openBug, bugState] = useOpenVisualBugMutation();
  const [message, setMessage] = useState<string | null>(null);
  const busy = approveState.isLoading || allState.isLoading || rejectState.isLoading || bugState.isLoading;

  async function act(call: () => Promise<{ message: string }>) {
    try {
      setMessage((await call()).message);
    } catch (error) {
      setMessage(`That did not work: ${failureMessage(error)}`);
    }
  }

  const actions: ShotActions = {
    busy,
    approve: (candidateId) => void act(() => approve({ ...ref, candidateId }).unwrap()),
    reject: (candidateId, note) => void act(() => reject({ ...ref, candidateId, ...(note.trim() ? { note: note.trim() } : {}) }).unwrap()),
    openBug: (candidateId, note) => void act(() => openBug({ ...ref, candidateId, ...(note.trim() ? { note: note.trim() } : {}) }).unwrap()),
    bugLink: opsBugPath,
  };

  return (
    <PortalPage id="ops-visual-title" title="Visual review">
      <div className="ops-page">
        <Link to={opsClientPath(clientId)} className="history-back">
          ← The client
        </Link>
        <AsyncState
          query={review}
          loading="Loading the shots…"
          failed="The shots could not be loaded. Please try again in a moment."
          missing="This run does not exist for this client."
          empty="This run has no visual test."
          isEmpty={(data) => data.tests.length === 0}
        >
          {(data) => (
            <>
              <div className="visual-head">
                <p className="portal-muted">{countsText(data)}. Approving a shot makes it the baseline of later runs; earlier reports keep their images.</p>
                {data.counts.pending > 0 && (
                  <BusyButton type="button" className="btn btn--primary portal-btn-sm" busy={allState.isLoading} busyText="Approving…" disabled={busy} onClick={() => void act(() => approveAll(ref).unwrap())}>
                    Approve all ({data.counts.pending})
                  </BusyButton>
                )}
              </div>
              <VisualReviewView review={data} actions={actions} />
            </>
          )}
        </AsyncState>
      </div>
      {message && <Popup message={message} onClose={() => setMessage(null)} />}
    </PortalPage>
  );
}
