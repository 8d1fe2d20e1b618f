import { within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderSection, reply, serveApi } from '../components/test-api.tsx';
import { TrackerPanel } from './tracker-panel.tsx';

const webhook = { kind: 'webhook', config: { url: 'https://hooks.acme.test/fullstop' }, secretHint: '••••9f3a', connectedAt: '2026-11-23T10:00:00.000Z', updatedAt: '2026-11-23T10:00:00.000Z' };
let connected = false;

beforeEach(() => {
  connected = false;
});
serveApi(({ url, method }) => {
  if (url.endsWith('/integrations/deliveries')) return reply(200, { deliveries: [] });
  if (url.endsWith('/integrations') && method === 'GET') return reply(200, { integrations: connected ? [webhook] : [] });
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
});
