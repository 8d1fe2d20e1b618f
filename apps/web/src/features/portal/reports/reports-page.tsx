import { skipToken } from '@reduxjs/toolkit/query/react';
import { formatDate } from '@/lib/format-date.ts';
import { describeError } from '@/lib/http-client.ts';
import { AsyncEmpty, AsyncLoading } from '../components/async-state.tsx';
import { CollapsibleGroup } from '../components/collapsible-group.tsx';
import { PortalPage } from '../components/portal-page.tsx';
import { useGetSuiteStatusQuery } from '../store/suite-status-api.ts';
import { useClientProfile } from '../store/use-client-profile.ts';
import { lastUpdated, openReport, reportFormats } from './report-files.ts';
import { useGetReportsQuery } from './reports-api.ts';

export function ReportsPage() {
  const profile = useClientProfile();
  const apiKey = profile.data?.apiToken || null;
  // Before a first suite there can be no report: not asked, so the browser logs no 404 (the spec's "none") on a client's first day.
  const status = useGetSuiteStatusQuery();
  const noSuiteYet = status.data?.current === false;
  const reports = useGetReportsQuery(apiKey && (status.data || status.isError) && !noSuiteYet ? apiKey : skipToken);
  const groups = Object.entries(reports.data ?? {}).filter(([, entries]) => Object.keys(entries).length > 0);

  const open = (name: string, format: string) => {
    if (!apiKey) return;
    openReport(name, format, apiKey).catch((error: unknown) => {
      console.error('Could not open the report', error);
      window.alert(`Could not open the report: ${describeError(error)}`);
    });
  };

  const loading = profile.isLoading || status.isLoading || reports.isLoading;
  return (
    <PortalPage id="reports-title" title="Reports">
      {loading ? (
        <AsyncLoading>Loading reports…</AsyncLoading>
      ) : groups.length === 0 ? (
        <AsyncEmpty>No reports available.</AsyncEmpty>
      ) : (
        <div className="portal-stack">
          {groups.map(([group, entries]) => (
            <CollapsibleGroup key={group} name={group} count={Object.keys(entries).length}>
              <ul className="portal-rows">
                {Object.entries(entries).map(([name, entry]) => (
                  <li key={name} className="portal-row portal-row--report">
                    <span className="portal-row__name">{name}</span>
                    <span className="portal-row__formats">
                      {reportFormats(entry).map(({ format }) => (
                        <button
                          key={format}
                          type="button"
                          className="btn btn--ghost portal-btn-sm"
                          aria-label={`Open ${name} as ${format.toUpperCase()}`}
                          onClick={() => open(name, format)}
                        >
                          {format.toUpperCase()}
                        </button>
                      ))}
                    </span>
                    <span className="portal-row__meta">Last Updated: {formatDate(lastUpdated(entry), '—')}</span>
                  </li>
                ))}
              </ul>
            </CollapsibleGroup>
          ))}
        </div>
      )}
    </PortalPage>
  );
}
