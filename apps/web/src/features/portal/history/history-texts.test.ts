import { describe, expect, it } from 'vitest';
import { attemptsText, retryText, scopeText } from './history-texts.ts';

describe('history texts', () => {
  it('names what a run covered: every test, a scheduled group, or one test', () => {
    expect(scopeText('all', 8)).toBe('All tests (8)');
    expect(scopeText('group:Checkout', 3)).toBe('Group Checkout');
    expect(scopeText('Marketing pages', 1)).toBe('Marketing pages');
  });

  it('says how often a test was tried', () => {
    expect(attemptsText(1)).toBeNull();
    expect(attemptsText(2)).toBe('2 attempts');
  });

  it('says when a test passed only on retry', () => {
    expect(retryText({ status: 'passed', attempts: 2, maxAttempts: 3 })).toBe('Passed on retry (attempt 2 of 3)');
    expect(retryText({ status: 'passed', attempts: 1, maxAttempts: 3 })).toBeNull();
    expect(retryText({ status: 'error', attempts: 3, maxAttempts: 3 })).toBeNull();
  });
});
