import { paths, type SuiteVersionSummary } from '@fullstop/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { failureMessage } from '@/lib/failure-message.ts';
import { formatDate } from '@/lib/format-date.ts';
import { AsyncEmpty } from '../../components/async-state.tsx';
import { Card } from '../../components/card.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Notice } from '../../components/notice.tsx';
import { useMakeSuiteCurrentMutation, useTrySuiteMutation } from './suites-api.ts';

interface Props {
  clientId: string;
  versions: SuiteVersionSummary[];
  /** The version whose files are shown below. */
  shown: number;
  onShow: (version: number) => void;
}

/** Every version, newest first: show its files, try it in a run, make it current (after a confirmation). */
export function SuiteVersions({ clientId, versions, shown, onShow }: Props) {
  const [trySuite, trying] = useTrySuiteMutation();
  const [makeCurrent, switching] = useMakeSuiteCurrentMutation();
  const [confirming, setConfirming] = useState<number | null>(null);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string; run?: boolean } | null>(null);

  async function onTry(version: number) {
    try {
      const res = await trySuite({ clientId, version }).unwrap();
      setNotice({ tone: 'success', text: `Version ${version} is running (run ${res.runId}); the current version is unchanged.`, run: true });
    } catch (error) {
      setNotice({ tone: 'error', text: `Version ${version} could not be run: ${failureMessage(error, 'Please try again later.')}` });
    }
  }

  async function onMakeCurrent(version: number) {
    setConfirming(null);
    try {
      const res = await makeCurrent({ clientId, version }).unwrap();
      setNotice({ tone: 'success', text: res.message });
    } catch (error) {
      setNotice({ tone: 'error', text: `Version ${version} could not be made current: ${failureMessage(error, 'Please try again later.')}` });
    }
  }

  return (
    <Card id="ops-suites-versions-title" title="Versions">
      {notice && (
        <Notice tone={notice.tone}>
          {notice.text}{' '}
          {notice.run && <Link to={`${paths.opsRuns}?clientId=${encodeURIComponent(clientId)}`}>See the run</Link>}
        </Notice>
      )}
      {versions.length === 0 ? (
        <AsyncEmpty>This client has no suite yet. Import one below.</AsyncEmpty>
      ) : (
        <ul className="portal-rows ops-suites__versions">
          {versions.map((v) => (
            <li key={v.version} className={`portal-row ops-suites__version${v.version === shown ? ' ops-suites__version--shown' : ''}`}>
              <div className="ops-suites__version-main">
                <span className="portal-row__name">Version {v.version}</span>{' '}
                {v.current ? <span className="portal-badge ops-suites__current">Current</span> : <span className="portal-badge ops-suites__trial">Not current</span>}
                <p className="portal-muted ops-suites__meta">
                  {v.tests} {v.tests === 1 ? 'test' : 'tests'} · {v.fileCount} {v.fileCount === 1 ? 'file' : 'files'} · imported {formatDate(v.createdAt)}
                  {v.importedBy ? ` by ${v.importedBy}` : ''}
                </p>
              </div>
              <div className="portal-actions ops-suites__version-actions">
                <button type="button" className="btn btn--ghost portal-btn-sm" aria-pressed={v.version === shown} onClick={() => onShow(v.version)}>
                  Files
                </button>
                <button type="button" className="btn btn--ghost portal-btn-sm" disabled={trying.isLoading} onClick={() => void onTry(v.version)}>
                  Try in a run
                </button>
                {!v.current && (
                  <button type="button" className="btn btn--primary portal-btn-sm" disabled={switching.isLoading} onClick={() => setConfirming(v.version)}>
                    Make current
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {confirming !== null && (
        <ConfirmDialog
          title={`Make version ${confirming} current?`}
          message={`From now on every run of this client, and the tests it sees in its portal, use version ${confirming} of the suite.`}
          confirmText="Make current"
          onConfirm={() => void onMakeCurrent(confirming)}
          onCancel={() => setConfirming(null)}
        />
      )}
    </Card>
  );
}
