import type { ClientProfile } from '@fullstop/contracts';
import { useGenerateApiKeyMutation } from '../store/portal-api.ts';
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

export function ApiKeyPanel({ profile }: { profile: ClientProfile }) {
  const [generate, { isLoading }] = useGenerateApiKeyMutation();
  return (
    <section className="portal-card" aria-labelledby="web-testing-title">
      <h2 id="web-testing-title" className="portal-card__title">
        Web Testing
      </h2>
      <div className="portal-field">
        <label htmlFor="setup-website">Website</label>
        <input id="setup-website" value={profile.website} readOnly />
      </div>
      <div className="portal-field">
        <label htmlFor="setup-api-key">API Key</label>
        <input id="setup-api-key" className="portal-mono" value={profile.apiToken} readOnly spellCheck={false} />
        <p className="portal-muted portal-field__hint">
          Send it in the <code>x-api-key</code> header to run your tests from CI. A new key replaces this one at once.
        </p>
      </div>
      <div className="portal-actions">
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
        <button
          type="button"
          className="btn btn--primary"
          disabled={isLoading}
          onClick={() => void generate(profile.id)}
        >
          {isLoading ? 'Generating…' : 'Generate New Key'}
        </button>
      </div>
    </section>
  );
}
