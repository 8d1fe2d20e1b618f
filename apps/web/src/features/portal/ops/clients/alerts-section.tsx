import { type AlertChannelKind, type AlertChannelList, alertChannelList, type AlertDeliveryList, alertDeliveryList, alertPaths } from '@fullstop/contracts';
import { formatDate } from '@/lib/format-date.ts';
import { AsyncFailed, AsyncLoading } from '../../components/async-state.tsx';
import { Card } from '../../components/card.tsx';
import { portalApi } from '../../store/portal-api.ts';

/** A client's alert channels and deliveries, read-only: the console shows what the client set up and what was sent. */
const opsAlertsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getOpsAlertChannels: build.query<AlertChannelList, string>({
      query: (clientId) => ({ url: alertPaths.operatorChannels(clientId), schema: alertChannelList }),
    }),
    getOpsAlertDeliveries: build.query<AlertDeliveryList, string>({
      query: (clientId) => ({ url: alertPaths.operatorDeliveries(clientId), schema: alertDeliveryList }),
    }),
  }),
});
const { useGetOpsAlertChannelsQuery, useGetOpsAlertDeliveriesQuery } = opsAlertsApi;

const KIND_NAMES: Record<AlertChannelKind, string> = { email: 'E-mail', slack: 'Slack', teams: 'Teams', webhook: 'Webhook' };
const STATUS_TEXT = { pending: 'Retrying', delivered: 'Delivered', failed: 'Failed' } as const;

export function AlertsSection({ clientId }: { clientId: string }) {
  const channels = useGetOpsAlertChannelsQuery(clientId);
  const deliveries = useGetOpsAlertDeliveriesQuery(clientId);
  const list = channels.data?.channels ?? [];
  const sent = deliveries.data?.deliveries ?? [];
  return (
    <Card id="ops-alerts-title" title="Alerts">
      {channels.isError || deliveries.isError ? (
        <AsyncFailed>The client’s alerts could not be loaded.</AsyncFailed>
      ) : channels.isLoading ? (
        <AsyncLoading>Loading…</AsyncLoading>
      ) : list.length === 0 ? (
        <p className="portal-muted">The client has no alert channel.</p>
      ) : (
        <ul className="ops-list">
          {list.map((c) => (
            <li key={c.id}>
              <strong>{c.name}</strong> · {KIND_NAMES[c.kind]} · <span className="ops-wrap portal-mono">{c.target}</span>
              {c.enabled ? '' : ' · paused'}
              <span className="portal-muted"> · {c.rules.join(', ')}</span>
            </li>
          ))}
        </ul>
      )}
      <h3 className="portal-panel__title">Recent deliveries</h3>
      {sent.length === 0 ? (
        <p className="portal-muted">No alert has been sent yet.</p>
      ) : (
        <ul className="ops-list">
          {sent.map((d) => (
            <li key={d.id}>
              <span>{formatDate(d.lastAttemptAt ?? d.createdAt)}</span> · <strong>{d.channelName ?? KIND_NAMES[d.kind]}</strong> · <span className="ops-wrap">{d.title}</span> ·{' '}
              {STATUS_TEXT[d.status]}
              {d.statusCode !== null ? ` HTTP ${d.statusCode}` : ''} · {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
              {d.error ? <span className="ops-wrap portal-muted"> · {d.error}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
