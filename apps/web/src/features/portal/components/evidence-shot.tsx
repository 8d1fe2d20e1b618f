import { type ReactNode, useEffect, useState } from 'react';
import './evidence-shot.css';

/**
 * A screenshot's thumbnail, loaded through a short-lived link (`link`, asked again when `linkKey` changes); a click
 * calls `onOpen`, which opens it whole in a new tab. The client's History and the console's Runs feed both show them.
 */
export function EvidenceShot({ label, linkKey, link, onOpen }: { label: string; linkKey: string; link: () => Promise<string>; onOpen: () => void }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    link().then(
      (url) => live && setSrc(url),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
    // The link function is a new closure at each render: the evidence it points at is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linkKey]);
  return (
    <figure className="evidence-shot">
      <button type="button" className="evidence-shot__open" onClick={onOpen} aria-label={`Open ${label} in a new tab`}>
        {src ? <img src={src} alt={label} loading="lazy" /> : <span className="portal-muted">{failed ? 'Not available' : 'Loading…'}</span>}
      </button>
      <figcaption>{label}</figcaption>
    </figure>
  );
}

/** The row the thumbnails sit in. */
export function EvidenceShots({ children }: { children: ReactNode }) {
  return <div className="evidence-shots">{children}</div>;
}
