import type { BugAction } from '@fullstop/contracts';
import { useState } from 'react';
import { Notice } from '../notice.tsx';
import { ACTION_DONE, ACTION_LABELS, needsReason, retestNote } from './bug-labels.ts';
import { ReasonDialog } from './reason-dialog.tsx';

interface BugActionsProps {
  /** The actions the server says the viewer may take now, in its order. */
  actions: readonly BugAction[];
  side: 'client' | 'operator';
  /** Whether a retest re-runs a linked test, or goes to our QA team. */
  hasLinkedTest?: boolean;
  busy?: boolean;
  /** Resolves when the server took the action; rejects with its message to show. */
  onAction: (action: BugAction, reason?: string) => Promise<void>;
}

const PRIMARY: readonly BugAction[] = ['publish', 'accept', 'fixed', 'request-retest', 'verify'];

/** One button per action the bug allows; the ones that need a reason ask for it first. */
export function BugActions({ actions, side, hasLinkedTest = true, busy = false, onAction }: BugActionsProps) {
  const [asking, setAsking] = useState<BugAction | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  if (actions.length === 0 && !done) return null;

  async function run(action: BugAction, reason?: string) {
    setError(null);
    setDialogError(null);
    setDone(null);
    try {
      await onAction(action, reason);
      setAsking(null);
      setDone(ACTION_DONE[action]);
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : String(failure);
      if (reason !== undefined) setDialogError(message);
      else setError(message);
    }
  }

  return (
    <div className="bug-actions" role="group" aria-label="What to do with this bug">
      {actions.length > 0 && (
        <div className="portal-actions">
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              className={`btn portal-btn-sm ${PRIMARY.includes(action) ? 'btn--primary' : 'btn--ghost'}`}
              disabled={busy}
              onClick={() => (needsReason(action) ? setAsking(action) : void run(action))}
            >
              {ACTION_LABELS[action]}
            </button>
          ))}
        </div>
      )}
      {side === 'client' && actions.includes('request-retest') && <p className="portal-muted bug-actions__note">{retestNote(hasLinkedTest)}</p>}
      {done && <Notice tone="success">{done}</Notice>}
      {error && <Notice tone="error">{error}</Notice>}
      {asking && (
        <ReasonDialog
          action={asking}
          busy={busy}
          error={dialogError}
          onSubmit={(reason) => void run(asking, reason)}
          onCancel={() => {
            setAsking(null);
            setDialogError(null);
          }}
        />
      )}
    </div>
  );
}
