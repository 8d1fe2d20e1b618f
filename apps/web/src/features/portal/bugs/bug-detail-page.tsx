import { bugSeverity, historyRunPath, paths, type Bug } from '@fullstop/contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { PortalPage } from '../components/portal-page.tsx';
import { SEVERITY_LABELS, failureMessage } from '../components/bugs/bug-labels.ts';
import { BugView, bugHeading } from '../components/bugs/bug-view.tsx';
import { useBugHandlers } from '../components/bugs/use-bug-handlers.ts';
import { useGetBugQuery, useSetBugSeverityMutation } from '../store/bugs-api.ts';

/** The client may rate a bug's severity differently from our QA team. */
function SeveritySelect({ bug }: { bug: Bug }) {
  const [setSeverity, state] = useSetBugSeverityMutation();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="bug-controls">
      <div className="portal-field">
        <label htmlFor="bug-severity">Change severity</label>
        <select
          id="bug-severity"
          value={bug.severity}
          disabled={state.isLoading}
          onChange={(e) => {
            setError(null);
            setSeverity({ id: bug.id, severity: bugSeverity.parse(e.target.value) })
              .unwrap()
              .catch((failure: unknown) => setError(`Could not change the severity: ${failureMessage(failure)}`));
          }}
        >
          {bugSeverity.options.map((s) => (
            <option key={s} value={s}>
              {SEVERITY_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p className="portal-alert portal-alert--error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function BugDetailPage() {
  const { bugId = '' } = useParams();
  const bug = useGetBugQuery({ side: 'client', id: bugId }, { refetchOnMountOrArgChange: true });
  const handlers = useBugHandlers('client', bugId);
  const data = bug.data;
  const notFound = bug.isError && 'status' in bug.error && bug.error.status === 404;

  return (
    <PortalPage id="bug-detail-page-title" title={data ? bugHeading(data) : 'Bug'}>
      <p className="bug-back">
        <Link to={paths.bugs}>← All bugs</Link>
      </p>
      {bug.isLoading ? (
        <p className="portal-muted" role="status">
          Loading the bug…
        </p>
      ) : notFound ? (
        <p className="portal-empty">This bug does not exist, or it is not yours to see.</p>
      ) : bug.isError || !data ? (
        <p className="portal-alert portal-alert--error" role="alert">
          This bug could not be loaded. Please try again in a moment.
        </p>
      ) : (
        <BugView
          key={data.id}
          bug={data}
          side="client"
          runHref={data.link?.runId ? historyRunPath(data.link.runId) : null}
          controls={<SeveritySelect bug={data} />}
          {...handlers}
        />
      )}
    </PortalPage>
  );
}
