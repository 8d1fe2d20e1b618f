import { useEffect } from 'react';

/** Marks the page interactive (hydrated or rendered): tests and monitors wait for it instead of guessing. */
export function useAppReady(): void {
  useEffect(() => {
    document.documentElement.dataset.appReady = 'true';
  }, []);
}
