import { bugPath, bugStatus } from '@fullstop/contracts';
import { AsyncEmpty, AsyncLoading } from '../components/async-state.tsx';
import { Notice } from '../components/notice.tsx';
import { PortalPage } from '../components/portal-page.tsx';
import { BugFilters, useBugFilters } from '../components/bugs/bug-filters.tsx';
import { BugTable } from '../components/bugs/bug-table.tsx';
import { useGetBugsQuery } from '../store/bugs-api.ts';
import '../components/bugs/bugs.css';

/** The statuses a client sees: drafts stay with our QA team until they are published. */
const CLIENT_STATUSES = bugStatus.options.filter((s) => s !== 'draft');

/** The client's bugs, newest first, narrowed by status and severity (both kept in the address). */
export function BugsPage() {
  const { values, update } = useBugFilters();
  const bugs = useGetBugsQuery({ side: 'client', status: values.status, severity: values.severity }, { refetchOnMountOrArgChange: true });
  const filtered = Boolean(values.status || values.severity);

  return (
    <PortalPage id="bugs-page-title" title="Bugs">
      <BugFilters values={values} onChange={update} statuses={CLIENT_STATUSES} />
      {bugs.isLoading ? (
        <AsyncLoading>Loading bugs…</AsyncLoading>
      ) : bugs.isError || !bugs.data ? (
        <Notice tone="error">Your bugs could not be loaded. Please try again in a moment.</Notice>
      ) : bugs.data.bugs.length === 0 ? (
        filtered ? (
          <AsyncEmpty>No bugs match these filters.</AsyncEmpty>
        ) : (
          <div className="portal-empty bug-empty">
            <p className="bug-empty__title">No bugs reported yet.</p>
            <p>
              When a test fails, a security scan raises an alert or our QA team finds a problem by hand, we check it and write it up
              here as a bug: what happens, how to reproduce it, and the evidence. You can accept it, tell us it is fixed (we retest it
              for free), or tell us why it will not be fixed.
            </p>
          </div>
        )
      ) : (
        <BugTable bugs={bugs.data.bugs} hrefOf={bugPath} />
      )}
    </PortalPage>
  );
}
