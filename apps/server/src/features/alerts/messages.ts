import type { AlertChannelKind, AlertWebhookPayload } from '@fullstop/contracts';

// What each kind of channel is sent. Titles and texts carry names from the client's suite and site: untrusted,
// so they are escaped for each channel's markup (Slack mrkdwn, Teams markdown/HTML) or sent as plain text.

/** One alert, before it is shaped for a channel: the generic webhook's body but for its event. */
export type AlertMessage = Omit<AlertWebhookPayload, 'event'>;

/** Slack's control characters (mentions, links): `&`, `<`, `>`. */
export function escapeSlack(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Teams renders a subset of HTML and markdown in a MessageCard: both are neutralised. */
export function escapeTeams(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+\-.!|~])/g, '\\$1');
}

export function slackBody(m: AlertMessage): Record<string, unknown> {
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: m.title.slice(0, 150), emoji: false } },
    { type: 'section', text: { type: 'plain_text', text: m.text.slice(0, 2900), emoji: false } },
  ];
  if (m.runUrl) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `<${m.runUrl}|Open the run in Fullstop QA>` } });
  return { text: `[Fullstop QA] ${escapeSlack(m.title)}`, blocks };
}

const COLOURS: Record<AlertMessage['rule'], string> = {
  'run-failed': 'C62828',
  'test-failing': 'C62828',
  'test-recovered': '2E7D32',
  'security-alert': 'EF6C00',
  'load-threshold': 'EF6C00',
  test: '1565C0',
};

/** A legacy MessageCard: Teams incoming webhooks (and Workflows' "post to a channel") take it. */
export function teamsBody(m: AlertMessage): Record<string, unknown> {
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: `[Fullstop QA] ${m.title}`.slice(0, 200),
    themeColor: COLOURS[m.rule],
    title: `Fullstop QA: ${escapeTeams(m.title)}`,
    text: escapeTeams(m.text),
    ...(m.runUrl ? { potentialAction: [{ '@type': 'OpenUri', name: 'Open the run', targets: [{ os: 'default', uri: m.runUrl }] }] } : {}),
  };
}

export function webhookBody(m: AlertMessage): AlertWebhookPayload {
  return { event: m.rule === 'test' ? 'test' : 'alert', alertId: m.alertId ?? null, rule: m.rule, title: m.title, text: m.text, subject: m.subject, runId: m.runId, runUrl: m.runUrl, at: m.at };
}

export function emailOf(m: AlertMessage): { subject: string; text: string } {
  const lines = [m.text, ''];
  if (m.runUrl) lines.push(`Open the run: ${m.runUrl}`, '');
  lines.push('You receive this because this address is an alert channel of your team in Fullstop QA (Setup → Alerts).');
  return { subject: `[Fullstop QA] ${m.title}`.replace(/[\r\n]+/g, ' ').slice(0, 250), text: lines.join('\n') };
}

/** The JSON a webhook channel of this kind is POSTed. */
export function webhookJson(kind: Exclude<AlertChannelKind, 'email'>, m: AlertMessage): string {
  return JSON.stringify(kind === 'slack' ? slackBody(m) : kind === 'teams' ? teamsBody(m) : webhookBody(m));
}
