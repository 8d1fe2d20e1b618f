import type { Integration, IntegrationDelivery, IntegrationKind } from '@fullstop/contracts';
import { type FormEvent, useId, useState } from 'react';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import type { ApiFailure } from '../store/portal-api.ts';
import {
  useConnectIntegrationMutation,
  useDisconnectIntegrationMutation,
  useGetDeliveriesQuery,
  useGetIntegrationsQuery,
  useSyncIntegrationsMutation,
  useTestIntegrationMutation,
} from './tracker-api.ts';
import './tracker-panel.css';
import { DeliveryResult, deliveryWhen } from './delivery-result.tsx';

interface FieldSpec {
  name: string;
  label: string;
  type?: 'url' | 'email' | 'password' | 'text';
  placeholder?: string;
  /** Left empty when replacing: the stored value is kept. */
  keepable?: boolean;
}

const KINDS: { kind: IntegrationKind; title: string; lead: string; fields: FieldSpec[] }[] = [
  {
    kind: 'github',
    title: 'GitHub Issues',
    lead: 'Bugs you accept become issues in your repository; verifying, won’t fix or not a bug closes them. Closing an issue marks the bug fixed.',
    fields: [
      { name: 'owner', label: 'Owner', placeholder: 'acme' },
      { name: 'repo', label: 'Repository', placeholder: 'shop' },
      { name: 'token', label: 'Token (Issues: read and write)', type: 'password', keepable: true },
    ],
  },
  {
    kind: 'jira',
    title: 'Jira Cloud',
    lead: 'Bugs you accept become Bug issues in your project, and status changes are added as comments. A done issue marks the bug fixed.',
    fields: [
      { name: 'siteUrl', label: 'Site URL', type: 'url', placeholder: 'https://acme.atlassian.net' },
      { name: 'projectKey', label: 'Project key', placeholder: 'SHOP' },
      { name: 'email', label: 'Account email', type: 'email' },
      { name: 'token', label: 'API token', type: 'password', keepable: true },
    ],
  },
  {
    kind: 'webhook',
    title: 'Webhook',
    lead: 'Every status change and comment is sent to your URL as signed JSON (see the documentation for verifying it).',
    fields: [{ name: 'url', label: 'URL', type: 'url', placeholder: 'https://hooks.example.com/fullstop' }],
  },
];

const KIND_TITLES: Record<IntegrationKind, string> = { github: 'GitHub', jira: 'Jira', webhook: 'Webhook' };

function failureMessage(error: unknown): string {
  return (error as ApiFailure | undefined)?.message ?? 'Something went wrong. Please try again.';
}

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

function configSummary(integration: Integration): string {
  const c = integration.config;
  if (integration.kind === 'github') return `${c.owner}/${c.repo}`;
  if (integration.kind === 'jira') return `${c.projectKey} on ${c.siteUrl} (${c.email})`;
  return c.url ?? '';
}

function TrackerForm({ spec, current, onDone }: { spec: (typeof KINDS)[number]; current: Integration | undefined; onDone: (secret?: string) => void }) {
  const formId = useId();
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...(current?.config ?? {}) }));
  const [connect, { isLoading, error }] = useConnectIntegrationMutation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: Record<string, unknown> = {};
    for (const f of spec.fields) if (values[f.name]?.trim()) body[f.name] = values[f.name]!.trim();
    connect({ kind: spec.kind, body })
      .unwrap()
      .then((answer) => onDone(answer.secret), () => undefined);
  };
  return (
    <form className="portal-form tracker-form" onSubmit={submit} noValidate>
      {spec.fields.map((f) => (
        <div className="portal-field" key={f.name}>
          <label htmlFor={`${formId}-${f.name}`}>{f.label}</label>
          <input
            id={`${formId}-${f.name}`}
            type={f.type ?? 'text'}
            value={values[f.name] ?? ''}
            placeholder={f.keepable && current ? 'Leave empty to keep the current one' : f.placeholder}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
          />
        </div>
      ))}
      {error ? (
        <p className="portal-alert portal-alert--error" role="alert">
          {failureMessage(error)}
        </p>
      ) : null}
      <div className="portal-actions">
        <button type="button" className="btn btn--ghost" onClick={() => onDone()}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary" disabled={isLoading}>
          {isLoading ? 'Checking…' : current ? 'Save' : 'Connect'}
        </button>
      </div>
    </form>
  );
}

function TrackerKind({ spec, current, onChanged }: { spec: (typeof KINDS)[number]; current: Integration | undefined; onChanged: () => void }) {
  const titleId = useId();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [disconnect, disconnecting] = useDisconnectIntegrationMutation();
  const [test, testing] = useTestIntegrationMutation();
  return (
    <section className="portal-panel tracker-kind" aria-labelledby={titleId}>
      <div className="tracker-kind__head">
        <h3 id={titleId} className="portal-panel__title">
          {spec.title}
        </h3>
        <span className={current ? 'tracker-badge tracker-badge--on' : 'tracker-badge'}>{current ? 'Connected' : 'Not connected'}</span>
      </div>
      <p className="portal-muted tracker-kind__lead">{spec.lead}</p>
      {current && !editing ? (
        <p className="tracker-kind__config">
          <span className="portal-mono">{configSummary(current)}</span>
          <span className="portal-muted"> · {spec.kind === 'webhook' ? 'signing secret' : 'token'} {current.secretHint}</span>
        </p>
      ) : null}
      {secret ? (
        <div className="portal-alert portal-alert--success tracker-secret" role="status">
          <p>Your signing secret. It is shown only this once: store it with your webhook receiver now.</p>
          <div className="portal-key-field">
            <input className="portal-mono" value={secret} readOnly aria-label="Webhook signing secret" spellCheck={false} />
            <button
              type="button"
              className="btn btn--ghost portal-btn-sm"
              onClick={() => copyText(secret).then(() => setCopied(true), () => setCopied(false))}
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
        </div>
      ) : null}
      {editing ? (
        <TrackerForm
          spec={spec}
          current={current}
          onDone={(newSecret) => {
            setEditing(false);
            if (newSecret) {
              setSecret(newSecret);
              setCopied(false);
            }
            onChanged();
          }}
        />
      ) : (
        <div className="portal-actions">
          <button type="button" className="btn btn--primary portal-btn-sm" onClick={() => setEditing(true)}>
            {current ? 'Replace' : 'Connect'}
          </button>
          {current ? (
            <>
              <button type="button" className="btn btn--ghost portal-btn-sm" disabled={testing.isLoading} onClick={() => void test(spec.kind).finally(onChanged)}>
                {testing.isLoading ? 'Sending…' : 'Send a test delivery'}
              </button>
              <button type="button" className="btn btn--ghost portal-btn-sm" disabled={disconnecting.isLoading} onClick={() => setConfirming(true)}>
                Disconnect
              </button>
            </>
          ) : null}
        </div>
      )}
      {testing.data ? (
        <p className={`portal-alert ${testing.data.delivered ? 'portal-alert--success' : 'portal-alert--error'} tracker-kind__result`} role="status">
          {testing.data.message}
        </p>
      ) : testing.error ? (
        <p className="portal-alert portal-alert--error tracker-kind__result" role="alert">
          {failureMessage(testing.error)}
        </p>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={`Disconnect ${KIND_TITLES[spec.kind]}?`}
          message="Nothing more is sent to it. Issues already created stay linked to their bugs."
          confirmText="Disconnect"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            setSecret(null);
            void disconnect(spec.kind).finally(onChanged);
          }}
        />
      ) : null}
    </section>
  );
}

function Deliveries({ deliveries }: { deliveries: IntegrationDelivery[] }) {
  if (!deliveries.length) return <p className="portal-muted">Nothing has been sent yet.</p>;
  return (
    <div className="tracker-deliveries">
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Tracker</th>
            <th scope="col">Bug</th>
            <th scope="col">Event</th>
            <th scope="col">Result</th>
            <th scope="col">Attempts</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id}>
              <td data-label="When">{deliveryWhen(d)}</td>
              <td data-label="Tracker">{KIND_TITLES[d.kind]}</td>
              <td data-label="Bug">{d.bugNumber === null ? '—' : `BUG-${d.bugNumber}`}</td>
              <td data-label="Event">{d.event}</td>
              <td data-label="Result">
                <DeliveryResult delivery={d} block="tracker" />
              </td>
              <td data-label="Attempts">{d.attempts}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Setup → Bug tracker: connect the client's GitHub, Jira or webhook, see what was sent to them, and read the
 * issues back on demand. Secrets are never shown again; a new webhook secret is shown once, with Copy.
 */
export function TrackerPanel() {
  const integrations = useGetIntegrationsQuery();
  const deliveries = useGetDeliveriesQuery();
  const [sync, syncing] = useSyncIntegrationsMutation();
  const refresh = () => {
    void integrations.refetch();
    void deliveries.refetch();
  };
  const byKind = new Map((integrations.data?.integrations ?? []).map((i) => [i.kind, i]));
  const hasIssues = byKind.has('github') || byKind.has('jira');
  return (
    <section className="portal-card" aria-labelledby="tracker-title">
      <h2 id="tracker-title" className="portal-card__title">
        Bug tracker
      </h2>
      <p className="portal-muted portal-card__lead">Send the bugs you accept to your own tracker, and keep it up to date as they move on.</p>
      {integrations.isLoading ? (
        <p className="portal-muted" role="status">
          Loading your connections…
        </p>
      ) : integrations.isError ? (
        <p className="portal-alert portal-alert--error" role="alert">
          Your connections could not be loaded. Please try again later.
        </p>
      ) : (
        <div className="tracker-kinds">
          {KINDS.map((spec) => (
            <TrackerKind key={spec.kind} spec={spec} current={byKind.get(spec.kind)} onChanged={refresh} />
          ))}
        </div>
      )}
      <div className="tracker-deliveries__head">
        <h3 className="portal-panel__title">Recent deliveries</h3>
        {hasIssues ? (
          <button type="button" className="btn btn--ghost portal-btn-sm" disabled={syncing.isLoading} onClick={() => void sync().finally(refresh)}>
            {syncing.isLoading ? 'Checking…' : 'Check issues now'}
          </button>
        ) : null}
      </div>
      {syncing.data ? (
        <p className="portal-muted" role="status">
          {syncing.data.checked} issue{syncing.data.checked === 1 ? '' : 's'} checked, {syncing.data.updated} bug{syncing.data.updated === 1 ? '' : 's'} marked fixed.
        </p>
      ) : null}
      {deliveries.data ? <Deliveries deliveries={deliveries.data.deliveries} /> : null}
    </section>
  );
}
