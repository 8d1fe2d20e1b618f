import { useState, type FormEvent } from 'react';
import { TextField } from '../../components/text-field.tsx';
import { failureMessage, useChangeOriginMutation } from '../ops-api.ts';

/** The origins beyond its website that the client's tests may reach: listed, added, removed. */
export function ClientOrigins({ clientId, website, origins }: { clientId: string; website: string; origins: string[] }) {
  const [origin, setOrigin] = useState('');
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [change, { isLoading }] = useChangeOriginMutation();

  async function run(value: string, remove: boolean) {
    try {
      const { message } = await change({ clientId, origin: value, remove }).unwrap();
      setNotice({ tone: 'success', text: message });
      if (!remove) setOrigin('');
    } catch (error) {
      setNotice({ tone: 'error', text: failureMessage(error) });
    }
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!origin.trim()) {
      setNotice({ tone: 'error', text: 'Enter an origin such as https://api.example.com.' });
      return;
    }
    void run(origin.trim(), false);
  };

  return (
    <section className="portal-card" aria-labelledby="ops-origins-title">
      <h2 id="ops-origins-title" className="portal-card__title">
        Target origins
      </h2>
      <p className="portal-muted">
        Tests may always reach <span className="ops-wrap">{website}</span>; add the other origins they need.
      </p>
      {origins.length > 0 && (
        <ul className="ops-list">
          {origins.map((o) => (
            <li key={o}>
              <span className="portal-mono ops-wrap">{o}</span>
              <button type="button" className="btn btn--ghost portal-btn-sm" disabled={isLoading} onClick={() => void run(o, true)} aria-label={`Remove ${o}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="ops-inline-form" onSubmit={onSubmit} noValidate aria-label="Add an origin">
        <TextField id="ops-origin" label="Origin" placeholder="https://api.example.com" value={origin} onChange={(e) => setOrigin(e.target.value)} />
        <button type="submit" className="btn btn--primary portal-btn-sm" disabled={isLoading}>
          Add origin
        </button>
      </form>
      {notice && (
        <p className={`portal-alert portal-alert--${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'} style={{ marginTop: 12 }}>
          {notice.text}
        </p>
      )}
    </section>
  );
}
