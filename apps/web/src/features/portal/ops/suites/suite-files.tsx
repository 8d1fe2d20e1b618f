import { useState } from 'react';
import { AsyncFailed, AsyncLoading } from '../../components/async-state.tsx';
import { Card } from '../../components/card.tsx';
import { useGetSuiteFileQuery, useGetSuiteFilesQuery } from './suites-api.ts';

const sizeOf = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`);

/** One version's files, and the chosen one's text (the suite's content is shown as text, never as HTML). */
export function SuiteFiles({ clientId, version }: { clientId: string; version: number }) {
  const files = useGetSuiteFilesQuery({ clientId, version });
  const list = files.data?.files ?? [];
  const [picked, setPicked] = useState<string | null>(null);
  const path = picked ?? list.find((f) => f.path === 'suite.json')?.path ?? list[0]?.path ?? null;
  const file = useGetSuiteFileQuery({ clientId, version, path: path ?? '' }, { skip: !path });

  return (
    <Card id="ops-suites-files-title" title={`Files of version ${version}`}>
      {files.isLoading ? (
        <AsyncLoading>Loading the files…</AsyncLoading>
      ) : files.isError ? (
        <AsyncFailed>The files could not be loaded.</AsyncFailed>
      ) : (
        <div className="ops-suites__browser">
          <ul className="ops-suites__file-list" aria-label={`Files of version ${version}`}>
            {list.map((f) => (
              <li key={f.path}>
                <button type="button" className="ops-suites__file" aria-current={f.path === path ? 'true' : undefined} onClick={() => setPicked(f.path)}>
                  <span className="portal-mono ops-suites__file-path">{f.path}</span>
                  <span className="portal-muted ops-suites__file-size">{sizeOf(f.size)}</span>
                </button>
              </li>
            ))}
          </ul>
          <div className="ops-suites__viewer">
            {path && <p className="portal-mono ops-suites__viewer-path">{path}</p>}
            {file.isFetching ? (
              <AsyncLoading>Loading…</AsyncLoading>
            ) : file.isError ? (
              <AsyncFailed>This file could not be loaded.</AsyncFailed>
            ) : file.data ? (
              <>
                {file.data.note && <p className="portal-alert portal-alert--info">{file.data.note}</p>}
                {file.data.content !== null && (
                  <pre className="ops-suites__code" tabIndex={0}>
                    {file.data.content}
                  </pre>
                )}
              </>
            ) : null}
          </div>
        </div>
      )}
    </Card>
  );
}
