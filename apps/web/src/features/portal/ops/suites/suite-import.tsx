import { useRef, useState, type FormEvent } from 'react';
import { failureMessage } from '@/lib/failure-message.ts';
import { BusyButton } from '../../components/busy-button.tsx';
import { Notice, type NoticeText } from '../../components/notice.tsx';
import { importIssuesOf, useImportSuiteMutation } from './suites-api.ts';

/** What the import leaves out anyway (hidden files, node_modules): not sent, so a folder stays within the limits. */
const skipped = (path: string) => path.split('/').some((s) => s.startsWith('.') || s === 'node_modules');

type Source = 'folder' | 'zip';

/**
 * Import a new version from a folder or a zip, made current at once or kept for a trial run first. The first
 * version (none current yet) is made current: kept for a trial, the client would see no tests at all.
 */
export function SuiteImportForm({ clientId, hasCurrent }: { clientId: string; hasCurrent: boolean }) {
  const [source, setSource] = useState<Source>('folder');
  const [folder, setFolder] = useState<File[]>([]);
  const [zip, setZip] = useState<File | null>(null);
  const [makeCurrent, setMakeCurrent] = useState(false);
  const [issues, setIssues] = useState<string[]>([]);
  const [notice, setNotice] = useState<NoticeText | null>(null);
  const [importSuite, { isLoading }] = useImportSuiteMutation();
  const formRef = useRef<HTMLFormElement>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setIssues([]);
    const form = new FormData();
    form.append('makeCurrent', String(makeCurrent || !hasCurrent));
    if (source === 'zip') {
      if (!zip) return setNotice({ tone: 'error', text: 'Choose a zip archive of the suite.' });
      form.append('zip', zip, zip.name);
    } else {
      const files = folder.filter((f) => !skipped(f.webkitRelativePath || f.name));
      if (files.length === 0) return setNotice({ tone: 'error', text: 'Choose the suite’s folder (the one holding suite.json).' });
      for (const f of files) form.append('files', f, f.webkitRelativePath || f.name);
    }
    try {
      const res = await importSuite({ clientId, form }).unwrap();
      setNotice({ tone: 'success', text: res.message });
      setFolder([]);
      setZip(null);
      formRef.current?.reset();
    } catch (error) {
      const found = importIssuesOf(error);
      setIssues(found);
      setNotice({ tone: 'error', text: found.length > 0 ? 'The suite was not imported: fix these problems and try again.' : `The suite was not imported: ${failureMessage(error, 'Please try again later.')}` });
    }
  }

  return (
    <form ref={formRef} className="portal-card portal-form" onSubmit={onSubmit} noValidate aria-labelledby="ops-suites-import-title">
      <h2 id="ops-suites-import-title" className="portal-card__title">
        Import a new version
      </h2>
      <fieldset className="ops-suites__choice">
        <legend>Upload</legend>
        <label>
          <input type="radio" name="source" checked={source === 'folder'} onChange={() => setSource('folder')} /> A folder
        </label>
        <label>
          <input type="radio" name="source" checked={source === 'zip'} onChange={() => setSource('zip')} /> A zip archive
        </label>
      </fieldset>
      {source === 'folder' ? (
        <div className="portal-field">
          <label htmlFor="ops-suites-folder">Suite folder</label>
          <input
            // Its own key: React would otherwise reuse this element for the zip's input, keeping webkitdirectory on it.
            key="folder"
            id="ops-suites-folder"
            type="file"
            multiple
            ref={(el) => el?.setAttribute('webkitdirectory', '')}
            onChange={(e) => setFolder(Array.from(e.target.files ?? []))}
          />
          <p className="portal-muted portal-field__hint">
            The folder holding suite.json and its spec files{folder.length > 0 ? ` (${folder.length} files chosen)` : ''}.
          </p>
        </div>
      ) : (
        <div className="portal-field">
          <label htmlFor="ops-suites-zip">Zip archive</label>
          <input key="zip" id="ops-suites-zip" type="file" accept=".zip,application/zip" onChange={(e) => setZip(e.target.files?.[0] ?? null)} />
          <p className="portal-muted portal-field__hint">A zip of the suite folder (suite.json at its top, or in its one folder).</p>
        </div>
      )}
      {!hasCurrent ? (
        <p className="portal-muted">No version is current yet: this one becomes current at once, so the client sees its tests.</p>
      ) : (
        <fieldset className="ops-suites__choice">
          <legend>After the import</legend>
          <label>
            <input type="radio" name="makeCurrent" checked={!makeCurrent} onChange={() => setMakeCurrent(false)} /> Keep it for a trial run (the current version
            still runs)
          </label>
          <label>
            <input type="radio" name="makeCurrent" checked={makeCurrent} onChange={() => setMakeCurrent(true)} /> Make it current at once
          </label>
        </fieldset>
      )}
      {notice && (
        <Notice tone={notice.tone} as="div">
          <p className="ops-suites__notice">{notice.text}</p>
          {issues.length > 0 && (
            <ul className="ops-suites__issues">
              {issues.map((issue) => (
                <li key={issue} className="portal-mono">
                  {issue}
                </li>
              ))}
            </ul>
          )}
        </Notice>
      )}
      <div className="portal-actions">
        <BusyButton busy={isLoading} busyText="Importing…">Import</BusyButton>
      </div>
    </form>
  );
}
