import { ALERT_RULES, type AlertChannel, type AlertChannelKind, type AlertDelivery, type AlertRule } from '@fullstop/contracts';
import { type FormEvent, useId, useState } from 'react';
import { formatDate } from '@/lib/format-date.ts';
import { AsyncFailed, AsyncLoading } from '../components/async-state.tsx';
import { Card } from '../components/card.tsx';
import type { DataColumn } from '../components/data-table.tsx';
import { DeliveriesTable } from '../components/deliveries-table.tsx';
import { ChoiceField } from '../components/text-field.tsx';
import { useViewerReason } from '../store/viewer.ts';
import {
  useCreateAlertChannelMutation,
  useDeleteAlertChannelMutation,
  useGetAlertChannelsQuery,
  useGetAlertDeliveriesQuery,
  useResendAlertConfirmationMutation,
  useTestAlertChannelMutation,
  useUpdateAlertChannelMutation,
} from './alerts-api.ts';
import './alerts-panel.css';
import './setup.css';
import { SecretOnce } from './secret-once.tsx';
import { SetupFormEnd, SetupItem, useSetupItem } from './setup-item.tsx';
import { SendTestButton, TestResult } from './test-result.tsx';

export const ALERT_KIND_NAMES: Record<AlertChannelKind, string> = { email: 'E-mail', slack: 'Slack', teams: 'Microsoft Teams', webhook: 'Webhook (signed)' };
export const ALERT_RULE_NAMES: Record<AlertRule, string> = {
  'run-failed': 'A run fails',
  'test-failing': 'A test starts failing (its first failure only)',
  'test-recovered': 'A failing test passes again',
  'security-alert': 'A new High or Medium security alert',
  'load-threshold': 'A load test misses its threshold',
};
const TARGET_LABELS: Record<AlertChannelKind, { label: string; type: 'email' | 'url'; placeholder: string }> = {
  email: { label: 'E-mail address', type: 'email', placeholder: 'qa-team@example.com' },
  slack: { label: 'Slack incoming webhook URL', type: 'url', placeholder: 'https://hooks.slack.com/services/…' },
  teams: { label: 'Teams incoming webhook URL', type: 'url', placeholder: 'https://example.webhook.office.com/…' },
  webhook: { label: 'Webhook URL', type: 'url', placeholder: 'https://hooks.example.com/fullstop-alerts' },
};

/** Slack and Teams URLs are credentials: the server keeps them sealed and shows only a hint, so an edit starts empty. */
const SEALED_KINDS: ReadonlySet<AlertChannelKind> = new Set(['slack', 'teams']);

const DELIVERY_COLUMNS: DataColumn<AlertDelivery>[] = [
  { header: 'Channel', cell: (d) => d.channelName ?? ALERT_KIND_NAMES[d.kind] },
  { header: 'Alert', cell: (d) => d.title },
];

/** Add (no `current`) or edit a channel: kind (only when adding), name, target, rules. */
function ChannelForm({ current, onDone }: { current?: AlertChannel; onDone: (secret?: string) => void }) {
  const formId = useId();
  const [kind, setKind] = useState<AlertChannelKind>(current?.kind ?? 'email');
  const [name, setName] = useState(current?.name ?? '');
  const sealed = current !== undefined && SEALED_KINDS.has(current.kind);
  const [target, setTarget] = useState(current && !sealed ? current.target : '');
  const [rules, setRules] = useState<AlertRule[]>(current?.rules ?? [...ALERT_RULES]);
  const [create, creating] = useCreateAlertChannelMutation();
  const [update, updating] = useUpdateAlertChannelMutation();
  const error = creating.error ?? updating.error;
  const busy = creating.isLoading || updating.isLoading;
  const targetSpec = TARGET_LABELS[kind];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { name: name.trim(), target: target.trim(), rules };
    // A sealed URL left empty is kept as it is.
    const call = current ? update({ id: current.id, body: sealed && !body.target ? { name: body.name, rules } : body }) : create({ kind, ...body });
    call.unwrap().then((answer) => onDone(answer.secret), () => undefined);
  };
  return (
    <form className="portal-form alerts-form" onSubmit={submit} noValidate aria-label={current ? `Edit ${current.name}` : 'New alert channel'}>
      {current ? null : (
        <ChoiceField
          id={`${formId}-kind`}
          label="Channel"
          choices={Object.keys(ALERT_KIND_NAMES) as AlertChannelKind[]}
          labels={ALERT_KIND_NAMES}
          value={kind}
          onValueChange={setKind}
        />
      )}
      <div className="portal-field">
        <label htmlFor={`${formId}-name`}>Name</label>
        <input id={`${formId}-name`} value={name} placeholder="QA team" maxLength={100} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="portal-field">
        <label htmlFor={`${formId}-target`}>{targetSpec.label}</label>
        <input
          id={`${formId}-target`}
          type={targetSpec.type}
          value={target}
          placeholder={sealed ? `Leave empty to keep ${current.target}` : targetSpec.placeholder}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setTarget(e.target.value)}
        />
        {kind === 'email' && !sealed ? <p className="portal-muted alerts-form__hint">We mail a link to a new address: nothing is sent to it until it is opened.</p> : null}
      </div>
      <fieldset>
        <legend>Tell this channel when</legend>
        {ALERT_RULES.map((rule) => (
          <label key={rule} className="alerts-form__check">
            <input
              type="checkbox"
              checked={rules.includes(rule)}
              onChange={(e) => setRules((now) => (e.target.checked ? ALERT_RULES.filter((r) => r === rule || now.includes(r)) : now.filter((r) => r !== rule)))}
            />
            {ALERT_RULE_NAMES[rule]}
          </label>
        ))}
      </fieldset>
      <SetupFormEnd error={error} onCancel={() => onDone()} busy={busy} busyText="Saving…">
        {current ? 'Save' : 'Add channel'}
      </SetupFormEnd>
    </form>
  );
}

function Channel({ channel, readOnly, onChanged }: { channel: AlertChannel; readOnly: boolean; onChanged: () => void }) {
  const item = useSetupItem();
  const [update, updating] = useUpdateAlertChannelMutation();
  const [remove, removing] = useDeleteAlertChannelMutation();
  const [test, testing] = useTestAlertChannelMutation();
  const [resend, resending] = useResendAlertConfirmationMutation();
  const waiting = !channel.confirmed;
  return (
    <SetupItem
      item={item}
      block="alerts-channel"
      title={channel.name}
      badge={{ on: channel.enabled && !waiting, text: waiting ? 'Waiting for confirmation' : channel.enabled ? 'On' : 'Paused' }}
      about={
        <>
          <p className="alerts-channel__target">
            <span>{ALERT_KIND_NAMES[channel.kind]}</span> · <span className="portal-mono">{channel.target}</span>
            {channel.secretHint ? <span className="portal-muted"> · signing secret {channel.secretHint}</span> : null}
          </p>
          <p className="portal-muted alerts-channel__rules">{channel.rules.map((r) => ALERT_RULE_NAMES[r]).join(' · ')}</p>
          {waiting ? (
            <p className="alerts-channel__waiting">
              {channel.confirmationSentAt
                ? `We mailed a confirmation link to ${channel.target} on ${formatDate(channel.confirmationSentAt)}.`
                : `The confirmation link to ${channel.target} could not be sent yet.`}{' '}
              Nothing is sent to this address until it is opened.
            </p>
          ) : null}
        </>
      }
      secretLabel="Alert webhook signing secret"
    >
      {item.editing ? (
        <ChannelForm
          current={channel}
          onDone={() => {
            item.setEditing(false);
            onChanged();
          }}
        />
      ) : readOnly ? null : (
        <div className="portal-actions">
          {waiting ? (
            <button type="button" className="btn btn--primary portal-btn-sm" disabled={resending.isLoading} onClick={() => void resend(channel.id).finally(onChanged)}>
              {resending.isLoading ? 'Sending…' : 'Send the link again'}
            </button>
          ) : (
            <SendTestButton className="btn btn--primary portal-btn-sm" sending={testing.isLoading} onSend={() => void test(channel.id).finally(onChanged)}>
              Send a test alert
            </SendTestButton>
          )}
          <button type="button" className="btn btn--ghost portal-btn-sm" onClick={() => item.setEditing(true)}>
            Edit
          </button>
          <button
            type="button"
            className="btn btn--ghost portal-btn-sm"
            disabled={updating.isLoading}
            onClick={() => void update({ id: channel.id, body: { enabled: !channel.enabled } }).finally(onChanged)}
          >
            {channel.enabled ? 'Pause' : 'Resume'}
          </button>
          {channel.kind === 'webhook' ? (
            <button
              type="button"
              className="btn btn--ghost portal-btn-sm"
              disabled={updating.isLoading}
              onClick={() =>
                void update({ id: channel.id, body: { rotateSecret: true } })
                  .unwrap()
                  .then((answer) => item.setSecret(answer.secret ?? null), () => undefined)
                  .finally(onChanged)
              }
            >
              New signing secret
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn--ghost portal-btn-sm"
            disabled={removing.isLoading}
            onClick={() =>
              item.confirm.ask({
                title: `Remove ${channel.name}?`,
                message: 'No more alerts are sent to it. Its past deliveries stay listed below.',
                confirmText: 'Remove',
                onConfirm: () => void remove(channel.id).finally(onChanged),
              })
            }
          >
            Remove
          </button>
        </div>
      )}
      <TestResult answer={testing.data} error={testing.error ?? updating.error ?? resending.error} />
      {resending.data && !resending.error ? <p className="portal-muted" role="status">A new link is on its way to {channel.target}.</p> : null}
    </SetupItem>
  );
}

/**
 * Setup → Alerts: the channels your team is told through when a run fails, a test starts failing or recovers,
 * a new security alert appears or a load threshold is missed; a test alert on demand; every delivery and its answer.
 */
export function AlertsPanel() {
  const channels = useGetAlertChannelsQuery();
  const deliveries = useGetAlertDeliveriesQuery();
  const viewerReason = useViewerReason('manage alerts');
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => {
    void channels.refetch();
    void deliveries.refetch();
  };
  const list = channels.data?.channels ?? [];
  return (
    <Card id="alerts-title" title="Alerts">
      <p className="portal-muted portal-card__lead">
        Be told when something breaks: by e-mail, in Slack or Microsoft Teams, or on your own signed webhook. A test marked flaky stays silent.
      </p>
      {viewerReason ? <p className="portal-muted">{viewerReason}</p> : null}
      {secret ? <SecretOnce key={secret} secret={secret} label="Alert webhook signing secret" /> : null}
      {channels.isLoading ? (
        <AsyncLoading>Loading your alert channels…</AsyncLoading>
      ) : channels.isError ? (
        <AsyncFailed>Your alert channels could not be loaded. Please try again later.</AsyncFailed>
      ) : (
        <div className="alerts-channels">
          {list.length === 0 && !adding ? <p className="portal-muted">No alert channel yet.</p> : null}
          {list.map((c) => (
            <Channel key={c.id} channel={c} readOnly={Boolean(viewerReason)} onChanged={refresh} />
          ))}
          {adding ? (
            <section className="portal-panel">
              <ChannelForm
                onDone={(newSecret) => {
                  setAdding(false);
                  setSecret(newSecret ?? null);
                  refresh();
                }}
              />
            </section>
          ) : viewerReason ? null : (
            <div className="portal-actions">
              <button type="button" className="btn btn--primary portal-btn-sm" onClick={() => setAdding(true)}>
                Add a channel
              </button>
            </div>
          )}
        </div>
      )}
      <h3 className="portal-panel__title alerts-deliveries__head">Recent alert deliveries</h3>
      {deliveries.data ? <DeliveriesTable deliveries={deliveries.data.deliveries} columns={DELIVERY_COLUMNS} empty="No alert has been sent yet." /> : null}
    </Card>
  );
}
