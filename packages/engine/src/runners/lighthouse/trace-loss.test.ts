import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../reporters/types.ts';
import { traceLossOf } from './index.ts';
import { report } from './report.ts';

describe('a trace Lighthouse lost', () => {
  it('is audited again only when Lighthouse lost its own trace, never for what the page did', () => {
    expect(traceLossOf({ runtimeError: { code: 'NO_NAVSTART' } })).toBe('NO_NAVSTART');
    expect(traceLossOf({ runtimeError: { code: 'NO_TRACING_STARTED' } })).toBe('NO_TRACING_STARTED');
    // The page's own failures: a document that did not load, a page that never painted, a 404.
    for (const code of ['ERRORED_DOCUMENT_REQUEST', 'NO_FCP', 'PAGE_HUNG', 'FAILED_DOCUMENT_REQUEST']) expect(traceLossOf({ runtimeError: { code } })).toBeNull();
    expect(traceLossOf({})).toBeNull();
  });

  it('says in the report that the scores are a second audit’s', () => {
    const page = { url: 'https://shop.example/', scores: { performance: 97, accessibility: 100, 'best-practices': 100, seo: 100 }, passed: true, failedThresholds: [] };
    const html = (auditedAgain?: string) =>
      report.body({} as RunReport, { kind: 'lighthouse', pages: [{ ...page, ...(auditedAgain ? { auditedAgain } : {}) }] }, { condensed: false } as never);
    expect(html('NO_NAVSTART')).toContain('Lighthouse lost this page load’s trace (NO_NAVSTART) on its first audit');
    expect(html()).not.toContain('lost this page load');
  });
});
