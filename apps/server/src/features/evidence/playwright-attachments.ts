/** A file Playwright attached to a test (its trace, a screenshot), with the case name the run's cases use. */
export interface PlaywrightAttachment {
  caseName: string;
  /** As Playwright wrote it: an absolute path on the machine that ran the test. */
  path: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * Every attachment with a path in Playwright's JSON report, each tied to its case named `file › describe ›
 * title` (as the browser runner names cases). Anything that is not such a report gives nothing.
 */
export function playwrightAttachments(report: unknown): PlaywrightAttachment[] {
  const found: PlaywrightAttachment[] = [];
  const walk = (suite: unknown, titles: string[]) => {
    if (!isRecord(suite)) return;
    const here = typeof suite.title === 'string' && suite.title ? [...titles, suite.title] : titles;
    for (const spec of list(suite.specs)) {
      if (!isRecord(spec) || typeof spec.title !== 'string') continue;
      const caseName = [...here, spec.title].join(' › ');
      for (const test of list(spec.tests)) {
        for (const result of list(isRecord(test) ? test.results : null)) {
          for (const a of list(isRecord(result) ? result.attachments : null)) {
            if (isRecord(a) && typeof a.path === 'string') found.push({ caseName, path: a.path });
          }
        }
      }
    }
    for (const child of list(suite.suites)) walk(child, here);
  };
  if (isRecord(report)) for (const suite of list(report.suites)) walk(suite, []);
  return found;
}
