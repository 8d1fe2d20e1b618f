import { useState, type FormEvent } from 'react';
import { Card } from '../../components/card.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useChangeOriginMutation } from '../ops-api.ts';
import { ClientCardForm } from './client-card-form.tsx';
import { useCardNotice } from './use-card-notice.ts';

/** The origins beyond its website that the client's tests may reach: listed, added, removed. */
export function ClientOrigins({ clientId, website, origins }: { clientId: string; website: string; origins: string[] }) {
  const [origin, setOrigin] = useState('');
  const { notice, setNotice, act } = useCardNotice();
  const [change, { isLoading }] = useChangeOriginMutation();

  async function run(value: string, remove: boolean) {
    const done = await act(() => change({ clientId, origin: value, remove }).unwrap(), (answer) => answer.message);
    if (done && !remove) setOrigin('');
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
    <Card id="ops-origins-title" title="Target origins">
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
      <ClientCardForm label="Add an origin" onSubmit={onSubmit} busy={isLoading} submitText="Add origin" notice={notice}>
        <TextField id="ops-origin" label="Origin" placeholder="https://api.example.com" value={origin} onChange={(e) => setOrigin(e.target.value)} />
      </ClientCardForm>
    </Card>
  );
}
