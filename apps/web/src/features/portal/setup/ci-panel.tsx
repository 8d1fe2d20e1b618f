import { useId, useState } from 'react';
import { copyText } from '@/lib/copy-text.ts';
import { AsyncEmpty, AsyncLoading } from '../components/async-state.tsx';
import { BusyButton } from '../components/busy-button.tsx';
import { Card } from '../components/card.tsx';
import { useConfirm } from '../components/confirm-dialog.tsx';
import { useViewerReason } from '../store/viewer.ts';
import { useGetBadgeQuery, useRegenerateBadgeMutation } from './ci-api.ts';
import { CI_KEY_SECRET, githubActionsSnippet, gitlabCiSnippet } from './ci-snippets.ts';
import { ViewerNote } from '../components/viewer-note.tsx';
import './ci-panel.css';

/** A block of text to paste elsewhere, with its Copy button and a "Copied" note for screen readers too. */
function CopyBlock({ label, text }: { label: string; text: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="ci-block">
      <div className="ci-block__head">
        <h3 id={id} className="portal-panel__title">
          {label}
        </h3>
        <button
          type="button"
          className="btn btn--ghost portal-btn-sm"
          aria-describedby={id}
          onClick={() =>
            copyText(text).then(
              () => setCopied(true),
              (error: unknown) => console.error('Could not copy', error),
            )
          }
        >
          Copy
        </button>
        <span role="status" className="portal-muted ci-block__copied">
          {copied ? 'Copied' : ''}
        </span>
      </div>
      <pre className="ci-block__code" tabIndex={0} aria-labelledby={id}>
        {text}
      </pre>
    </div>
  );
}

/**
 * The badge's address on this page's own origin: the address to publish is built from the server's PUBLIC_URL,
 * which the portal may be reached by another name of (localhost, 127.0.0.1), and the portal's CSP loads images
 * from its own origin only.
 */
function sameOriginPath(url: string): string {
  try {
    const { pathname, search } = new URL(url, window.location.origin);
    return `${pathname}${search}`;
  } catch {
    return url;
  }
}

/**
 * Setup → CI and badge: ready-made GitHub Actions and GitLab CI jobs (the API key stays a CI secret), and the
 * status badge for a README, whose address can be replaced.
 */
export function CiPanel() {
  const origin = window.location.origin;
  const badge = useGetBadgeQuery();
  const [regenerate, { isLoading }] = useRegenerateBadgeMutation();
  const viewerNote = useViewerReason('regenerate the badge');
  const confirm = useConfirm();
  return (
    <Card id="ci-title" title="CI and badge">
      <p className="portal-muted portal-card__lead">
        Run your tests from your pipeline after each deploy. Store your API key as a CI secret named <code>{CI_KEY_SECRET}</code>; the job
        fails when a test fails (exit code 1) or when your tests could not run (exit code 2), and keeps a JUnit report.
      </p>
      <div className="ci-blocks">
        <CopyBlock label="GitHub Actions" text={githubActionsSnippet(origin)} />
        <CopyBlock label="GitLab CI" text={gitlabCiSnippet(origin)} />
      </div>

      <h3 className="portal-panel__title ci-badge__title">Status badge</h3>
      {badge.isLoading ? (
        <AsyncLoading>Loading your badge…</AsyncLoading>
      ) : !badge.data ? (
        <AsyncEmpty>Your badge could not be loaded. Please try again later.</AsyncEmpty>
      ) : (
        <>
          <p className="portal-muted">
            It shows the result of your latest finished run. Anyone with its address can see it: regenerate it to retire the old address.
          </p>
          <p className="ci-badge__preview">
            <img src={sameOriginPath(badge.data.url)} alt={`Fullstop QA: ${badge.data.state}`} height={20} />
          </p>
          <CopyBlock label="Markdown for your README" text={badge.data.markdown} />
          <div className="portal-actions">
            <BusyButton
              type="button"
              className="btn btn--ghost"
              busy={isLoading}
              busyText="Regenerating…"
              disabled={viewerNote !== null}
              aria-describedby={viewerNote ? 'ci-badge-viewer-note' : undefined}
              onClick={() =>
                confirm.ask({
                  title: 'Regenerate the badge address?',
                  message:
                    'The current address stops working at once: every README or page that shows it displays a broken image until you paste the new Markdown.',
                  confirmText: 'Regenerate',
                  onConfirm: () => void regenerate(),
                })
              }
            >
              Regenerate badge address
            </BusyButton>
          </div>
          <ViewerNote id="ci-badge-viewer-note" note={viewerNote} />
        </>
      )}
      {confirm.dialog}
    </Card>
  );
}
