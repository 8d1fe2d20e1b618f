import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { readConsent, saveConsent, type ConsentAnswer } from './cookie-consent-storage.ts';

/** The spec's poll interval: an answer given in another tab hides the popup here too. */
const CONSENT_POLL_MS = 300;

/** Shown on every page until the visitor accepts or rejects; decided after mount so prerendered HTML hydrates. */
export function CookieConsent() {
  const [visible, setVisible] = useState(false);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    if (readConsent()) return;
    setVisible(true);
    const timer = setInterval(() => {
      if (readConsent()) {
        setVisible(false);
        clearInterval(timer);
      }
    }, CONSENT_POLL_MS);
    return () => clearInterval(timer);
  }, []);

  if (!visible) return null;
  const answer = (value: ConsentAnswer) => {
    saveConsent(value);
    setVisible(false);
  };
  return (
    <section className="cookie-consent" role="dialog" aria-modal="false" aria-labelledby={titleId} aria-describedby={textId}>
      <h2 id={titleId}>Cookie Policy</h2>
      <p id={textId}>
        This website uses cookies to ensure you get the best experience on our website.{' '}
        <Link to={paths.cookiePolicy}>Read our cookie policy</Link>
      </p>
      <div className="btn-row">
        <button type="button" className="btn btn--primary" onClick={() => answer('accepted')}>
          Accept
        </button>
        <button type="button" className="btn btn--ghost" onClick={() => answer('rejected')}>
          Reject
        </button>
      </div>
    </section>
  );
}
