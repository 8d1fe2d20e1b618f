import { useEffect, useId, useRef } from 'react';

interface PopupProps {
  message: string;
  onClose: () => void;
}

/** A modal message with one Close button; focus moves to the button so Enter or Escape dismisses it. */
export function Popup({ message, onClose }: PopupProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const onCloseRef = useRef(onClose);
  const labelId = useId();
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);
  useEffect(() => {
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onCloseRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
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
