import { casesSampleReport } from '../../reporters/sample-report.ts';
import type { RunReport } from '../../reporters/types.ts';

/** API checks, one failed, with what each expected and what came back. */
export function sample(): RunReport {
  return casesSampleReport('api', 'Backend', 'Public API', [
    { name: 'GET /api/products answers 200', status: 'passed', durationMs: 88, expected: 'status 200', actual: 'status 200' },
    { name: 'POST /api/cart without a token', status: 'failed', durationMs: 140, expected: 'status 401', actual: 'status 500', error: 'expected status 401, got 500' },
    { name: 'GET /api/health', status: 'passed', durationMs: 12 },
  ]);
}
