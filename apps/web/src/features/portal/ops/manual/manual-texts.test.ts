import { MANUAL_EVIDENCE_MAX_BYTES, MANUAL_EVIDENCE_TYPES_TEXT, type ManualStepVerdictValue } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { evidenceProblem } from './manual-evidence.tsx';
import { caseVerdict, claimBlockedReason, dueState, firstStepWithoutVerdict, holderText, isNotReached, progressText } from './manual-texts.ts';

const steps = (...verdicts: (ManualStepVerdictValue | null)[]) => verdicts.map((verdict) => ({ verdict }));
const item = (over: Partial<{ id: string; status: 'waiting' | 'claimed' | 'submitted' | 'not-run'; claimedBy: string | null; claimedByMe: boolean }> = {}) => ({
  id: 'w1',
  status: 'waiting' as const,
  claimedBy: null,
  claimedByMe: false,
  ...over,
});

describe('manual work: how near its due time is (issue 41)', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  it('is overdue once past it, due soon within 4 hours, otherwise nothing to highlight', () => {
    expect(dueState('2026-11-28T11:59:00Z', now)).toBe('overdue');
    expect(dueState('2026-11-28T12:00:00Z', now)).toBe('overdue');
    expect(dueState('2026-11-28T15:59:00Z', now)).toBe('soon');
    expect(dueState('2026-11-28T16:00:00Z', now)).toBe('soon');
    expect(dueState('2026-11-28T16:01:00Z', now)).toBe('later');
    expect(dueState('not a date', now)).toBe('later');
  });
});

describe('manual work: who may claim it', () => {
  it('anyone holding nothing may claim waiting work', () => {
    expect(claimBlockedReason(item(), null)).toBeNull();
  });

  it('not while the caller holds another piece of work, and says why', () => {
    expect(claimBlockedReason(item(), 'w2')).toBe('You are already working on another case: submit it or give it back first.');
  });

  it('not work another tester holds, naming them', () => {
    expect(claimBlockedReason(item({ status: 'claimed', claimedBy: 'Ana Tester' }), null)).toBe('Ana Tester is working on it.');
    expect(holderText(item({ status: 'claimed', claimedBy: 'Ana Tester' }))).toBe('Ana Tester');
  });

  it('the caller’s own work needs no claim', () => {
    const mine = item({ status: 'claimed', claimedBy: 'Me', claimedByMe: true });
    expect(claimBlockedReason(mine, 'w1')).toBeNull();
    expect(holderText(mine)).toBe('you');
    expect(holderText(item())).toBeNull();
  });
});

describe('manual work: the steps a tester walked', () => {
  it('marks every step after the first failed or blocked one as not reached', () => {
    const walked = steps('passed', 'failed', null, 'passed');
    expect([0, 1, 2, 3].map((i) => isNotReached(walked, i))).toEqual([false, false, true, true]);
    const blocked = steps('blocked', 'failed');
    expect([0, 1].map((i) => isNotReached(blocked, i))).toEqual([false, true]);
    expect([0, 1, 2].map((i) => isNotReached(steps('passed', null, 'passed'), i))).toEqual([false, false, false]);
  });

  it('needs a verdict on every step up to the first stop before submitting', () => {
    expect(firstStepWithoutVerdict(steps('passed', null, 'passed'))).toBe(2);
    expect(firstStepWithoutVerdict(steps('passed', 'failed', null, null))).toBeNull();
    expect(firstStepWithoutVerdict(steps('passed', 'passed'))).toBeNull();
    expect(firstStepWithoutVerdict(steps(null))).toBe(1);
  });

  it('settles the case as the server does: failed, else blocked, else passed', () => {
    expect(caseVerdict(steps('passed', 'blocked', 'failed'))).toBe('failed');
    expect(caseVerdict(steps('passed', 'blocked'))).toBe('blocked');
    expect(caseVerdict(steps('passed', 'passed'))).toBe('passed');
  });

  it('counts the steps with a verdict', () => {
    expect(progressText(steps('passed', null, null))).toBe('1 of 3 steps done');
    expect(progressText(steps(null))).toBe('0 of 1 step done');
  });
});

describe('manual work: evidence a step takes', () => {
  it('screenshots and recordings only, of the size a bug’s attachment may have, at most 5 per step', () => {
    expect(evidenceProblem({ name: 'shot.png', type: 'image/png', size: 1000 }, 0)).toBeNull();
    expect(evidenceProblem({ name: 'clip.mp4', type: 'video/mp4', size: 1000 }, 4)).toBeNull();
    expect(evidenceProblem({ name: 'photo.heic', type: 'image/heic', size: 1000 }, 0)).toBe(
      `photo.heic is not one of the files a step takes (${MANUAL_EVIDENCE_TYPES_TEXT}).`,
    );
    expect(evidenceProblem({ name: 'long.webm', type: 'video/webm', size: MANUAL_EVIDENCE_MAX_BYTES + 1 }, 0)).toMatch(/^long\.webm is .* MB: a file can be at most .* MB\.$/);
    expect(evidenceProblem({ name: 'sixth.png', type: 'image/png', size: 1000 }, 5)).toBe('sixth.png was not added: a step takes at most 5 files.');
  });
});
