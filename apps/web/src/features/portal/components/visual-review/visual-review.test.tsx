import type { VisualReviewResponse, VisualReviewShot } from '@fullstop/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { countsText, type ShotActions, VisualReviewView } from './visual-review.tsx';

const image = (name: string) => ({ url: `/evidence/file/${name}`, width: 1280, height: 1300 });
const changed: VisualReviewShot = {
  key: 'home.chromium-desktop.0123456789abcdef',
  page: '<b>Home</b>',
  url: 'https://shop.example/',
  cell: 'chromium/desktop',
  status: 'changed',
  reason: '0.03% of pixels changed (396), more than the tolerance of 0.01%',
  changedPixels: 396,
  changedRatio: 0.0003,
  share: '0.03%',
  region: { x: 100, y: 301, width: 124, height: 38 },
  baseline: image('b'),
  current: image('c'),
  diff: image('d'),
  review: { candidateId: 'cand1', state: 'pending', decidedBy: null, decidedAt: null, note: null, bugId: null, comparedWithCurrent: false },
};
const unchanged: VisualReviewShot = { ...changed, key: 'x', cell: 'chromium/phone', status: 'unchanged', share: '0%', region: null, baseline: null, diff: null, review: null };
const review: VisualReviewResponse = {
  runId: 'r1',
  clientId: 'c1',
  tests: [{ runTestId: 'rt1', testName: 'Shop looks right', status: 'failed', shots: [changed, unchanged] }],
  counts: { changed: 1, pending: 1, approved: 0, rejected: 0 },
  expiresIn: 300,
};

const show = (actions?: ShotActions) =>
  render(
    <MemoryRouter>
      <VisualReviewView review={review} {...(actions ? { actions } : {})} />
    </MemoryRouter>,
  );

describe('the visual review of a run', () => {
  it('shows a changed shot’s baseline, current and diff, its share and region; the client’s view has no buttons', () => {
    show();
    const shot = screen.getByRole('listitem', { name: '<b>Home</b> on Chromium · desktop' });
    expect(within(shot).getByText('0.03%')).toBeTruthy();
    expect(within(shot).getByText('124 × 38 px at 100, 301')).toBeTruthy();
    expect(within(shot).getAllByRole('img').map((i) => i.getAttribute('alt'))).toEqual(['Baseline', 'Current', 'Diff']);
    expect(within(shot).getByRole('note').textContent).toContain('no longer current');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('2 shots, 1 unchanged.')).toBeTruthy();
    expect(countsText(review)).toBe('1 changed shot · 1 waiting for review');
  });

  it('gives the console Approve, Reject and Reject and open bug, with the note typed', async () => {
    const actions: ShotActions = { busy: false, approve: vi.fn(), reject: vi.fn(), openBug: vi.fn(), bugLink: (id) => `/ops/bugs/${id}` };
    show(actions);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Note for a rejection (optional)'), 'button moved');
    await user.click(screen.getByRole('button', { name: 'Reject and open bug: <b>Home</b> on Chromium · desktop' }));
    expect(actions.openBug).toHaveBeenCalledWith('cand1', 'button moved');
    await user.click(screen.getByRole('button', { name: 'Approve <b>Home</b> on Chromium · desktop' }));
    expect(actions.approve).toHaveBeenCalledWith('cand1');
    await user.click(screen.getByRole('button', { name: 'Reject <b>Home</b> on Chromium · desktop' }));
    expect(actions.reject).toHaveBeenCalledWith('cand1', 'button moved');
  });
});
