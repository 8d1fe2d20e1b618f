import { useState } from 'react';
import { describeError } from '@/lib/http-client.ts';
import { openInNewTab } from '@/lib/open-link.ts';
import { EvidenceShots } from '../../components/evidence-shot.tsx';
import { opsEvidenceLink, opsReportLink, type RunTestRef, useGetOpsEvidenceQuery } from './evidence-api.ts';

type Report = (message: string) => void;

function open(fetchUrl: () => Promise<string>, what: string, report: Report) {
  openInNewTab(fetchUrl).catch((error: unknown) => report(`Could not open ${what}: ${describeError(error)}`));
}

function EvidenceBody({ test, report }: { test: RunTestRef; report: Report }) {
  const evidence = useGetOpsEvidenceQuery(test);
  const shots = evidence.data?.evidence.filter((e) => e.kind === 'screenshot') ?? [];
  const traces = evidence.data?.evidence.filter((e) => e.kind === 'trace') ?? [];
  return (
    <div className="ops-evidence__body">
      <div className="ops-actions">
        <button type="button" className="btn btn--ghost portal-btn-sm" onClick={() => open(() => opsReportLink(test, 'html'), 'the report', report)}>
          Open report
        </button>
        {traces.map((item) => (
          <button key={item.evidenceId} type="button" className="btn btn--ghost portal-btn-sm" onClick={() => open(() => opsEvidenceLink(test, item.evidenceId), 'the trace', report)}>
            Open trace{item.caseName ? `: ${item.caseName}` : ''}
          </button>
        ))}
      </div>
      {evidence.isLoading && <p className="ops-muted">Loading traces and screenshots…</p>}
      {evidence.isError && <p className="ops-muted">The traces and screenshots could not be loaded: {describeError(evidence.error)}</p>}
      {evidence.data && shots.length === 0 && traces.length === 0 && <p className="ops-muted">No traces or screenshots were kept for this test.</p>}
      {shots.length > 0 && (
        <EvidenceShots
          items={shots}
          keyOf={(item) => `${test.clientId}/${test.runId}/${test.runTestId}/${item.evidenceId}`}
          link={(item) => opsEvidenceLink(test, item.evidenceId)}
          onOpen={(item) => open(() => opsEvidenceLink(test, item.evidenceId), item.label, report)}
        />
      )}
    </div>
  );
}

/**
 * What an operator needs to see why a test failed, beside its error text: the run's report of it, its traces (in
 * the trace viewer) and its screenshots, read when opened.
 */
export function FailingTestEvidence({ clientId, runId, runTestId, report }: RunTestRef & { report: Report }) {
  const [opened, setOpened] = useState(false);
  const test = { clientId, runId, runTestId };
  return (
    <details className="ops-evidence" onToggle={(e) => setOpened(e.currentTarget.open)}>
      <summary>Report, traces and screenshots</summary>
      {opened && <EvidenceBody test={test} report={report} />}
    </details>
  );
}
