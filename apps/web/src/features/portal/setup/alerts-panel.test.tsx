import { within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderSection, reply, serveApi } from '../components/test-api.tsx';
import { AlertsPanel } from './alerts-panel.tsx';

const at = '2026-11-23T10:00:00.000Z';
const hook = { id: 'c1', kind: 'webhook', name: 'Ops <b>room</b>', target: 'https://hooks.acme.test/alerts', enabled: true, confirmed: true, confirmationSentAt: null, rules: ['test-failing'], secretHint: '••••9f3a', createdAt: at, updatedAt: at };
const inbox = { ...hook, id: 'c2', kind: 'email', name: 'QA inbox', target: 'qa@acme.test', secretHint: null, confirmed: false, confirmationSentAt: at };
const slack = { ...hook, id: 'c3', kind: 'slack', name: 'Slack room', target: 'https://hooks.slack.com/…/abcd', secretHint: null };
const calls: { url: string; method: string; body: string }[] = [];
let channels: unknown[] = [];
let posted: unknown = null;

beforeEach(() => {
  channels = [];
  posted = null;
  calls.length = 0;
});
serveApi(async ({ url, method, body }) => {
  if (method !== 'GET') calls.push({ url, method, body: await body() });
  if (url.endsWith('/alerts/channels/c2/confirmation')) return reply(200, inbox);
  if (url.endsWith('/alerts/channels/c3') && method === 'PATCH') return reply(200, { channel: slack });
  if (url.endsWith('/alerts/deliveries')) {
    return reply(200, { deliveries: [{ id: 'd1', channelId: 'c1', channelName: 'Ops room', kind: 'webhook', rule: 'test-failing', title: 'checkout started failing', runId: 'r1', status: 'failed', statusCode: null, error: 'could not reach it: ECONNREFUSED', attempts: 8, createdAt: at, lastAttemptAt: at }] });
  }
  if (url.endsWith('/alerts/channels') && method === 'GET') return reply(200, { channels });
  if (url.endsWith('/alerts/channels') && method === 'POST') {
    posted = JSON.parse(calls.at(-1)!.body);
    channels = [hook];
    return reply(201, { channel: hook, secret: 'whsec_0123456789abcdef9f3a' });
  }
  if (url.endsWith('/alerts/channels/c1/test')) return reply(200, { delivered: false, statusCode: 500, message: 'Your webhook answered HTTP 500' });
  return reply(404, { message: 'not found' });
});

describe('the alerts panel', () => {
  it('adds a signed webhook with chosen rules, shows its secret once, sends a test alert and lists deliveries with their error', async () => {
    const { user, panel } = await renderSection(<AlertsPanel />, 'Alerts');
    expect(await within(panel).findByText('could not reach it: ECONNREFUSED')).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: 'Add a channel' }));
    await user.selectOptions(within(panel).getByLabelText('Channel'), 'webhook');
    await user.type(within(panel).getByLabelText('Name'), 'Ops room');
    await user.type(within(panel).getByLabelText('Webhook URL'), 'https://hooks.acme.test/alerts');
    for (const name of ['A run fails', 'A failing test passes again', 'A new High or Medium security alert', 'A load test misses its threshold']) {
      await user.click(within(panel).getByLabelText(name));
    }
    await user.click(within(panel).getByRole('button', { name: 'Add channel' }));
    expect(((await within(panel).findByLabelText('Alert webhook signing secret')) as HTMLInputElement).value).toBe('whsec_0123456789abcdef9f3a');
    expect(posted).toEqual({ kind: 'webhook', name: 'Ops room', target: 'https://hooks.acme.test/alerts', rules: ['test-failing'] });
    // The channel's name is text, never markup.
    expect(await within(panel).findByRole('heading', { name: 'Ops <b>room</b>' })).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: 'Send a test alert' }));
    expect(await within(panel).findByText('Your webhook answered HTTP 500')).toBeTruthy();
  });

  it('shows an e-mail address waiting for confirmation with a resend, and keeps a sealed Slack URL when its edit leaves it empty', async () => {
    channels = [inbox, slack];
    const { user, panel } = await renderSection(<AlertsPanel />, 'Alerts');
    expect(await within(panel).findByText('Waiting for confirmation')).toBeTruthy();
    expect(within(panel).getByText(/We mailed a confirmation link to qa@acme.test/)).toBeTruthy();
    expect(within(panel).getAllByRole('button', { name: 'Send a test alert' })).toHaveLength(1);
    await user.click(within(panel).getByRole('button', { name: 'Send the link again' }));
    expect(await within(panel).findByText('A new link is on its way to qa@acme.test.')).toBeTruthy();
    expect(calls.map((c) => [c.method, c.url.replace(/^.*\/alerts/, '/alerts')])).toEqual([['POST', '/alerts/channels/c2/confirmation']]);

    const edits = within(panel).getAllByRole('button', { name: 'Edit' });
    await user.click(edits[1]!);
    const url = within(panel).getByLabelText('Slack incoming webhook URL') as HTMLInputElement;
    expect(url.value).toBe('');
    expect(url.placeholder).toBe('Leave empty to keep https://hooks.slack.com/…/abcd');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await within(panel).findAllByRole('button', { name: 'Edit' });
    expect(JSON.parse(calls.at(-1)!.body)).toEqual({ name: 'Slack room', rules: ['test-failing'] });
  });
});
