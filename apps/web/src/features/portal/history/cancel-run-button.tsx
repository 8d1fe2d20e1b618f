import { useState } from 'react';
import { describeError } from '@/lib/http-client.ts';
import { useConfirm } from '../components/confirm-dialog.tsx';
import { useViewerReason } from '../store/viewer.ts';
import { useCancelRunMutation } from './history-api.ts';

/**
 * Cancel of a run that still waits or runs, after a question: its queued tests never start, its running ones stop.
 * Viewers read why they cannot. Says the server's answer (or refusal) beside the button.
 */
export function CancelRunButton({ runId, running, onCancelled }: { runId: string; running: boolean; onCancelled: () => void }) {
  const [cancel, state] = useCancelRunMutation();
  const [said, setSaid] = useState<string | null>(null);
  const viewerNote = useViewerReason('cancel runs');
  const confirm = useConfirm();
  if (viewerNote) return null;
  const ask = () =>
    confirm.ask({
      title: 'Cancel this run?',
      message: running
        ? 'Its queued tests will not start and its running tests are stopped now; what they recorded so far is kept. The run counts as cancelled.'
        : 'Its tests will not start. The run counts as cancelled.',
      confirmText: 'Cancel the run',
      onConfirm: () => {
        cancel(runId)
          .unwrap()
          .then((res) => setSaid(res.message), (error: unknown) => setSaid(describeError(error)))
          .finally(onCancelled);
      },
    });
  return (
    <div className="history-actions history-actions--cancel">
      <button type="button" className="btn btn--ghost portal-btn-sm" onClick={ask} disabled={state.isLoading}>
        Cancel run
      </button>
      {said && (
        <span className="portal-muted" role="status">
          {said}
        </span>
      )}
      {confirm.dialog}
    </div>
  );
}
