import { paths, runStatus, type OpsFailingTest, type OpsFinding, type RunStatus } from '@fullstop/contracts';

/**
 * Where "Create bug" goes: the console's Bugs page, which opens a form prefilled from this run test (and from the
 * alert or violation when one is named).
 */
export function createBugLink(clientId: string, runTestId: string, ruleId?: string): string {
  const search = new URLSearchParams({ new: '1', clientId, runTestId });
  if (ruleId) search.set('ruleId', ruleId);
  return `${paths.opsBugs}?${search.toString()}`;
}

/** A finding in one line: "High · Cross Site Scripting (Reflected) · https://a.test/search". */
export function findingText(f: OpsFinding): string {
  return [f.severity, f.name || f.ruleId, f.url].filter(Boolean).join(' · ');
}

/** Only security alerts not yet marked can be marked false positives. */
export const canMarkFalsePositive = (f: OpsFinding) => f.source === 'security-alert' && !f.falsePositive;

/** The feed's filters from the address: a valid status and a client id, else none. */
export function feedFilters(params: URLSearchParams): { status?: RunStatus; clientId?: string; page: number } {
  const status = runStatus.safeParse(params.get('status'));
  const clientId = params.get('clientId') ?? '';
  return {
    ...(status.success ? { status: status.data } : {}),
    ...(/^[A-Za-z0-9_-]{1,64}$/.test(clientId) ? { clientId } : {}),
    page: Math.max(1, Math.floor(Number(params.get('page')) || 1)),
  };
}

/** "Re-run" names the test; a flaky one says so in its label. */
export const rerunLabel = (t: Pick<OpsFailingTest, 'testName'>) => `Re-run ${t.testName}`;
