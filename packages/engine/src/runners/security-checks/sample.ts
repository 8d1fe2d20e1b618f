import { casesSampleReport } from '../../reporters/sample-report.ts';
import type { RunReport } from '../../reporters/types.ts';

/** Security checks that all passed. */
export function sample(): RunReport {
  return casesSampleReport('security-checks', 'Security', 'Headers and TLS', [
    { name: 'Strict-Transport-Security is set', status: 'passed', durationMs: 310, expected: 'max-age ≥ 15552000', actual: 'max-age=31536000' },
    { name: 'Content-Security-Policy is set', status: 'passed', durationMs: 290, expected: 'present', actual: "default-src 'self'" },
  ]);
}
