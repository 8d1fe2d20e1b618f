import type { BugAction } from '@fullstop/contracts';
import { useId, useState, type FormEvent } from 'react';
import { BusyButton } from '../busy-button.tsx';
import { Notice } from '../notice.tsx';
import { useModalFocus } from '../use-modal-focus.ts';
import { ACTION_LABELS, REASON_PROMPTS } from './bug-labels.ts';

interface ReasonDialogProps {
  action: BugAction;
  busy?: boolean;
  error?: string | null;
  onSubmit: (reason: string) => void;
  onCancel: () => void;
}

/** Asks why, for the answers that need a reason (won't fix, not a bug, reject). Focus starts on Cancel. */
export function ReasonDialog({ action, busy = false, error = null, onSubmit, onCancel }: ReasonDialogProps) {
  const cancelRef = useModalFocus(onCancel);
  const titleId = useId();
  const fieldId = useId();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const prompt = REASON_PROMPTS[action] ?? { title: ACTION_LABELS[action], hint: 'Tell us why.' };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = reason.trim();
    if (!text) {
      setMissing(true);
      return;
    }
    onSubmit(text);
  }

  return (
    <div className="portal-popup-backdrop">
      <form className="portal-popup bug-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} onSubmit={submit} noValidate>
        <h2 id={titleId} className="portal-confirm__title">
          {prompt.title}
        </h2>
        <div className="portal-field">
          <label htmlFor={fieldId}>Reason</label>
          <p className="portal-muted portal-field__hint">{prompt.hint}</p>
          <textarea
            id={fieldId}
            rows={4}
            maxLength={5000}
            value={reason}
            aria-invalid={missing}
            aria-describedby={missing ? `${fieldId}-error` : undefined}
            onChange={(e) => {
              setReason(e.target.value);
              setMissing(false);
            }}
          />
          {missing && (
            <p id={`${fieldId}-error`} className="portal-field__error">
              Please give a reason.
            </p>
          )}
        </div>
        {error && <Notice tone="error">{error}</Notice>}
        <div className="portal-actions bug-dialog__actions">
          <button ref={cancelRef} type="button" className="btn btn--ghost" onClick={onCancel}>
            Cancel
          </button>
          <BusyButton busy={busy} busyText="Sending…">
            {ACTION_LABELS[action]}
          </BusyButton>
        </div>
      </form>
    </div>
  );
}
