import { useId } from 'react';
import { useModalFocus } from './use-modal-focus.ts';

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmText: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal question with Cancel and a confirm button. Focus starts on Cancel, so Enter or Escape never does the
 * irreversible thing by accident.
 */
export function ConfirmDialog({ title, message, confirmText, onConfirm, onCancel }: ConfirmDialogProps) {
  const cancelRef = useModalFocus(onCancel);
  const titleId = useId();
  const messageId = useId();
  return (
    <div className="portal-popup-backdrop">
      <div className="portal-popup portal-confirm" role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={messageId}>
        <h2 id={titleId} className="portal-confirm__title">
          {title}
        </h2>
        <p id={messageId} className="portal-confirm__message">
          {message}
        </p>
        <div className="portal-actions portal-confirm__actions">
          <button ref={cancelRef} type="button" className="btn btn--ghost" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn--danger" onClick={onConfirm}>
            {confirmText}
          </button>
        </div>
      </div>
    </div>
  );
}
