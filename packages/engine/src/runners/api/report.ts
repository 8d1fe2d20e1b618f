import { casesReport } from '../../reporters/html/kind-cases.ts';

/** API tests in a report: each check, what it expected and what came back. */
export const report = casesReport('api', 'check');
