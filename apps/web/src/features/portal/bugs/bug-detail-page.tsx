import { bugSeverity, historyRunPath, paths, type Bug } from '@fullstop/contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { AsyncState } from '../components/async-state.tsx';
import { filterOptions } from '../components/filter-select.tsx';
import { Notice } from '../components/notice.tsx';
import { PortalPage } from '../components/portal-page.tsx';
import { SelectField } from '../components/text-field.tsx';
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
      <SelectField
        id="bug-severity"
        label="Change severity"
        value={bug.severity}
        disabled={state.isLoading}
        onChange={(e) => {
          setError(null);
          setSeverity({ id: bug.id, severity: bugSeverity.parse(e.target.value) })
            .unwrap()
            .catch((failure: unknown) => setError(`Could not change the severity: ${failureMessage(failure)}`));
        }}
        options={filterOptions(bugSeverity.options, SEVERITY_LABELS)}
      />
      {error && <Notice tone="error">{error}</Notice>}
    </div>
  );
}

export function BugDetailPage() {
  const { bugId = '' } = useParams();
  const bug = useGetBugQuery({ side: 'client', id: bugId }, { refetchOnMountOrArgChange: true });
  const handlers = useBugHandlers('client', bugId);

  return (
    <PortalPage id="bug-detail-page-title" title={bug.data ? bugHeading(bug.data) : 'Bug'}>
      <p className="bug-back">
        <Link to={paths.bugs}>← All bugs</Link>
      </p>
      <AsyncState
        query={bug}
        loading="Loading the bug…"
        missing="This bug does not exist, or it is not yours to see."
        failed="This bug could not be loaded. Please try again in a moment."
      >
        {(data) => (
          <BugView
            key={data.id}
            bug={data}
            side="client"
            runHref={data.link?.runId ? historyRunPath(data.link.runId) : null}
            controls={<SeveritySelect bug={data} />}
            {...handlers}
          />
        )}
      </AsyncState>
    </PortalPage>
  );
}
