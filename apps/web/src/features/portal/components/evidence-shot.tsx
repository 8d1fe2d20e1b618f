import { useEffect, useState } from 'react';
import './evidence-shot.css';

/**
 * A screenshot's thumbnail, loaded through a short-lived link (`link`, asked again when `linkKey` changes); a click
 * calls `onOpen`, which opens it whole in a new tab. The client's History and the console's Runs feed both show them.
 */
function EvidenceShot({ label, linkKey, link, onOpen }: { label: string; linkKey: string; link: () => Promise<string>; onOpen: () => void }) {
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

/** A test's screenshots as a row of thumbnails: `keyOf` names one's evidence, `link` fetches its address, `onOpen` opens it. */
export function EvidenceShots<T extends { evidenceId: string; label: string }>({
  items,
  keyOf,
  link,
  onOpen,
}: {
  items: readonly T[];
  keyOf: (item: T) => string;
  link: (item: T) => Promise<string>;
  onOpen: (item: T) => void;
}) {
  return (
    <div className="evidence-shots">
      {items.map((item) => (
        <EvidenceShot key={item.evidenceId} label={item.label} linkKey={keyOf(item)} link={() => link(item)} onOpen={() => onOpen(item)} />
      ))}
    </div>
  );
}
