import { useEffect, useRef } from 'react';

/**
 * What every modal of the portal does: focus starts on the button the returned ref is given, and Escape calls
 * `onEscape` (the newest one passed, so a parent's new callback needs no new listener).
 */
export function useModalFocus(onEscape: () => void) {
  const focusRef = useRef<HTMLButtonElement>(null);
  const onEscapeRef = useRef(onEscape);
  useEffect(() => {
    onEscapeRef.current = onEscape;
  }, [onEscape]);
  useEffect(() => {
    focusRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onEscapeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return focusRef;
}
