import type { ClientProfile } from '@fullstop/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { useViewerReason } from '../store/viewer.ts';
import { maskKey } from './mask-key.ts';
import { useGenerateApiKeyMutation } from './setup-api.ts';
import { SETUP_TEXT } from './setup-texts.ts';

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Older browsers, and pages not served over a secure context, have no async clipboard.
  const area = document.createElement('textarea');
  area.value = text;
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/**
 * The website and the client's API key: masked until asked for (Show), copied whole, and replaced only after a
 * confirmation, since the old key stops working at once for every CI job that sends it.
 */
export function ApiKeyPanel({ profile }: { profile: ClientProfile }) {
  const [generate, { isLoading }] = useGenerateApiKeyMutation();
  const viewerNote = useViewerReason('generate API keys');
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  return (
    <section className="portal-card" aria-labelledby="web-testing-title">
      <h2 id="web-testing-title" className="portal-card__title">
        Web Testing
      </h2>
      <div className="portal-field">
        <label htmlFor="setup-website">Website</label>
        <input id="setup-website" value={profile.website} readOnly />
      </div>
      {/* A viewer is sent no key (it would let them run tests): the portal reads with their login instead. */}
      {profile.apiToken === '' ? (
        <p className="portal-muted">Your role (viewer) does not show the API key. An owner or a member of your team can read it here.</p>
      ) : (
        <div className="portal-field">
          <label htmlFor="setup-api-key">API Key</label>
          <div className="portal-key-field">
            <input
              id="setup-api-key"
              className="portal-mono"
              value={shown ? profile.apiToken : maskKey(profile.apiToken)}
              readOnly
              spellCheck={false}
              autoComplete="off"
            />
            <button type="button" className="btn btn--ghost portal-btn-sm" aria-pressed={shown} aria-controls="setup-api-key" onClick={() => setShown((v) => !v)}>
              {shown ? 'Hide' : 'Show'}
            </button>
          </div>
          <p className="portal-muted portal-field__hint">
            Send it in the <code>x-api-key</code> header to run your tests from CI. A new key replaces this one at once.
          </p>
        </div>
      )}
      <div className="portal-actions">
        {profile.apiToken !== '' && (
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() =>
              copyText(profile.apiToken).then(
                () => window.alert(SETUP_TEXT.tokenCopied),
                (error: unknown) => console.error('Could not copy the token', error),
              )
            }
          >
            Copy Token
          </button>
        )}
        <button
          type="button"
          className="btn btn--primary"
          disabled={isLoading || viewerNote !== null}
          aria-describedby={viewerNote ? 'api-key-viewer-note' : undefined}
          onClick={() => setConfirming(true)}
        >
          {isLoading ? 'Generating…' : 'Generate New Key'}
        </button>
      </div>
      {viewerNote && (
        <p id="api-key-viewer-note" className="portal-muted portal-field__hint">
          {viewerNote}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title="Generate a new API key?"
          message="Your current key stops working at once: every CI job or script that sends it fails until you give it the new key."
          confirmText="Generate New Key"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            setShown(true);
            void generate(profile.id);
          }}
        />
      )}
    </section>
  );
}
