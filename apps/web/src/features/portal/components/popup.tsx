import { useId } from 'react';
import { useModalFocus } from './use-modal-focus.ts';

interface PopupProps {
  message: string;
  onClose: () => void;
}

/** A modal message with one Close button; focus moves to the button so Enter or Escape dismisses it. */
export function Popup({ message, onClose }: PopupProps) {
  const closeRef = useModalFocus(onClose);
  const labelId = useId();
  return (
    <div className="portal-popup-backdrop">
      <div className="portal-popup" role="dialog" aria-modal="true" aria-labelledby={labelId}>
        <p id={labelId} className="portal-popup__message">
          {message}
        </p>
        <button ref={closeRef} type="button" className="btn btn--primary" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
