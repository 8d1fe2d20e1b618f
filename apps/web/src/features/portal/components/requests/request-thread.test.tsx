import type { ClientRequestDetail } from '@fullstop/contracts';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestThread } from './request-thread.tsx';

afterEach(cleanup);

const detail: ClientRequestDetail = {
  id: 'r1',
  kind: 'question',
  title: '<img src=x onerror=alert(1)> Why?',
  details: 'Our **checkout** changed',
  status: 'in-progress',
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
  lastActivityAt: '2026-01-01T11:00:00.000Z',
  lastReplySide: 'operator',
  lastReplyAt: '2026-01-01T11:00:00.000Z',
  replyCount: 1,
  unread: false,
  attachments: [{ id: 'a1', name: 'shot.png', contentType: 'image/png', size: 2048, side: 'client', messageId: null, createdAt: '2026-01-01T10:00:00.000Z' }],
  messages: [{ id: 'm1', side: 'operator', authorName: 'Dana', body: 'Looking into it.', attachments: [], createdAt: '2026-01-01T11:00:00.000Z' }],
};

describe('a request thread', () => {
  it('shows the request, its files and replies as text', () => {
    const { container } = render(<RequestThread detail={detail} viewer="client" onReply={vi.fn()} onFilesChanged={vi.fn()} />);
    expect(screen.getByRole('heading', { name: '<img src=x onerror=alert(1)> Why?' })).toBeTruthy();
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('In progress')).toBeTruthy();
    expect(screen.getByRole('button', { name: /shot\.png/ })).toBeTruthy();
    expect(screen.getByText(/Dana \(Fullstop QA team\)/)).toBeTruthy();
    expect(screen.getByText('Looking into it.')).toBeTruthy();
  });

  it('names a reply sent with the operator token once, not "Fullstop QA team (Fullstop QA team)"', () => {
    const byToken = { ...detail, messages: [{ ...detail.messages[0]!, authorName: 'Fullstop QA team' }] };
    render(<RequestThread detail={byToken} viewer="client" onReply={vi.fn()} onFilesChanged={vi.fn()} />);
    expect(screen.getByText(/^Fullstop QA team ·/)).toBeTruthy();
    expect(screen.queryByText(/Fullstop QA team \(Fullstop QA team\)/)).toBeNull();
  });

  it('checks the reply before sending it, and says when it was sent', async () => {
    const onReply = vi.fn().mockResolvedValue(detail);
    render(<RequestThread detail={detail} viewer="client" onReply={onReply} onFilesChanged={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The reply is empty.');
    expect(onReply).not.toHaveBeenCalled();

    const tooBig = new File(['x'], 'huge.mp4', { type: 'video/mp4' });
    Object.defineProperty(tooBig, 'size', { value: 60 * 1024 * 1024 });
    fireEvent.change(screen.getByLabelText('Your reply'), { target: { value: 'See the video' } });
    fireEvent.change(screen.getByLabelText('Attachment (optional)'), { target: { files: [tooBig] } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    expect((await screen.findByRole('alert')).textContent).toBe('huge.mp4 is too large: the limit is 50 MB.');
    expect(onReply).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Attachment (optional)'), { target: { files: [] } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitFor(() => expect(onReply).toHaveBeenCalledWith('See the video'));
    expect((await screen.findByRole('status')).textContent).toBe('Reply sent. The QA team has been notified.');
  });

  it('for a reader only, says why in place of the reply box and still says when a download fails', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(JSON.stringify({ message: 'File not found' }), { status: 404, headers: { 'content-type': 'application/json' } })));
    try {
      render(<RequestThread detail={detail} viewer="client" onReply={vi.fn()} onFilesChanged={vi.fn()} readOnlyReason="Viewers cannot reply to requests: ask an owner of your team for the member role." />);
      expect(screen.getByText('Viewers cannot reply to requests: ask an owner of your team for the member role.')).toBeTruthy();
      expect(screen.queryByRole('form', { name: 'Reply' })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: /shot\.png/ }));
      expect((await screen.findByRole('alert')).textContent).toMatch(/^Could not download shot\.png/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('keeps the reply box in the console, which gives no reason to read only', () => {
    render(<RequestThread detail={detail} viewer="operator" onReply={vi.fn()} onFilesChanged={vi.fn()} />);
    expect(screen.getByRole('form', { name: 'Reply' })).toBeTruthy();
    expect(screen.getByLabelText('Attachment (optional)')).toBeTruthy();
  });
});
