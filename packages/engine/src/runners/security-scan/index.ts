import { SCAN_INCOMPLETE_ERROR, SCAN_NOTHING_TO_ATTACK_ERROR } from '@fullstop/contracts';
import { defineRunner } from '../../lib/define-runner.ts';
import { countAlerts, groupAlerts } from '../../lib/alerts.ts';
import { countByRisk, risksOverThresholds } from '../../lib/findings.ts';
import { NO_TOTALS, writeJsonArtifact } from '../../lib/result.ts';
import { crawlSite } from '../../lib/site-crawl.ts';
import { startPolicyProxy } from '../../policy/policy-proxy.ts';
import { JAIL_PROXY_PORT, netJailOn } from '../../sandbox/net-jail.ts';
import type { Artifact, Finding } from '../../types.ts';
import { securityScanInput } from './options.ts';
import { passiveChecksApplied, passiveFindings } from './passive-rules.ts';
import { attackableCalls, withCalls } from './scan-coverage.ts';
import { runSqlmap } from './sqlmap.ts';
import { runWapiti } from './wapiti.ts';
import { facts, type PassivePage, type ScanCoverage } from './facts.ts';

/** sqlmap's share of the scan's time (maxScanSeconds) when the crawl saw JSON calls, and the least it gets. */
const SQLMAP_SHARE = 1 / 3;
const MIN_SQLMAP_SECONDS = 10;

/** One finding per rule, URL and parameter: the identity false-positive marks match on. */
function dedupe(findings: Finding[]): Finding[] {
  const byKey = new Map<string, Finding>();
  for (const f of findings) {
    const key = `${f.ruleId}\u0000${f.url ?? ''}\u0000${f.param ?? ''}`;
    if (!byKey.has(key)) byKey.set(key, f);
  }
  return [...byKey.values()];
}

export const securityScanRunner = defineRunner({
  facts,
  schema: securityScanInput,
  async execute({ options, thresholds }, { ctx, guard }) {
    for (const page of options.pages) await guard.check(page);
    // The browser crawl of an active scan fills and submits forms, so the calls they make (a login's JSON) are seen.
    const crawl = await crawlSite(guard, ctx, options.pages, { ...options, fetch: true, submitForms: options.active && options.crawl === 'browser' });
    const judged = crawl.responses.map((r) => ({ response: r, findings: passiveFindings(r) }));
    const passive = judged.flatMap((j) => j.findings);
    // What the passive checks read, so the report says what "no alerts" covers.
    const passivePages: PassivePage[] = judged.map(({ response: r, findings: f }) => ({
      url: r.url,
      status: r.status,
      contentType: (r.headers.get('content-type') ?? '').split(';')[0]!.trim(),
      checks: passiveChecksApplied(r),
      findings: f.length,
    }));
    ctx.log('passive checks done', { pages: crawl.responses.length, findings: passive.length });
    ctx.progress?.({ done: 1, total: options.active ? 2 : 1, message: 'passive checks done' });

    const artifacts: Artifact[] = crawl.artifact ? [crawl.artifact] : [];
    let active: Finding[] = [];
    let wapitiNote: Record<string, unknown> | undefined;
    let coverage: ScanCoverage | undefined;
    if (options.active) {
      const start = await guard.check(options.pages[0] ?? '/');
      const excludes = options.exclude.map((x) => new URL(x, guard.baseUrl).href);
      const declared = options.calls.map((c) => ({ method: c.method, url: new URL(c.path, guard.baseUrl).href, json: c.json }));
      const calls = attackableCalls([...crawl.endpoints, ...declared], guard.origins, excludes);
      const startedAt = Date.now();
      // The JSON calls the pages made are sqlmap's (wapiti sees only URLs and HTML forms): it gets a share of the time.
      // Never more than half of it: a short scan stays within its own time (a call with too little is said not run).
      const sqlmapSeconds = calls.length ? Math.min(Math.floor(options.maxScanSeconds / 2), Math.max(MIN_SQLMAP_SECONDS, Math.floor(options.maxScanSeconds * SQLMAP_SHARE))) : 0;
      const proxy = await startPolicyProxy(guard);
      // wapiti and sqlmap run in a network namespace whose only way out is the proxy, at JAIL_PROXY_PORT inside
      // (sandbox/net-jail.ts); where the kernel refuses the namespace, they reach the proxy's own port as before.
      const jailed = netJailOn();
      const proxyUrl = jailed ? `http://127.0.0.1:${JAIL_PROXY_PORT}` : proxy.url;
      const jail = jailed ? { proxySocket: proxy.socketPath, proxyPort: JAIL_PROXY_PORT } : null;
      let wapiti: Awaited<ReturnType<typeof runWapiti>>;
      let sqlmap: Awaited<ReturnType<typeof runSqlmap>> = { findings: [], calls: [] };
      try {
        wapiti = await runWapiti(
          {
            startUrl: start.href,
            modules: options.modules,
            depth: options.depth,
            maxScanSeconds: Math.max(5, options.maxScanSeconds - sqlmapSeconds),
            excludes,
            proxyUrl,
            jail,
            seedUrls: crawl.seedUrls,
          },
          ctx,
        );
        if (calls.length) {
          // What wapiti left of the scan's time, and never less than sqlmap's share.
          const left = Math.floor((startedAt + options.maxScanSeconds * 1000 - Date.now()) / 1000);
          ctx.progress?.({ done: 1, total: 2, message: `sqlmap attacks ${calls.length} JSON call${calls.length === 1 ? '' : 's'}` });
          sqlmap = await runSqlmap({ calls, seconds: Math.max(sqlmapSeconds, left), proxyUrl, jail }, ctx);
        }
      } finally {
        await proxy.close();
      }
      if (proxy.refused.size > 0) ctx.log('wapiti requests refused by the target policy', { urls: [...proxy.refused].slice(0, 20) });
      active = [...wapiti.findings, ...sqlmap.findings];
      coverage = withCalls(wapiti.coverage, sqlmap.calls, { pages: crawl.pages.length, crawl: options.crawl });
      if (coverage.time) coverage.time = { ...coverage.time, budgetSeconds: options.maxScanSeconds, totalSeconds: Math.round((Date.now() - startedAt) / 100) / 10 };
      wapitiNote = { exitCode: wapiti.exitCode, timedOut: wapiti.timedOut, findings: active.length };
      if (wapiti.reportPath) artifacts.push({ path: 'wapiti/report.json', kind: 'json', contentType: 'application/json', label: 'Wapiti report' });
      artifacts.push({ path: 'wapiti/wapiti.log', kind: 'log', contentType: 'text/plain', label: 'Wapiti log' });
      if (sqlmap.calls.some((c) => c.status !== 'not-run')) artifacts.push({ path: 'sqlmap/sqlmap.log', kind: 'log', contentType: 'text/plain', label: 'sqlmap log' });
      if (!coverage.complete) ctx.log('the active scan is incomplete', { why: coverage.incomplete });
      ctx.progress?.({ done: 2, total: 2, message: coverage.complete ? 'active scan done' : 'active scan incomplete' });
    }

    // The summary keeps every instance (false-positive marks match them one by one); counts and thresholds are
    // per alert, as ZAP's report summary counts them (docs/decisions/0059-zap-alert-semantics.md).
    const findings = dedupe([...passive, ...active]);
    const { 'False Positives': _none, ...counts } = countAlerts(findings);
    const over = risksOverThresholds(counts, thresholds);
    const summary = { kind: 'security-scan' as const, findings, ...(coverage ? { coverage } : {}), passive: passivePages };
    const alerts = groupAlerts(findings).map(({ instances, ...alert }) => ({
      ...alert,
      instances: instances.map((f) => ({ url: f.url ?? null, param: f.param ?? null, evidence: f.evidence ?? null })),
    }));
    artifacts.unshift(
      await writeJsonArtifact(
        ctx,
        'security-scan/findings.json',
        { counts, instanceCounts: countByRisk(findings), alerts, pages: crawl.responses.map((r) => r.url), passive: passivePages, crawlErrors: crawl.errors, wapiti: wapitiNote, ...(coverage ? { coverage } : {}) },
        'Security scan findings',
      ),
    );
    // Thresholds judge the findings there are: one over them fails the test whatever the coverage. With none, a scan
    // that left part of the site unattacked is incomplete, never passed (docs/decisions/0058).
    if (over.length === 0 && coverage && !coverage.complete) {
      return {
        status: 'error',
        totals: NO_TOTALS,
        summary,
        artifacts,
        error: `${SCAN_INCOMPLETE_ERROR}: ${coverage.incomplete}. ${coverage.progress}.`,
        errorCode: 'scan_incomplete',
      };
    }
    // Nothing over the thresholds, and nothing attacked: no verdict, never "passed" (issue 38).
    if (over.length === 0 && coverage?.nothingToAttack) {
      return {
        status: 'error',
        totals: NO_TOTALS,
        summary,
        artifacts,
        error: `${SCAN_NOTHING_TO_ATTACK_ERROR}: ${coverage.nothingToAttack}.`,
        errorCode: 'scan_nothing_to_attack',
      };
    }
    const passed = over.length === 0;
    return {
      status: passed ? 'passed' : 'failed',
      totals: { totalTests: 1, passedTests: passed ? 1 : 0, failedTests: passed ? 0 : 1, skippedTests: 0 },
      summary,
      artifacts,
    };
  },
});

/** The name the registry and the runner processes load a kind's runner by. */
export { securityScanRunner as runner };
