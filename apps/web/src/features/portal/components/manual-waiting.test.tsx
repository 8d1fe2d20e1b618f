import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDate } from '@/lib/format-date.ts';
import { ManualWaitingNote, manualWaitingText } from './manual-waiting.tsx';

afterEach(cleanup);

const dueAt = '2026-11-30T09:00:00.000Z';

describe('a run’s manual cases waiting for a tester (issue 41)', () => {
  it('says how many wait and when they are due, in the one date format', () => {
    expect(manualWaitingText({ count: 2, dueAt })).toBe(`2 manual cases waiting for a tester, due by ${formatDate(dueAt)}`);
    expect(manualWaitingText({ count: 1, dueAt })).toBe(`1 manual case waiting for a tester, due by ${formatDate(dueAt)}`);
  });

  it('says nothing when none waits, or the server does not say', () => {
    expect(manualWaitingText({ count: 0, dueAt })).toBeNull();
    expect(manualWaitingText(null)).toBeNull();
    expect(manualWaitingText(undefined)).toBeNull();
    const { container } = render(<ManualWaitingNote run={{ runId: 'r1' }} />);
    expect(container.textContent).toBe('');
  });

  it('is announced politely as a sentence', () => {
    render(<ManualWaitingNote run={{ runId: 'r1', manual: { count: 3, dueAt } }} />);
    expect(screen.getByRole('status').textContent).toBe(`3 manual cases waiting for a tester, due by ${formatDate(dueAt)}.`);
  });
});
