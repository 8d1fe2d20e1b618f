import type { OpsFinding } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { canMarkFalsePositive, createBugLink, feedFilters, findingText } from './triage-links.ts';

const alert: OpsFinding = { source: 'security-alert', ruleId: '40012', name: 'Cross Site Scripting', severity: 'High', url: 'https://a.test/?q=<x>', falsePositive: false };

describe('runs feed triage', () => {
  it('links "Create bug" to the Bugs page with the run test and the rule', () => {
    expect(createBugLink('c-1', 'rt-2')).toBe('/ops/bugs?new=1&clientId=c-1&runTestId=rt-2');
    expect(createBugLink('c-1', 'rt-2', 'a&b')).toBe('/ops/bugs?new=1&clientId=c-1&runTestId=rt-2&ruleId=a%26b');
  });

  it('describes a finding and offers false positive only for unmarked alerts', () => {
    expect(findingText(alert)).toBe('High · Cross Site Scripting · https://a.test/?q=<x>');
    expect(canMarkFalsePositive(alert)).toBe(true);
    expect(canMarkFalsePositive({ ...alert, falsePositive: true })).toBe(false);
    expect(canMarkFalsePositive({ ...alert, source: 'accessibility' })).toBe(false);
  });

  it('reads only valid filters from the address', () => {
    expect(feedFilters(new URLSearchParams('status=failed&clientId=abc&page=2'))).toEqual({ status: 'failed', clientId: 'abc', page: 2 });
    expect(feedFilters(new URLSearchParams('status=nope&clientId=a%20b&page=-3'))).toEqual({ page: 1 });
  });
});
