import type { EvidenceItem } from '@fullstop/contracts';
import { useEffect, useState } from 'react';
import { openInNewTab } from '@/lib/open-link.ts';
import { openFailed } from './open-failed.ts';
import { evidenceLink, useGetEvidenceQuery } from './history-api.ts';

export type Ids = { runId: string; runTestId: string };

export function openEvidence(ids: Ids, item: EvidenceItem) {
  openInNewTab(() => evidenceLink(ids.runId, ids.runTestId, item.evidenceId)).catch(openFailed(`the ${item.kind}`));
}

/** A screenshot's thumbnail, loaded through its short-lived link; a click opens it whole in a new tab. */
function Screenshot({ ids, item }: { ids: Ids; item: EvidenceItem }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    evidenceLink(ids.runId, ids.runTestId, item.evidenceId).then(
      (url) => live && setSrc(url),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [ids.runId, ids.runTestId, item.evidenceId]);
  return (
    <figure className="history-shot">
      <button type="button" className="history-shot__open" onClick={() => openEvidence(ids, item)} aria-label={`Open ${item.label} in a new tab`}>
        {src ? <img src={src} alt={item.label} loading="lazy" /> : <span className="portal-muted">{failed ? 'Not available' : 'Loading…'}</span>}
      </button>
      <figcaption>{item.label}</figcaption>
    </figure>
  );
}

/** A test's traces and screenshots: thumbnails, and each trace opening in Playwright's trace viewer. */
export function TestEvidence({ ids }: { ids: Ids }) {
  const evidence = useGetEvidenceQuery(ids);
  if (evidence.isLoading) return <p className="portal-muted">Loading evidence…</p>;
  if (evidence.isError || !evidence.data) return <p className="portal-muted">The evidence could not be loaded.</p>;
  const shots = evidence.data.evidence.filter((e) => e.kind === 'screenshot');
  const traces = evidence.data.evidence.filter((e) => e.kind === 'trace');
  return (
    <div className="history-evidence">
      {shots.length > 0 && (
        <div className="history-shots">
          {shots.map((item) => (
            <Screenshot key={item.evidenceId} ids={ids} item={item} />
          ))}
        </div>
      )}
      {traces.length > 0 && (
        <div className="history-actions">
          {traces.map((item) => (
            <button key={item.evidenceId} type="button" className="btn btn--ghost portal-btn-sm" onClick={() => openEvidence(ids, item)}>
              Open trace{item.caseName ? `: ${item.caseName}` : ''}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
