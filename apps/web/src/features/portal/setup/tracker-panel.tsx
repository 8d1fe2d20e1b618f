import type { Integration, IntegrationDelivery, IntegrationKind } from '@fullstop/contracts';
import { type FormEvent, useId, useState } from 'react';
import { AsyncFailed, AsyncLoading } from '../components/async-state.tsx';
import { BusyButton } from '../components/busy-button.tsx';
import { Card } from '../components/card.tsx';
import type { DataColumn } from '../components/data-table.tsx';
import { DeliveriesTable } from '../components/deliveries-table.tsx';
import { ViewerNote } from '../components/viewer-note.tsx';
import { useViewerReason } from '../store/viewer.ts';
import {
  useConnectIntegrationMutation,
  useDisconnectIntegrationMutation,
  useGetDeliveriesQuery,
  useGetIntegrationsQuery,
  useSyncIntegrationsMutation,
  useTestIntegrationMutation,
} from './tracker-api.ts';
import { SetupFormEnd, SetupItem, useSetupItem } from './setup-item.tsx';
import { SendTestButton, TestResult } from './test-result.tsx';
import './setup.css';
import './tracker-panel.css';

interface FieldSpec {
  name: string;
  label: string;
  type?: 'url' | 'email' | 'password' | 'text';
  placeholder?: string;
  /** Left empty when replacing: the stored value is kept, for the same destination only (what `keepFor` names). */
  keepable?: boolean;
  keepFor?: string;
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
      { name: 'token', label: 'API token', type: 'password', keepable: true, keepFor: 'the same site URL and account email' },
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

const DELIVERY_COLUMNS: DataColumn<IntegrationDelivery>[] = [
  { header: 'Tracker', cell: (d) => KIND_TITLES[d.kind] },
  { header: 'Bug', cell: (d) => (d.bugNumber === null ? '—' : `BUG-${d.bugNumber}`) },
  { header: 'Event', cell: (d) => d.event },
];

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
            placeholder={f.keepable && current ? `Leave empty to keep the current one${f.keepFor ? ` (${f.keepFor} only)` : ''}` : f.placeholder}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
          />
        </div>
      ))}
      <SetupFormEnd error={error} onCancel={() => onDone()} busy={isLoading} busyText="Checking…">
        {current ? 'Save' : 'Connect'}
      </SetupFormEnd>
    </form>
  );
}

function TrackerKind({ spec, current, readOnly, onChanged }: { spec: (typeof KINDS)[number]; current: Integration | undefined; readOnly: boolean; onChanged: () => void }) {
  const item = useSetupItem();
  const [disconnect, disconnecting] = useDisconnectIntegrationMutation();
  const [test, testing] = useTestIntegrationMutation();
  return (
    <SetupItem
      item={item}
      block="tracker-kind"
      title={spec.title}
      badge={current ? { on: true, text: 'Connected' } : { on: false, text: 'Not connected' }}
      about={
        <>
          <p className="portal-muted tracker-kind__lead">{spec.lead}</p>
          {current && !item.editing ? (
            <p className="tracker-kind__config">
              <span className="portal-mono">{configSummary(current)}</span>
              <span className="portal-muted"> · {spec.kind === 'webhook' ? 'signing secret' : 'token'} {current.secretHint}</span>
            </p>
          ) : null}
        </>
      }
      secretLabel="Webhook signing secret"
    >
      {item.editing ? (
        <TrackerForm
          spec={spec}
          current={current}
          onDone={(newSecret) => {
            item.setEditing(false);
            if (newSecret) item.setSecret(newSecret);
            onChanged();
          }}
        />
      ) : readOnly ? null : (
        <div className="portal-actions">
          <button type="button" className="btn btn--primary portal-btn-sm" onClick={() => item.setEditing(true)}>
            {current ? 'Replace' : 'Connect'}
          </button>
          {current ? (
            <>
              <SendTestButton sending={testing.isLoading} onSend={() => void test(spec.kind).finally(onChanged)}>
                Send a test delivery
              </SendTestButton>
              <button
                type="button"
                className="btn btn--ghost portal-btn-sm"
                disabled={disconnecting.isLoading}
                onClick={() =>
                  item.confirm.ask({
                    title: `Disconnect ${KIND_TITLES[spec.kind]}?`,
                    message: 'Nothing more is sent to it. Issues already created stay linked to their bugs.',
                    confirmText: 'Disconnect',
                    onConfirm: () => {
                      item.setSecret(null);
                      void disconnect(spec.kind).finally(onChanged);
                    },
                  })
                }
              >
                Disconnect
              </button>
            </>
          ) : null}
        </div>
      )}
      <TestResult answer={testing.data} error={testing.error} className="tracker-kind__result" />
    </SetupItem>
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
  // The server names each change apart (connect, disconnect, test, sync); the panel says it once, before any of them.
  const viewerReason = useViewerReason('connect trackers');
  const refresh = () => {
    void integrations.refetch();
    void deliveries.refetch();
  };
  const byKind = new Map((integrations.data?.integrations ?? []).map((i) => [i.kind, i]));
  const hasIssues = byKind.has('github') || byKind.has('jira');
  return (
    <Card id="tracker-title" title="Bug tracker">
      <p className="portal-muted portal-card__lead">Send the bugs you accept to your own tracker, and keep it up to date as they move on.</p>
      <ViewerNote note={viewerReason} />
      {integrations.isLoading ? (
        <AsyncLoading>Loading your connections…</AsyncLoading>
      ) : integrations.isError ? (
        <AsyncFailed>Your connections could not be loaded. Please try again later.</AsyncFailed>
      ) : (
        <div className="tracker-kinds">
          {KINDS.map((spec) => (
            <TrackerKind key={spec.kind} spec={spec} current={byKind.get(spec.kind)} readOnly={viewerReason !== null} onChanged={refresh} />
          ))}
        </div>
      )}
      <div className="tracker-deliveries__head">
        <h3 className="portal-panel__title">Recent deliveries</h3>
        {hasIssues && !viewerReason ? (
          <BusyButton
            type="button"
            className="btn btn--ghost portal-btn-sm"
            busy={syncing.isLoading}
            busyText="Checking…"
            onClick={() => void sync().finally(refresh)}
          >
            Check issues now
          </BusyButton>
        ) : null}
      </div>
      {syncing.data ? (
        <p className="portal-muted" role="status">
          {syncing.data.checked} issue{syncing.data.checked === 1 ? '' : 's'} checked, {syncing.data.updated} bug{syncing.data.updated === 1 ? '' : 's'} marked fixed.
        </p>
      ) : null}
      {deliveries.data ? <DeliveriesTable deliveries={deliveries.data.deliveries} columns={DELIVERY_COLUMNS} empty="Nothing has been sent yet." /> : null}
    </Card>
  );
}
