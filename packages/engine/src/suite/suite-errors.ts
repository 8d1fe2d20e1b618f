/** One problem in a suite: the file, the field inside it (dotted path) and why it is wrong. */
export interface SuiteIssue {
  file: string;
  field: string;
  reason: string;
}

/** A suite failed validation; `issues` lists every problem found, not just the first. */
export class SuiteValidationError extends Error {
  readonly code = 'suite_invalid';
  readonly issues: SuiteIssue[];

  constructor(issues: SuiteIssue[]) {
    super(issues.map((i) => `${i.file}: ${i.field}: ${i.reason}`).join('\n'));
    this.name = 'SuiteValidationError';
    this.issues = issues;
  }
}
