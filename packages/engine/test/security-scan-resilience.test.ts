import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderReportHtml } from '../src/reporters/html/render-report.ts';
import type { RunReport } from '../src/reporters/types.ts';
import type { ScanCoverage } from '../src/runners/security-scan/facts.ts';
import { securityScanRunner } from '../src/runners/security-scan/index.ts';
import { DEFAULT_WAPITI_MODULES } from '../src/runners/security-scan/wapiti.ts';
import type { Finding, RunnerResult } from '../src/types.ts';
import { startPlantedServer } from './fixtures/planted-server.ts';
import { STAND_IN_WAPITI, startTrapSite } from './fixtures/trap-site.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

function coverageOf(result: RunnerResult): ScanCoverage {
  if (result.summary.kind !== 'security-scan' || !result.summary.coverage) throw new Error(`no scan coverage in ${result.summary.kind}`);
  return result.summary.coverage;
}

/** wapiti's reflected XSS on `url` (parameter q), whatever rule id and name the findings carry it under. */
const reflectedXss = (findings: Finding[], url: string) => findings.filter((f) => /^Cross Site Scripting/.test(f.name) && f.url === url && f.param === 'q');

const modulesOf = (coverage: ScanCoverage, url: string) => coverage.targets.find((t) => t.url === url)?.modules;
const sorted = (list: readonly string[]) => [...list].sort();

/**
 * A scan of a trap site on which the stand-in wapiti fails as `trap` says (a module that crashes, a process that
 * exits), with its coverage and wapiti's log; the site is closed again.
 */
async function scanTrapSite(trap: Record<string, string>, thresholds: Record<string, number> = { maxHigh: 99 }, maxScanSeconds = 60) {
  const site = await startTrapSite(trap);
  try {
    const ctx = await makeContext({ wapitiPath: STAND_IN_WAPITI });
    const result = await securityScanRunner.run(testOf('security-scan', { crawl: false, depth: 1, maxScanSeconds }, { thresholds }), localTarget(site.url), ctx);
    const log = await readFile(path.join(ctx.runDir, 'wapiti/wapiti.log'), 'utf8');
    return { url: site.url, ctx, result, coverage: coverageOf(result), log };
  } finally {
    await site.close();
  }
}

/** The run as the server hands it to the reporters. */
function reportOf(result: RunnerResult): RunReport {
  return {
    clientName: 'Acme',
    testName: 'Weekly scan',
    group: 'Security',
    kind: 'security-scan',
    runId: 'run-1',
    status: result.status,
    totals: result.totals,
    durationMs: result.durationMs,
    startedAt: '2026-11-23T10:00:00.000Z',
    finishedAt: '2026-11-23T10:01:00.000Z',
    target: 'http://127.0.0.1/',
    summary: result.summary,
    error: result.error ?? null,
    artifacts: result.artifacts,
    attempts: [],
  };
}

describe('security scan resilience', () => {
  const planted = serverForSuite(startPlantedServer);

  it('runs a module again without the URL it crashed on, keeps the other modules, and reports the scan incomplete', async () => {
    // Thresholds the XSS it finds stays under: the scan is judged on its coverage alone.
    const { url, ctx, result, coverage, log } = await scanTrapSite({ 'x-fixture-crash': 'exec' });

    // Never "passed": incomplete, in words that say what was not attacked and count only the modules that
    // attacked everything; not retried by the queue.
    expect(result.status, log).toBe('error');
    expect(result.errorCode).toBe('scan_incomplete');
    expect(securityScanRunner.facts.errorCodes.scan_incomplete).toEqual({ retried: false });
    expect(result.error).toBe('The scan is incomplete: exec did not finish on GET /crash (id). 6 of 7 modules finished; exec stopped at GET /crash.');
    expect(coverage.incomplete).toBe('exec did not finish on GET /crash (id)');
    expect(coverage.progress).toBe('6 of 7 modules finished; exec stopped at GET /crash');
    expect(coverage.complete).toBe(false);
    expect(coverage.errors).toEqual([
      { module: 'exec', error: expect.stringMatching(/^UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9/), method: 'GET', url: `${url}/crash`, params: ['id'], retried: true },
    ]);

    // Every module ran to the end; exec twice, the second time around the URL that broke it.
    expect(coverage.modules.map((m) => [m.name, m.status, m.runs])).toEqual(sorted(DEFAULT_WAPITI_MODULES).map((m) => [m, 'finished', m === 'exec' ? 2 : 1]));
    expect(sorted(modulesOf(coverage, `${url}/search`) ?? [])).toEqual(sorted(DEFAULT_WAPITI_MODULES));
    expect(sorted(modulesOf(coverage, `${url}/zed`) ?? [])).toEqual(sorted(DEFAULT_WAPITI_MODULES));
    expect(sorted(modulesOf(coverage, `${url}/crash`) ?? [])).toEqual(sorted(DEFAULT_WAPITI_MODULES.filter((m) => m !== 'exec')));
    expect(log).toContain('===== wapiti run 2: exec alone');

    // What the modules found is kept: the reflected XSS on /search, found after exec crashed.
    if (result.summary.kind !== 'security-scan') throw new Error('unexpected summary');
    expect(reflectedXss(result.summary.findings, `${url}/search`)).toHaveLength(1);
    const saved = JSON.parse(await readFile(path.join(ctx.runDir, 'security-scan/findings.json'), 'utf8')) as { coverage: ScanCoverage };
    expect(saved.coverage).toEqual(coverage);
    expect(result.artifacts.map((a) => a.path)).toEqual(['security-scan/findings.json', 'wapiti/report.json', 'wapiti/wapiti.log']);

    // The report says "incomplete" in its verdict and shows the coverage table.
    const page = renderReportHtml(reportOf(result));
    expect(page).toContain('<p class="verdict">Incomplete scan: exec did not finish on GET /crash (id). 6 of 7 modules finished; exec stopped at GET /crash');
    expect(page).toContain('<h2>Why the scan is incomplete</h2>');
    expect(page).toContain('<h2>Scan coverage</h2>');
    expect(page).toContain('stopped at 1 URL, finished the rest');
    expect(page).not.toContain('7 of 7');
    expect(page).toContain('Run again without that URL');
    expect(page).not.toContain('could not run');
  });

  it('runs each module a dead wapiti process never finished in a process of its own', async () => {
    const { url, result, coverage, log } = await scanTrapSite({ 'x-fixture-exit': 'sql' });

    expect(result.status, log).toBe('error');
    expect(result.error).toBe('The scan is incomplete: sql did not finish on GET /crash (id). 6 of 7 modules finished; sql stopped at GET /crash.');
    expect(coverage.errors[0]?.error).toBe('wapiti stopped with exit code 70');
    // wapiti runs exec, file, sql, xss, redirect, blindsql, permanentxss in that order: it died in sql.
    expect(coverage.modules.map((m) => [m.name, m.status, m.runs])).toEqual(sorted(DEFAULT_WAPITI_MODULES).map((m) => [m, 'finished', m === 'sql' ? 2 : 1]));
    // Each module it never finished ran again in a process of its own (xss with permanentxss, which needs it).
    const reruns = [...log.matchAll(/^===== wapiti run \d+: ([\w, ]+) alone/gm)].map((m) => m[1] ?? '');
    expect(sorted(reruns)).toEqual(['blindsql', 'redirect', 'sql', 'xss, permanentxss']);
    expect(sorted(modulesOf(coverage, `${url}/search`) ?? [])).toEqual(sorted(DEFAULT_WAPITI_MODULES));
    if (result.summary.kind !== 'security-scan') throw new Error('unexpected summary');
    expect(reflectedXss(result.summary.findings, `${url}/search`)).toHaveLength(1);
  });

  it('judges the findings an incomplete scan made: a High fails it, and it stays incomplete in words', async () => {
    const { url, result, coverage, log } = await scanTrapSite({ 'x-fixture-crash': 'exec' }, {});

    expect(result.status, log).toBe('failed');
    expect(result.error).toBeUndefined();
    expect(coverage.complete).toBe(false);
    if (result.summary.kind !== 'security-scan') throw new Error('unexpected summary');
    expect(reflectedXss(result.summary.findings, `${url}/search`)).toHaveLength(1);
    const page = renderReportHtml(reportOf(result));
    expect(page).toMatch(/<p class="verdict">Failed with \d+ alerts?: [^<]*High[^<]* \(incomplete: exec did not finish on GET \/crash \(id\)\)/);
  });

  it('runs a crashed module again only within the scan\'s own time (maxScanSeconds), and says where the time went', async () => {
    // 5 s, the least a scan may have: the first run uses it, none is left for a module to run again.
    const { coverage, log } = await scanTrapSite({ 'x-fixture-crash': 'exec' }, { maxHigh: 99 }, 5);
    expect(log).not.toContain('===== wapiti run 2');
    expect(coverage.modules.find((m) => m.name === 'exec')).toMatchObject({ status: 'crashed', runs: 1 });
    expect(coverage.errors.map((e) => [e.module, e.error])).toContainEqual(['exec', 'no time was left in the scan (maxScanSeconds) to run it again']);
    // On a busy machine another module may also run out of its share of the 5 s: exec is named first all the same.
    expect(coverage.incomplete).toMatch(/^exec did not finish on GET \/crash \(id\)/);
    expect(coverage.progress).toMatch(/^\d of 7 modules finished; exec stopped at GET \/crash/);
    expect(coverage.time?.budgetSeconds).toBe(5);
    expect(coverage.modules.every((m) => typeof m.seconds === 'number')).toBe(true);
  });

  it('a clean scan of the planted site attacks every URL with every module, finds its XSS and is complete', async () => {
    const ctx = await makeContext();
    // Thresholds that let the planted flaws pass: a complete scan passes or fails on its findings alone.
    const result = await securityScanRunner.run(testOf('security-scan', { maxScanSeconds: 60 }, { thresholds: { maxHigh: 99 } }), localTarget(planted.url), ctx);
    const coverage = coverageOf(result);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('passed');
    expect(coverage).toMatchObject({ complete: true, errors: [] });
    expect(coverage.incomplete).toBeUndefined();
    expect(coverage.modules.map((m) => [m.name, m.status, m.runs])).toEqual(sorted(DEFAULT_WAPITI_MODULES).map((m) => [m, 'finished', 1]));
    // permanentxss looks for stored payloads in pages it reads; by design it skips a redirect (nothing is shown).
    expect(sorted(coverage.targets.map((t) => `${t.method} ${t.url} ${t.params.join(',')}: ${t.modules.join(',')}`))).toEqual(
      sorted([
        `GET ${planted.url}/search q: ${sorted(DEFAULT_WAPITI_MODULES).join(',')}`,
        `GET ${planted.url}/go url: ${sorted(DEFAULT_WAPITI_MODULES.filter((m) => m !== 'permanentxss')).join(',')}`,
        `GET ${planted.url}/a11y q: ${sorted(DEFAULT_WAPITI_MODULES).join(',')}`,
      ]),
    );
    // The redirect endpoint was attacked to the end by every module (sql crashed there before decision 0058's
    // patch), and the report says how the scan's time went, module by module.
    expect(coverage.progress).toBe('7 of 7 modules finished');
    expect(coverage.time?.budgetSeconds).toBe(60);
    for (const m of coverage.modules) expect(m.seconds, m.name).toBeGreaterThanOrEqual(0);
    expect(coverage.modules.reduce((sum, m) => sum + (m.seconds ?? 0), 0)).toBeGreaterThan(0);
    expect(coverage.time?.totalSeconds).toBeGreaterThanOrEqual(coverage.time?.crawlSeconds ?? 0);
    if (result.summary.kind !== 'security-scan') throw new Error('unexpected summary');
    expect(reflectedXss(result.summary.findings, `${planted.url}/search`)).toHaveLength(1);
    const page = renderReportHtml(reportOf(result));
    expect(page).toContain('<h2>Scan coverage</h2>');
    expect(page).toContain('Every attack module ran to the end on every URL and form the scanner found.');
    expect(page).toContain('all 7 modules');
  });
});
