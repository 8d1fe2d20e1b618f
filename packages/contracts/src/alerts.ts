import { z } from 'zod';
import { deliveryState, testDeliveryResponse, type TestDeliveryResponse } from './deliveries.ts';
import { text } from './text.ts';

// Alerts (issue 10): the channels a client is told through when its tests break, and every delivery to them.

export const alertChannelKind = z.enum(['email', 'slack', 'teams', 'webhook'], { error: 'kind must be one of email, slack, teams, webhook' });
export type AlertChannelKind = z.infer<typeof alertChannelKind>;
export const ALERT_CHANNEL_KINDS = alertChannelKind.options;

/** What a channel is told about: a run failed, a test started failing, it recovered, a new High/Medium security alert, a load threshold missed. */
export const alertRule = z.enum(['run-failed', 'test-failing', 'test-recovered', 'security-alert', 'load-threshold'], {
  error: 'rules must be among run-failed, test-failing, test-recovered, security-alert, load-threshold',
});
export type AlertRule = z.infer<typeof alertRule>;
export const ALERT_RULES = alertRule.options;

const name = text('name').trim().min(1, { error: 'name is required' }).max(100, { error: 'name must be at most 100 characters' });
const target = text('target').trim().min(1, { error: 'target is required' }).max(2000, { error: 'target must be at most 2000 characters' });
const rules = z.array(alertRule).min(1, { error: 'choose at least one rule' }).max(ALERT_RULES.length);

/** POST /alerts/channels. `target`: an e-mail address for email, the webhook URL otherwise (checked per kind by the server). */
export const createAlertChannelBody = z.object({
  kind: alertChannelKind,
  name,
  target,
  /** Default: all five. */
  rules: rules.optional(),
  enabled: z.boolean().optional(),
});
export type CreateAlertChannelBody = z.infer<typeof createAlertChannelBody>;

/** PATCH /alerts/channels/:id; `rotateSecret` makes a webhook's new signing secret (shown once). */
export const updateAlertChannelBody = createAlertChannelBody
  .omit({ kind: true })
  .partial()
  .extend({ rotateSecret: z.boolean().optional() });
export type UpdateAlertChannelBody = z.infer<typeof updateAlertChannelBody>;

export const alertChannel = z.object({
  id: z.string(),
  kind: alertChannelKind,
  name: z.string(),
  /** The e-mail address or the generic webhook's URL; for Slack and Teams only a hint (`https://hooks.slack.com/…/abcd`): their URL is a credential. */
  target: z.string(),
  enabled: z.boolean(),
  /** False for an e-mail address whose owner has not opened the confirmation link yet: nothing is sent to it. */
  confirmed: z.boolean(),
  /** E-mail not confirmed: when the last confirmation link was sent (null: not sent, send it again). */
  confirmationSentAt: z.string().nullable(),
  rules: z.array(alertRule),
  /** Generic webhooks: the signing secret's last characters, e.g. "••••3f9a"; null for other kinds. */
  secretHint: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AlertChannel = z.infer<typeof alertChannel>;
export const alertChannelList = z.object({ channels: z.array(alertChannel) });
export type AlertChannelList = z.infer<typeof alertChannelList>;

/** POST and PATCH answer; `secret` is a generic webhook's new signing secret, given this once. */
export const alertChannelResponse = z.object({ channel: alertChannel, secret: z.string().optional() });
export type AlertChannelResponse = z.infer<typeof alertChannelResponse>;

export const alertDelivery = z.object({
  id: z.string(),
  channelId: z.string().nullable(),
  channelName: z.string().nullable(),
  kind: alertChannelKind,
  /** An alert rule, or "test" for "send a test alert". */
  rule: z.string(),
  title: z.string(),
  runId: z.string().nullable(),
  ...deliveryState.shape,
});
export type AlertDelivery = z.infer<typeof alertDelivery>;
export const alertDeliveryList = z.object({ deliveries: z.array(alertDelivery) });
export type AlertDeliveryList = z.infer<typeof alertDeliveryList>;

/** POST /alerts/channels/:id/test: what the channel answered. */
export const alertTestResponse = testDeliveryResponse;
export type AlertTestResponse = TestDeliveryResponse;

/** POST /alerts/confirm: the token of the link mailed to a new e-mail channel's address (no login). */
export const confirmAlertChannelBody = z.object({ token: text('token').min(1, { error: 'token is required' }).max(200) });
export type ConfirmAlertChannelBody = z.infer<typeof confirmAlertChannelBody>;

/** The generic webhook's JSON body (signed like the bug export's: docs/alerts.md). */
export interface AlertWebhookPayload {
  event: 'alert' | 'test';
  /** The alert's id: the same on every retry and every channel (null for a test alert). Drop a duplicate by it. */
  alertId: string | null;
  rule: AlertRule | 'test';
  title: string;
  text: string;
  subject: string | null;
  runId: string | null;
  runUrl: string | null;
  at: string;
}

/** The API paths (the server registers the same strings). */
export const alertPaths = {
  channels: '/alerts/channels',
  channel: (id: string) => `/alerts/channels/${encodeURIComponent(id)}`,
  test: (id: string) => `/alerts/channels/${encodeURIComponent(id)}/test`,
  /** POST: mail the confirmation link again. */
  confirmation: (id: string) => `/alerts/channels/${encodeURIComponent(id)}/confirmation`,
  /** POST, no login: the mailed link's token. */
  confirm: '/alerts/confirm',
  deliveries: '/alerts/deliveries',
  operatorChannels: (clientId: string) => `/operator/clients/${encodeURIComponent(clientId)}/alert-channels`,
  operatorDeliveries: (clientId: string) => `/operator/clients/${encodeURIComponent(clientId)}/alert-deliveries`,
} as const;
