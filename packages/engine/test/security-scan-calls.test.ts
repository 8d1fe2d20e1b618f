import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SCAN_NOTHING_TO_ATTACK_ERROR } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { sampleReport } from '../src/reporters/sample-report.ts';
import { verdict } from '../src/reporters/html/verdict.ts';
import { securityScanRunner } from '../src/runners/security-scan/index.ts';
import type { RunnerResult } from '../src/types.ts';
import { JSON_LOGIN, startJsonLoginSite, startStaticSite } from './fixtures/json-login-site.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

function scanOf(result: RunnerResult) {
  if (result.summary.kind !== 'security-scan') throw new Error(`unexpected summary ${result.summary.kind}`);
  return result.summary;
}

/** The run report of a result, as the reporters read it. */
const reportOf = (result: RunnerResult) =>
  sampleReport({ kind: 'security-scan', group: 'Security', testName: 'scan', status: result.status, totals: result.totals, summary: result.summary, error: result.error ?? null, attempts: [] });

/**
 * The active scan attacks what the browser saw (issue 38): a login whose form a script renders and whose call is a
 * JSON POST is invisible to wapiti; the browser crawl fills and submits it, records the call's shape, and sqlmap
 * attacks it. A scan that found nothing to attack says so, never "passed".
 */
describe('security scan of the calls a page makes', () => {
  const login = serverForSuite(startJsonLoginSite);
  const brochure = serverForSuite(startStaticSite);

  it('submits a script-rendered JSON login, attacks its call with sqlmap and reports the SQL injection', async () => {
    const ctx = await makeContext();
    const result = await securityScanRunner.run(
      testOf('security-scan', { pages: [JSON_LOGIN.page], crawl: 'browser', maxPages: 3, crawlSeconds: 20, modules: ['sql'], depth: 0, maxScanSeconds: 40 }),
      localTarget(login.url),
      ctx,
    );
    const scan = scanOf(result);
    const log = await readFile(path.join(ctx.runDir, 'sqlmap/sqlmap.log'), 'utf8').catch(() => '(no sqlmap log)');
    // The crawl saw the call's shape, never its values.
    const crawl = JSON.parse(await readFile(path.join(ctx.runDir, 'crawl/browser-crawl.json'), 'utf8')) as { endpoints: { method: string; url: string; json?: Record<string, string> }[]; formsSubmitted: unknown[] };
    expect(crawl.endpoints.find((e) => e.url === `${login.url}${JSON_LOGIN.call}`)).toEqual({
      method: 'POST',
      url: `${login.url}${JSON_LOGIN.call}`,
      page: `${login.url}${JSON_LOGIN.page}`,
      json: { email: 'string', password: 'string', remember: 'boolean' },
    });
    // The login was submitted; the form that deletes the account never was, so its call was never made.
    expect(crawl.formsSubmitted).toHaveLength(1);
    expect(login.requestsByPath.get(JSON_LOGIN.deleteCall)).toBeUndefined();
    expect(scan.coverage?.calls, log.slice(-3000)).toEqual([
      expect.objectContaining({ method: 'POST', url: `${login.url}${JSON_LOGIN.call}`, params: ['email', 'password', 'remember'], status: 'finished' }),
    ]);
    expect(scan.coverage?.attacked?.calls).toBe(1);
    // sqlmap ran in the attempt's network jail (sandbox/net-jail.ts): its only way to the fixture was the policy proxy.
    const sql = scan.findings.filter((f) => f.ruleId === '40018');
    expect(sql.map((f) => [f.name, f.risk, f.url, f.param]), log.slice(-3000)).toEqual([['SQL Injection', 'High', `${login.url}${JSON_LOGIN.call}`, JSON_LOGIN.vulnerableField]]);
    expect(sql[0]?.evidence).toContain('SQLite');
    // A High alert fails the default threshold; the report counts the call attacked.
    expect(result.status).toBe('failed');
    expect(result.artifacts.map((a) => a.path)).toContain('sqlmap/sqlmap.log');
    const { buildReportHtml } = await import('../src/reporters/html-reporter.ts');
    const html = await buildReportHtml(reportOf(result), { runDir: ctx.runDir });
    expect(html).toContain('JSON calls attacked (sqlmap)');
    expect(html).toContain('1 JSON call (sqlmap)');
  }, 90_000);

  it('says "nothing to attack", never passed, of a site with no parameter, form or call, in its verdict and its report', async () => {
    const ctx = await makeContext();
    const result = await securityScanRunner.run(
      testOf('security-scan', { pages: ['/'], crawl: 'browser', maxPages: 2, crawlSeconds: 10, modules: ['xss', 'sql'], depth: 1, maxScanSeconds: 20 }),
      localTarget(brochure.url),
      ctx,
    );
    const scan = scanOf(result);
    expect(result.status).toBe('error');
    expect(result.errorCode).toBe('scan_nothing_to_attack');
    expect(result.error).toBe(`${SCAN_NOTHING_TO_ATTACK_ERROR}: the scanner found no URL with parameters, form or JSON call to attack on the 1 page crawled.`);
    expect(scan.coverage).toMatchObject({ complete: true, attacked: { targets: 0, calls: 0 }, calls: [] });
    // The passive checks still judged the page, and the report lists it with the checks that applied.
    expect(scan.passive).toEqual([expect.objectContaining({ url: `${brochure.url}/`, status: 200, contentType: 'text/html', checks: expect.arrayContaining(['CSP', 'nosniff']) })]);
    const report = reportOf(result);
    expect(verdict(report)).toBe('Nothing to attack: the scanner found no URL with parameters, form or JSON call to attack on the 1 page crawled');
    const { buildReportHtml } = await import('../src/reporters/html-reporter.ts');
    const html = await buildReportHtml(report, { runDir: ctx.runDir });
    expect(html).toContain('Why the scan attacked nothing');
    expect(html).toContain('What the passive checks judged');
    expect(html).not.toContain('No alerts found');
  }, 90_000);
});
