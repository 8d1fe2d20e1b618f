import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { scrollToSection } from './scroll-to.ts';

/** Frames to keep looking for a hash target that a page renders a moment after navigation. */
const HASH_RETRY_FRAMES = 30;

/**
 * Scrolls to the top on every route change without a hash, and smoothly to the hash's section (with the
 * 100 px offset) when there is one. Keyed on location.key so clicking the same anchor link again works too.
 */
export function ScrollManager() {
  const { pathname, hash, key } = useLocation();

  useEffect(() => {
    if (!hash) {
      window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
      return;
    }
    const id = decodeURIComponent(hash.slice(1));
    let frame = 0;
    let handle = 0;
    const attempt = () => {
      if (scrollToSection(id) || ++frame > HASH_RETRY_FRAMES) return;
      handle = requestAnimationFrame(attempt);
    };
    attempt();
    return () => cancelAnimationFrame(handle);
  }, [pathname, hash, key]);

  return null;
}
