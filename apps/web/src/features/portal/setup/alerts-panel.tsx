import { ALERT_RULES, type AlertChannel, type AlertChannelKind, type AlertDelivery, type AlertRule } from '@fullstop/contracts';
import { type FormEvent, useId, useState } from 'react';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import type { ApiFailure } from '../store/portal-api.ts';
import { useViewerReason } from '../store/viewer.ts';
import {
  useCreateAlertChannelMutation,
  useDeleteAlertChannelMutation,
  useGetAlertChannelsQuery,
  useGetAlertDeliveriesQuery,
  useTestAlertChannelMutation,
  useUpdateAlertChannelMutation,
} from './alerts-api.ts';
import './alerts-panel.css';
import { DeliveryResult, deliveryWhen } from './delivery-result.tsx';

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

function SecretOnce({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="portal-alert portal-alert--success alerts-secret" role="status">
      <p>Your signing secret. It is shown only this once: store it with your webhook receiver now.</p>
      <div className="portal-key-field">
        <input className="portal-mono" value={secret} readOnly aria-label="Alert webhook signing secret" spellCheck={false} />
        <button type="button" className="btn btn--ghost portal-btn-sm" onClick={() => copyText(secret).then(() => setCopied(true), () => setCopied(false))}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}

/** Add (no `current`) or edit a channel: kind (only when adding), name, target, rules. */
function ChannelForm({ current, onDone }: { current?: AlertChannel; onDone: (secret?: string) => void }) {
  const formId = useId();
  const [kind, setKind] = useState<AlertChannelKind>(current?.kind ?? 'email');
  const [name, setName] = useState(current?.name ?? '');
  const [target, setTarget] = useState(current?.target ?? '');
  const [rules, setRules] = useState<AlertRule[]>(current?.rules ?? [...ALERT_RULES]);
  const [create, creating] = useCreateAlertChannelMutation();
  const [update, updating] = useUpdateAlertChannelMutation();
  const error = creating.error ?? updating.error;
  const busy = creating.isLoading || updating.isLoading;
  const targetSpec = TARGET_LABELS[kind];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { name: name.trim(), target: target.trim(), rules };
    const call = current ? update({ id: current.id, body }) : create({ kind, ...body });
    call.unwrap().then((answer) => onDone(answer.secret), () => undefined);
  };
  return (
    <form className="portal-form alerts-form" onSubmit={submit} noValidate aria-label={current ? `Edit ${current.name}` : 'New alert channel'}>
      {current ? null : (
        <div className="portal-field">
          <label htmlFor={`${formId}-kind`}>Channel</label>
          <select id={`${formId}-kind`} value={kind} onChange={(e) => setKind(e.target.value as AlertChannelKind)}>
            {(Object.keys(ALERT_KIND_NAMES) as AlertChannelKind[]).map((k) => (
              <option key={k} value={k}>
                {ALERT_KIND_NAMES[k]}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="portal-field">
        <label htmlFor={`${formId}-name`}>Name</label>
        <input id={`${formId}-name`} value={name} placeholder="QA team" maxLength={100} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="portal-field">
        <label htmlFor={`${formId}-target`}>{targetSpec.label}</label>
        <input id={`${formId}-target`} type={targetSpec.type} value={target} placeholder={targetSpec.placeholder} autoComplete="off" spellCheck={false} onChange={(e) => setTarget(e.target.value)} />
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
      {error ? (
        <p className="portal-alert portal-alert--error" role="alert">
          {failureMessage(error)}
        </p>
      ) : null}
      <div className="portal-actions">
        <button type="button" className="btn btn--ghost" onClick={() => onDone()}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? 'Saving…' : current ? 'Save' : 'Add channel'}
        </button>
      </div>
    </form>
  );
}

function Channel({ channel, readOnly, onChanged }: { channel: AlertChannel; readOnly: boolean; onChanged: () => void }) {
  const titleId = useId();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [update, updating] = useUpdateAlertChannelMutation();
  const [remove, removing] = useDeleteAlertChannelMutation();
  const [test, testing] = useTestAlertChannelMutation();
  return (
    <section className="portal-panel alerts-channel" aria-labelledby={titleId}>
      <div className="alerts-channel__head">
        <h3 id={titleId} className="portal-panel__title">
          {channel.name}
        </h3>
        <span className={channel.enabled ? 'alerts-badge alerts-badge--on' : 'alerts-badge'}>{channel.enabled ? 'On' : 'Paused'}</span>
      </div>
      <p className="alerts-channel__target">
        <span>{ALERT_KIND_NAMES[channel.kind]}</span> · <span className="portal-mono">{channel.target}</span>
        {channel.secretHint ? <span className="portal-muted"> · signing secret {channel.secretHint}</span> : null}
      </p>
      <p className="portal-muted alerts-channel__rules">{channel.rules.map((r) => ALERT_RULE_NAMES[r]).join(' · ')}</p>
      {secret ? <SecretOnce secret={secret} /> : null}
      {editing ? (
        <ChannelForm
          current={channel}
          onDone={() => {
            setEditing(false);
            onChanged();
          }}
        />
      ) : readOnly ? null : (
        <div className="portal-actions">
          <button type="button" className="btn btn--primary portal-btn-sm" disabled={testing.isLoading} onClick={() => void test(channel.id).finally(onChanged)}>
            {testing.isLoading ? 'Sending…' : 'Send a test alert'}
          </button>
          <button type="button" className="btn btn--ghost portal-btn-sm" onClick={() => setEditing(true)}>
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
                  .then((answer) => setSecret(answer.secret ?? null), () => undefined)
                  .finally(onChanged)
              }
            >
              New signing secret
            </button>
          ) : null}
          <button type="button" className="btn btn--ghost portal-btn-sm" disabled={removing.isLoading} onClick={() => setConfirming(true)}>
            Remove
          </button>
        </div>
      )}
      {testing.data ? (
        <p className={`portal-alert ${testing.data.delivered ? 'portal-alert--success' : 'portal-alert--error'}`} role="status">
          {testing.data.message}
        </p>
      ) : testing.error || updating.error ? (
        <p className="portal-alert portal-alert--error" role="alert">
          {failureMessage(testing.error ?? updating.error)}
        </p>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={`Remove ${channel.name}?`}
          message="No more alerts are sent to it. Its past deliveries stay listed below."
          confirmText="Remove"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void remove(channel.id).finally(onChanged);
          }}
        />
      ) : null}
    </section>
  );
}

export function AlertDeliveries({ deliveries }: { deliveries: AlertDelivery[] }) {
  if (!deliveries.length) return <p className="portal-muted">No alert has been sent yet.</p>;
  return (
    <div className="alerts-deliveries">
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Channel</th>
            <th scope="col">Alert</th>
            <th scope="col">Result</th>
            <th scope="col">Attempts</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id}>
              <td data-label="When">{deliveryWhen(d)}</td>
              <td data-label="Channel">{d.channelName ?? ALERT_KIND_NAMES[d.kind]}</td>
              <td data-label="Alert">{d.title}</td>
              <td data-label="Result">
                <DeliveryResult delivery={d} block="alerts" />
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
    <section className="portal-card" aria-labelledby="alerts-title">
      <h2 id="alerts-title" className="portal-card__title">
        Alerts
      </h2>
      <p className="portal-muted portal-card__lead">
        Be told when something breaks: by e-mail, in Slack or Microsoft Teams, or on your own signed webhook. A test marked flaky stays silent.
      </p>
      {viewerReason ? <p className="portal-muted">{viewerReason}</p> : null}
      {secret ? <SecretOnce secret={secret} /> : null}
      {channels.isLoading ? (
        <p className="portal-muted" role="status">
          Loading your alert channels…
        </p>
      ) : channels.isError ? (
        <p className="portal-alert portal-alert--error" role="alert">
          Your alert channels could not be loaded. Please try again later.
        </p>
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
      {deliveries.data ? <AlertDeliveries deliveries={deliveries.data.deliveries} /> : null}
    </section>
  );
}
