import { useState } from 'react';
import { failureMessage } from '@/lib/failure-message.ts';
import { AsyncFailed } from '../../components/async-state.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useRevealApiKeyMutation } from '../ops-api.ts';

/** The client's API key masked; "Reveal" shows it whole after a confirmation, since every reveal is audited. */
export function ClientApiKey({ clientId, masked }: { clientId: string; masked: string }) {
  const [asking, setAsking] = useState(false);
  const [whole, setWhole] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [reveal, { isLoading }] = useRevealApiKeyMutation();

  async function onConfirm() {
    setAsking(false);
    try {
      setWhole((await reveal(clientId).unwrap()).apiKey);
      setFailure(null);
    } catch (error) {
      setFailure(failureMessage(error));
    }
  }

  return (
    <div>
      <div className="ops-key">
        <code className="portal-mono">{whole ?? masked}</code>
        {whole ? (
          <button type="button" className="btn btn--ghost portal-btn-sm" onClick={() => setWhole(null)}>
            Hide
          </button>
        ) : (
          <button type="button" className="btn btn--ghost portal-btn-sm" disabled={isLoading} onClick={() => setAsking(true)}>
            Reveal
          </button>
        )}
      </div>
      {failure && (
        <AsyncFailed>{failure}</AsyncFailed>
      )}
      {asking && (
        <ConfirmDialog
          title="Reveal the API key?"
          message="The whole key will be shown, and the reveal is written to the audit log with your name, the client and the time."
          confirmText="Reveal"
          onConfirm={() => void onConfirm()}
          onCancel={() => setAsking(false)}
        />
      )}
    </div>
  );
}
