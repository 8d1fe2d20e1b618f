import type { EvidenceItem } from '@fullstop/contracts';
import { openInNewTab } from '@/lib/open-link.ts';
import { EvidenceShots } from '../components/evidence-shot.tsx';
import { openFailed } from './open-failed.ts';
import { evidenceLink, useGetEvidenceQuery } from './history-api.ts';

export type Ids = { runId: string; runTestId: string };

export function openEvidence(ids: Ids, item: EvidenceItem) {
  openInNewTab(() => evidenceLink(ids.runId, ids.runTestId, item.evidenceId)).catch(openFailed(`the ${item.kind}`));
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
        <EvidenceShots
          items={shots}
          keyOf={(item) => `${ids.runId}/${ids.runTestId}/${item.evidenceId}`}
          link={(item) => evidenceLink(ids.runId, ids.runTestId, item.evidenceId)}
          onOpen={(item) => openEvidence(ids, item)}
        />
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
