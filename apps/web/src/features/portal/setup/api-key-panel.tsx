import type { ClientProfile } from '@fullstop/contracts';
import { useState } from 'react';
import { copyText } from '@/lib/copy-text.ts';
import { BusyButton } from '../components/busy-button.tsx';
import { Card } from '../components/card.tsx';
import { useConfirm } from '../components/confirm-dialog.tsx';
import { useViewerReason } from '../store/viewer.ts';
import { maskKey } from './mask-key.ts';
import { useGenerateApiKeyMutation } from './setup-api.ts';
import { SETUP_TEXT } from './setup-texts.ts';
import { ViewerNote } from '../components/viewer-note.tsx';

/**
 * The website and the client's API key: masked until asked for (Show), copied whole, and replaced only after a
 * confirmation, since the old key stops working at once for every CI job that sends it.
 */
export function ApiKeyPanel({ profile }: { profile: ClientProfile }) {
  const [generate, { isLoading }] = useGenerateApiKeyMutation();
  const viewerNote = useViewerReason('generate API keys');
  const [shown, setShown] = useState(false);
  const confirm = useConfirm();
  return (
    <Card id="web-testing-title" title="Web Testing">
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
        <BusyButton
          type="button"
          busy={isLoading}
          busyText="Generating…"
          disabled={viewerNote !== null}
          aria-describedby={viewerNote ? 'api-key-viewer-note' : undefined}
          onClick={() =>
            confirm.ask({
              title: 'Generate a new API key?',
              message: 'Your current key stops working at once: every CI job or script that sends it fails until you give it the new key.',
              confirmText: 'Generate New Key',
              onConfirm: () => {
                setShown(true);
                void generate(profile.id);
              },
            })
          }
        >
          Generate New Key
        </BusyButton>
      </div>
      <ViewerNote id="api-key-viewer-note" note={viewerNote} />
      {confirm.dialog}
    </Card>
  );
}
