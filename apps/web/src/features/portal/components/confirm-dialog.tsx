import { useId, useState } from 'react';
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

/** What ConfirmDialog asks, and what to do on yes. */
export type Question = Omit<ConfirmDialogProps, 'onCancel'>;

/**
 * Asking before something that cannot be undone: `ask(question)` opens the dialog, rendered where `dialog` is
 * placed. Its confirm button closes it and runs `question.onConfirm`; Cancel only closes it.
 */
export function useConfirm() {
  const [question, setQuestion] = useState<Question | null>(null);
  const dialog = question && (
    <ConfirmDialog
      {...question}
      onCancel={() => setQuestion(null)}
      onConfirm={() => {
        setQuestion(null);
        question.onConfirm();
      }}
    />
  );
  return { ask: setQuestion, dialog };
}
