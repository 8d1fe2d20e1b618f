import { useState } from 'react';
import { copyText } from '@/lib/copy-text.ts';
import { Notice } from '../components/notice.tsx';
import './setup.css';

/** A new webhook signing secret, shown this once with Copy (key it by the secret, so a new one reads "Copy" again). */
export function SecretOnce({ secret, label }: { secret: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Notice tone="success" className="setup-secret" as="div">
      <p>Your signing secret. It is shown only this once: store it with your webhook receiver now.</p>
      <div className="portal-key-field">
        <input className="portal-mono" value={secret} readOnly aria-label={label} spellCheck={false} />
        <button type="button" className="btn btn--ghost portal-btn-sm" onClick={() => copyText(secret).then(() => setCopied(true), () => setCopied(false))}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </Notice>
  );
}
