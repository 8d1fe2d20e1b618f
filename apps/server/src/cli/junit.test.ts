import { SCAN_INCOMPLETE_ERROR, SCAN_NOTHING_TO_ATTACK_ERROR } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { runToJunit, verdictOf, type CiTestResult } from './junit.ts';

const scan = (error: string): CiTestResult => ({ group: 'Security', testName: 'zap scan', status: 'error', durationMs: 1000, error, totals: null });

describe('a security scan in JUnit', () => {
  it('is never a pass when it had nothing to attack: an error case of its own type, counted as no verdict', () => {
    const error = `${SCAN_NOTHING_TO_ATTACK_ERROR}: the scanner found no URL with parameters, form or JSON call to attack on the 1 page crawled.`;
    expect(verdictOf('error', error)).toBe('incomplete');
    const xml = runToJunit({ runId: 'r1', startedAt: null, tests: [scan(error)] });
    expect(xml).toContain(`<error type="nothing-to-attack" message="${error}">`);
    expect(xml).toContain('<testsuite name="Security" tests="1" failures="0" errors="1" skipped="0"');
  });

  it('keeps the type of an incomplete scan', () => {
    const xml = runToJunit({ runId: 'r1', startedAt: null, tests: [scan(`${SCAN_INCOMPLETE_ERROR}: sql did not finish on GET /go (url).`)] });
    expect(xml).toContain('<error type="incomplete-scan"');
  });
});
