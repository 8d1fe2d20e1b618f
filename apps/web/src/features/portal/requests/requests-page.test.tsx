import type { TeamRole } from '@fullstop/contracts';
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithStore, reply, serveApi } from '../components/test-api.tsx';
import { RequestsPage } from './requests-page.tsx';

const at = '2026-11-20T10:00:00.000Z';
const request = {
  id: 'r1',
  kind: 'question',
  title: 'Does the checkout test cover coupons?',
  details: 'We added coupons last week.',
  status: 'in-progress',
  createdAt: at,
  updatedAt: at,
  lastActivityAt: at,
  lastReplySide: 'operator',
  lastReplyAt: at,
  replyCount: 1,
  unread: false,
};
const detail = {
  ...request,
  attachments: [{ id: 'a1', name: 'coupon.png', contentType: 'image/png', size: 2048, side: 'client', messageId: null, createdAt: at }],
  messages: [{ id: 'm1', side: 'operator', authorName: 'Dana', body: 'Not yet: we add it this week.', attachments: [], createdAt: at }],
};

serveApi(({ url }) => {
  if (url.endsWith('/requests')) return reply(200, [request]);
  if (url.endsWith('/requests/r1')) return reply(200, detail);
  return reply(404, { message: 'not found' });
});

function renderAs(teamRole: TeamRole, entry: string) {
  localStorage.setItem('userData', JSON.stringify({ id: 'u1', username: 'Bo', email: 'bo@example.test', role: 'client', clientId: 'c1', teamRole }));
  renderWithStore(
    <MemoryRouter initialEntries={[entry]}>
      <RequestsPage />
    </MemoryRouter>,
  );
}

describe('the Requests page', () => {
  it('shows a viewer their team’s requests, and says once, before any click, why there is no form', async () => {
    renderAs('viewer', '/dashboard/requests');
    expect(await screen.findByRole('button', { name: /Does the checkout test cover coupons\?/ })).toBeTruthy();
    const card = screen.getByRole('heading', { name: 'New request' }).closest('section')!;
    expect(within(card).getByText('Viewers cannot send requests: ask an owner of your team for the member role.')).toBeTruthy();
    expect(screen.getAllByText(/Viewers cannot/)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Send request' })).toBeNull();
    expect(screen.queryByLabelText('Title')).toBeNull();
  });

  it('shows a viewer a request and its replies without the reply box, and says why once', async () => {
    renderAs('viewer', '/dashboard/requests?id=r1');
    expect(await screen.findByText('Not yet: we add it this week.')).toBeTruthy();
    expect(screen.getByRole('button', { name: /coupon\.png/ })).toBeTruthy();
    expect(screen.getAllByText(/Viewers cannot/).map((p) => p.textContent)).toEqual(['Viewers cannot reply to requests: ask an owner of your team for the member role.']);
    expect(screen.queryByRole('form', { name: 'Reply' })).toBeNull();
    expect(screen.queryByLabelText('Attachment (optional)')).toBeNull();
  });

  it('gives a member the form and the reply box, with an attachment', async () => {
    renderAs('member', '/dashboard/requests');
    expect(await screen.findByRole('button', { name: 'Send request' })).toBeTruthy();
    expect(screen.getByLabelText('Attachment (optional)')).toBeTruthy();
    await screen.findByRole('button', { name: /Does the checkout test cover coupons\?/ });
    expect(screen.queryByText(/Viewers cannot/)).toBeNull();
  });

  it('gives a member the reply box on a request', async () => {
    renderAs('member', '/dashboard/requests?id=r1');
    const form = await screen.findByRole('form', { name: 'Reply' });
    expect(within(form).getByLabelText('Attachment (optional)')).toBeTruthy();
    expect(within(form).getByRole('button', { name: 'Send reply' })).toBeTruthy();
    expect(screen.queryByText(/Viewers cannot/)).toBeNull();
  });
});
