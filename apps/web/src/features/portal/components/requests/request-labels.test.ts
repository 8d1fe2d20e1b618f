import { REQUEST_ATTACHMENT_MAX_BYTES, clientRequestKind, clientRequestStatus, requestAttachmentProblem } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { KIND_HINTS, KIND_LABELS, STATUS_LABELS, replyProblem, requestSummary } from './request-labels.ts';

const file = (name: string, type: string, size = 10) => new File([new Uint8Array(size)], name, { type });

describe('request labels', () => {
  it('names and explains every kind and every status', () => {
    expect(clientRequestKind.options.map((k) => KIND_LABELS[k])).toEqual(['New test', 'Change to a test', 'Manual test', 'Free retest', 'Question']);
    expect(clientRequestStatus.options.map((s) => STATUS_LABELS[s])).toEqual(['New', 'In progress', 'Done', 'Declined']);
    for (const kind of clientRequestKind.options) expect(KIND_HINTS[kind].length).toBeGreaterThan(20);
  });

  it('sums a request up with who replied last, from the reader’s side', () => {
    const base = { kind: 'retest' as const, createdAt: 'c', lastReplySide: null, lastReplyAt: null };
    expect(requestSummary(base, 'client', (x) => x)).toBe('Free retest · sent c');
    const answered = { ...base, lastReplySide: 'operator' as const, lastReplyAt: 'r' };
    expect(requestSummary(answered, 'client', (x) => x)).toBe('Free retest · sent c · last reply by QA team r');
    expect(requestSummary(answered, 'operator', (x) => x)).toBe('Free retest · sent c · last reply by you r');
    expect(requestSummary({ ...answered, lastReplySide: 'client' }, 'operator', (x) => x)).toBe('Free retest · sent c · last reply by client r');
  });
});

describe('checks before sending', () => {
  it('refuses an empty reply', () => {
    expect(replyProblem('   ', null)).toBe('The reply is empty.');
    expect(replyProblem('Thanks', null)).toBeNull();
  });

  it('refuses a file over 50 MB, naming the limit', () => {
    const big = { name: 'video.mp4', type: 'video/mp4', size: REQUEST_ATTACHMENT_MAX_BYTES + 1 };
    expect(requestAttachmentProblem(big)).toBe('video.mp4 is too large: the limit is 50 MB.');
    expect(requestAttachmentProblem({ ...big, size: REQUEST_ATTACHMENT_MAX_BYTES })).toBeNull();
  });

  it('takes images, video, PDF, text, CSV and zip, and names them when refusing another type', () => {
    for (const [name, type] of [
      ['a.png', 'image/png'],
      ['a.jpg', 'image/jpeg'],
      ['a.mov', 'video/quicktime'],
      ['a.pdf', 'application/pdf'],
      ['a.txt', 'text/plain'],
      ['a.csv', 'application/vnd.ms-excel'],
      ['a.csv', ''],
      ['a.zip', 'application/x-zip-compressed'],
    ]) {
      expect(replyProblem('See attached', file(name!, type!)), name).toBeNull();
    }
    expect(replyProblem('See attached', file('setup.exe', 'application/x-msdownload'))).toMatch(/setup\.exe cannot be attached: send one of PNG, JPEG.*ZIP/);
    expect(replyProblem('See attached', file('empty.png', 'image/png', 0))).toBe('empty.png is empty.');
  });
});
