import type { Bug } from '@fullstop/contracts';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BugView, bugHeading, type BugViewProps } from './bug-view.tsx';

beforeAll(() => {
  // jsdom makes no object URLs: the thumbnails get a stand-in.
  URL.createObjectURL ??= () => 'blob:thumbnail';
  URL.revokeObjectURL ??= () => {};
});
afterEach(cleanup);

const at = '2026-11-20T10:00:00.000Z';

function makeBug(overrides: Partial<Bug> = {}): Bug {
  return {
    id: 'b1',
    number: 12,
    title: 'Checkout button does nothing',
    severity: 'high',
    status: 'open',
    source: 'test',
    testName: 'checkout',
    createdAt: at,
    updatedAt: at,
    clientId: 'c1',
    url: 'https://shop.example.test/cart',
    environment: { browser: 'Chromium', viewport: '1280×720' },
    steps: ['Open the cart', 'Press Pay'],
    expected: 'The payment page opens.',
    actual: 'Nothing happens.',
    link: { testName: 'checkout', runId: 'r1', runTestId: 'rt1', ruleId: null },
    attachments: [
      { id: 'a1', name: 'screenshot.png', kind: 'screenshot', contentType: 'image/png', size: 2048, createdAt: at },
      { id: 'a2', name: 'trace.zip', kind: 'trace', contentType: 'application/zip', size: 4_000_000, createdAt: at },
    ],
    comments: [{ id: 'm1', author: 'Fullstop QA', side: 'operator', body: 'Seen on every run since Monday.', createdAt: at }],
    events: [
      { from: 'draft', to: 'open', by: 'Fullstop QA', reason: null, createdAt: at },
      { from: 'open', to: 'wont-fix', by: 'Ada', reason: 'Legacy page, removed next month.', createdAt: at },
    ],
    exports: [],
    actions: ['accept', 'reject', 'fixed', 'wont-fix', 'not-a-bug'],
    ...overrides,
  };
}

function renderView(props: Partial<BugViewProps> = {}) {
  const handlers = {
    onAction: vi.fn<BugViewProps['onAction']>().mockResolvedValue(undefined),
    onComment: vi.fn<BugViewProps['onComment']>().mockResolvedValue(undefined),
    loadAttachment: vi.fn<BugViewProps['loadAttachment']>().mockResolvedValue(new Blob(['png'], { type: 'image/png' })),
    onUpload: vi.fn<NonNullable<BugViewProps['onUpload']>>().mockResolvedValue(undefined),
  };
  render(
    <MemoryRouter>
      <BugView bug={makeBug()} side="client" runHref="/dashboard/history/r1" {...handlers} {...props} />
    </MemoryRouter>,
  );
  return { ...handlers, ...props };
}

const actionButtons = () =>
  within(screen.getByRole('group', { name: 'What to do with this bug' }))
    .getAllByRole('button')
    .map((b) => b.textContent);

describe('the bug view', () => {
  it('shows the facts, the steps in order, the evidence, the history and the thread', async () => {
    const { loadAttachment } = renderView();
    expect(bugHeading(makeBug())).toBe('BUG-12 · Checkout button does nothing');
    expect(screen.getByText('High')).toBeTruthy();
    expect(screen.getAllByText('Open').length).toBeGreaterThan(0);
    expect(screen.getByText('Chromium · 1280×720')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See the run in History' }).getAttribute('href')).toBe('/dashboard/history/r1');
    const steps = screen.getByRole('heading', { name: 'Steps to reproduce' }).parentElement!.querySelector('ol')!;
    expect([...steps.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['Open the cart', 'Press Pay']);
    expect(screen.getByText('Legacy page, removed next month.')).toBeTruthy();
    expect(screen.getByText('Seen on every run since Monday.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download trace.zip' })).toBeTruthy();
    // The image is read through the HTTP client (bearer), shown from an object URL: no token in any address.
    expect(await screen.findByRole('img', { name: 'screenshot.png' })).toBeTruthy();
    expect(loadAttachment).toHaveBeenCalledWith('a1');
  });

  it('renders text from a client’s site as text, never as HTML', () => {
    renderView({ bug: makeBug({ steps: ['<img src=x onerror="alert(1)">'], actual: '<b>bold</b>' }) });
    expect(screen.getByText('<img src=x onerror="alert(1)">')).toBeTruthy();
    expect(screen.getByText('<b>bold</b>')).toBeTruthy();
    expect(document.querySelector('b')).toBeNull();
  });

  it('offers exactly the actions the server allows, and explains the free retest', () => {
    renderView();
    expect(actionButtons()).toEqual(['Accept', 'Reject', 'Mark fixed', "Won't fix", 'Not a bug']);
    cleanup();
    renderView({ bug: makeBug({ status: 'fixed', actions: ['request-retest', 'reopen'] }) });
    expect(actionButtons()).toEqual(['Request retest', 'Reopen']);
    expect(screen.getByText(/The retest of a fixed bug is free: we run the linked test again/)).toBeTruthy();
    cleanup();
    renderView({ bug: makeBug({ status: 'fixed', link: null, actions: ['request-retest'] }) });
    expect(screen.getByText(/our QA team checks the fix by hand/)).toBeTruthy();
    cleanup();
    renderView({ bug: makeBug({ status: 'verified', actions: [] }) });
    expect(screen.queryByRole('group', { name: 'What to do with this bug' })).toBeNull();
  });

  it('takes an action that needs no reason at once', async () => {
    const { onAction } = renderView();
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(onAction).toHaveBeenCalledWith('accept', undefined);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((await screen.findByText('Bug accepted.')).getAttribute('role')).toBe('status');
  });

  it('asks for the reason before "Won’t fix", and sends it', async () => {
    const { onAction } = renderView();
    await userEvent.click(screen.getByRole('button', { name: "Won't fix" }));
    const dialog = screen.getByRole('dialog', { name: "Won't fix this bug" });
    await userEvent.click(within(dialog).getByRole('button', { name: "Won't fix" }));
    expect(within(dialog).getByText('Please give a reason.')).toBeTruthy();
    expect(onAction).not.toHaveBeenCalled();
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Legacy page');
    await userEvent.click(within(dialog).getByRole('button', { name: "Won't fix" }));
    expect(onAction).toHaveBeenCalledWith('wont-fix', 'Legacy page');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps the dialog open with the server’s message when it refuses, and Cancel closes it', async () => {
    const onAction = vi.fn<BugViewProps['onAction']>().mockRejectedValue(new Error('This bug can no longer be rejected: allowed are accept, fixed.'));
    renderView({ onAction });
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject this bug' });
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Duplicate of BUG-3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('This bug can no longer be rejected: allowed are accept, fixed.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('checks an attachment’s size and type before sending it, and shows the server’s refusal', async () => {
    const onUpload = vi.fn<NonNullable<BugViewProps['onUpload']>>().mockRejectedValue(new Error('The file is not the image it claims to be.'));
    renderView({ onUpload });
    const input = screen.getByLabelText('Attach a screenshot or a video');
    const attach = () => userEvent.click(screen.getByRole('button', { name: 'Attach' }));

    const huge = new File(['x'], 'huge.mp4', { type: 'video/mp4' });
    Object.defineProperty(huge, 'size', { value: 60 * 1024 * 1024 });
    await userEvent.upload(input, huge);
    expect(screen.getByRole('alert').textContent).toMatch(/huge\.mp4 is 62\.9 MB: attachments can be at most 52\.4 MB/);

    // The picker's filter is only a hint: a file of another type is refused here too.
    await userEvent.upload(input, new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }), { applyAccept: false });
    expect(screen.getByRole('alert').textContent).toMatch(/notes\.pdf cannot be attached/);
    expect(onUpload).not.toHaveBeenCalled();

    await userEvent.upload(input, new File(['png'], 'shot.png', { type: 'image/png' }));
    await attach();
    expect(onUpload).toHaveBeenCalledTimes(1);
    expect(onUpload.mock.calls[0]![0].name).toBe('shot.png');
    expect((await screen.findByText(/Could not attach shot\.png/)).textContent).toContain('The file is not the image it claims to be.');
  });

  it('sends a comment and empties the box', async () => {
    const { onComment } = renderView();
    const box = screen.getByLabelText('Add a comment');
    await userEvent.type(box, 'Fixed in 2.4.1');
    await userEvent.click(screen.getByRole('button', { name: 'Send comment' }));
    expect(onComment).toHaveBeenCalledWith('Fixed in 2.4.1');
    expect((box as HTMLTextAreaElement).value).toBe('');
  });
});
