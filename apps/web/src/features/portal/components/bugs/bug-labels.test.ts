import { BUG_ATTACHMENT_MAX_BYTES } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { attachmentProblem, bugNumber, environmentText, failureField, failureMessage, needsReason, openBugCount, stepsFromText } from './bug-labels.ts';

describe('bug texts and checks', () => {
  it('counts only the bugs that still need someone as open', () => {
    expect(openBugCount({ open: 2, accepted: 1, fixed: 1, retest: 1, reopened: 3, verified: 9, 'wont-fix': 4, 'not-a-bug': 1, draft: 5 })).toBe(8);
    expect(openBugCount({})).toBe(0);
    expect(openBugCount(undefined)).toBe(0);
  });

  it('names a bug by its short number', () => {
    expect(bugNumber(12)).toBe('BUG-12');
  });

  it('asks for a reason only for won’t fix, not a bug and reject', () => {
    expect(['wont-fix', 'not-a-bug', 'reject'].every((a) => needsReason(a as never))).toBe(true);
    expect(['accept', 'fixed', 'request-retest', 'publish', 'verify', 'reopen'].some((a) => needsReason(a as never))).toBe(false);
  });

  it('refuses a file over 50 MB or of another type before sending it', () => {
    expect(attachmentProblem({ name: 'shot.png', size: 1000, type: 'image/png' })).toBeNull();
    expect(attachmentProblem({ name: 'clip.webm', size: BUG_ATTACHMENT_MAX_BYTES, type: 'video/webm' })).toBeNull();
    expect(attachmentProblem({ name: 'big.mp4', size: BUG_ATTACHMENT_MAX_BYTES + 1, type: 'video/mp4' })).toMatch(/big\.mp4 is 52\.4 MB: attachments can be at most 52\.4 MB/);
    expect(attachmentProblem({ name: 'notes.pdf', size: 10, type: 'application/pdf' })).toMatch(/notes\.pdf cannot be attached: only PNG, JPEG, GIF and WebP images/);
    expect(attachmentProblem({ name: 'page.svg', size: 10, type: 'image/svg+xml' })).toMatch(/cannot be attached/);
    expect(attachmentProblem({ name: 'empty.png', size: 0, type: 'image/png' })).toBe('empty.png is empty.');
  });

  it('writes the environment in one line, leaving out what was not noted', () => {
    expect(environmentText({ browser: 'Chromium 131', viewport: '375×812', device: 'iPhone 13' })).toBe('Chromium 131 · 375×812 · iPhone 13');
    expect(environmentText({ browser: 'Firefox', device: ' ' })).toBe('Firefox');
    expect(environmentText({})).toBe('');
  });

  it('reads steps one a line, without blank lines', () => {
    expect(stepsFromText(' Open /cart \n\n  Press Pay\n')).toEqual(['Open /cart', 'Press Pay']);
  });

  it('shows the server’s message and finds the field a 400 names', () => {
    const failure = { status: 400, message: 'title must be at least 3 characters', text: JSON.stringify({ message: 'x', field: 'title' }) };
    expect(failureMessage(failure)).toBe('title must be at least 3 characters');
    expect(failureField(failure)).toBe('title');
    expect(failureField({ status: 409, message: 'no', text: 'not json' })).toBeNull();
    expect(failureMessage(undefined)).toBe('Please try again in a moment.');
  });
});
