import { casesReport } from '../../reporters/html/kind-cases.ts';

/** Security checks in a report: each check, what it expected and what came back. */
export const report = casesReport('security-checks', 'check');
