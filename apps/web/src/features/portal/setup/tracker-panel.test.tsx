import { within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderSection, reply, serveApi } from '../components/test-api.tsx';
import { TrackerPanel } from './tracker-panel.tsx';

const github = { kind: 'github', config: { owner: 'acme', repo: 'shop' }, secretHint: '••••c0de', connectedAt: '2026-11-23T09:00:00.000Z', updatedAt: '2026-11-23T09:00:00.000Z' };
const webhook = { kind: 'webhook', config: { url: 'https://hooks.acme.test/fullstop' }, secretHint: '••••9f3a', connectedAt: '2026-11-23T10:00:00.000Z', updatedAt: '2026-11-23T10:00:00.000Z' };
let connected = false;
let withGithub = false;

beforeEach(() => {
  connected = false;
  withGithub = false;
});
serveApi(({ url, method }) => {
  if (url.endsWith('/integrations/deliveries')) return reply(200, { deliveries: [] });
  if (url.endsWith('/integrations') && method === 'GET') return reply(200, { integrations: [...(withGithub ? [github] : []), ...(connected ? [webhook] : [])] });
  if (url.endsWith('/integrations/github') && method === 'PUT') return reply(400, { message: 'GitHub refused the token (HTTP 401): check it and its permissions', code: 'VALIDATION_ERROR', field: 'token' });
  if (url.endsWith('/integrations/webhook') && method === 'PUT') {
    connected = true;
    return reply(200, { integration: webhook, secret: 'whsec_0123456789abcdef9f3a' });
  }
  return reply(404, { message: 'not found' });
});

describe('the bug tracker panel', () => {
  it('shows a new webhook secret once, after connecting', async () => {
    const { user, panel } = await renderSection(<TrackerPanel />, 'Webhook');
    await user.click(within(panel).getByRole('button', { name: 'Connect' }));
    await user.type(within(panel).getByLabelText('URL'), 'https://hooks.acme.test/fullstop');
    await user.click(within(panel).getByRole('button', { name: 'Connect' }));
    expect(((await within(panel).findByLabelText('Webhook signing secret')) as HTMLInputElement).value).toBe('whsec_0123456789abcdef9f3a');
    expect(await within(panel).findByText('Connected')).toBeTruthy();
    expect(within(panel).getByText(/••••9f3a/)).toBeTruthy();
  });

  it('says why GitHub refused the settings', async () => {
    const { user, panel } = await renderSection(<TrackerPanel />, 'GitHub Issues');
    await user.click(within(panel).getByRole('button', { name: 'Connect' }));
    await user.type(within(panel).getByLabelText('Owner'), 'acme');
    await user.type(within(panel).getByLabelText('Repository'), 'shop');
    await user.type(within(panel).getByLabelText('Token (Issues: read and write)'), 'ghp_wrong');
    await user.click(within(panel).getByRole('button', { name: 'Connect' }));
    expect((await within(panel).findByRole('alert')).textContent).toMatch(/GitHub refused the token/);
  });

  it('shows a viewer the trackers read-only and says why once, before any click', async () => {
    localStorage.setItem('userData', JSON.stringify({ id: 'u2', username: 'Bo', email: 'bo@example.test', role: 'client', clientId: 'c1', teamRole: 'viewer' }));
    connected = true;
    withGithub = true;
    const { panel } = await renderSection(<TrackerPanel />, 'Bug tracker');
    expect(await within(panel).findByText('acme/shop')).toBeTruthy();
    expect(within(panel).getByText('https://hooks.acme.test/fullstop')).toBeTruthy();
    // The server's words for the change (403 VIEWER_READ_ONLY), said once for the whole panel.
    expect(within(panel).getAllByText('Viewers cannot connect trackers: ask an owner of your team for the member role.')).toHaveLength(1);
    // No Connect, Replace, Send a test delivery, Disconnect nor Check issues now: nothing to click that the server refuses.
    expect(within(panel).queryAllByRole('button')).toEqual([]);
  });

  it('offers a member every change, and Check issues now once an issue tracker is connected', async () => {
    localStorage.setItem('userData', JSON.stringify({ id: 'u1', username: 'Ada', email: 'ada@example.test', role: 'client', clientId: 'c1', teamRole: 'member' }));
    withGithub = true;
    const { panel } = await renderSection(<TrackerPanel />, 'Bug tracker');
    expect(await within(panel).findByRole('button', { name: 'Check issues now' })).toBeTruthy();
    expect(within(panel).getAllByRole('button', { name: 'Replace' })).toHaveLength(1);
    expect(within(panel).getByRole('button', { name: 'Disconnect' })).toBeTruthy();
    expect(within(panel).queryByText(/Viewers cannot/)).toBeNull();
  });
});
