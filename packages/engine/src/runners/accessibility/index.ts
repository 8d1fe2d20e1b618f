import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { caseInCell } from '@fullstop/contracts';
import { RunAbortedError } from '../../errors.ts';
import { defineRunner } from '../../lib/define-runner.ts';
import { errorMessage, pagesOutcome, writeJsonArtifact } from '../../lib/result.ts';
import { crawlSite } from '../../lib/site-crawl.ts';
import type { Artifact, CaseResult } from '../../types.ts';
import { cellsOf, isClassic } from '../browser/matrix.ts';
import { type CellSession, openCellSession } from './cell-session.ts';
import { IMPACTS, accessibilityInput } from './options.ts';
import { facts } from './facts.ts';

type PageResult = {
  url: string;
  cell?: string;
  passed: boolean;
  violationsByImpact: Record<string, number>;
  violations: { id: string; impact: string; help: string; nodes: number; targets: string[]; tags: string[]; helpUrl: string }[];
  notReady?: string;
  error?: string;
};

/** Affected elements listed per rule; `nodes` keeps the real count. */
export const MAX_TARGETS_PER_RULE = 20;

/**
 * An element's selector as axe gives it: one CSS selector per frame (outermost first), each a list when the
 * element sits in shadow DOM. Joined with `>>>`, the way Playwright writes a path through frames and shadow roots.
 */
function selectorOf(target: readonly (string | readonly string[])[]): string {
  return target.map((part) => (typeof part === 'string' ? part : part.join(' >>> '))).join(' >>> ');
}

/** axe's category tags (cat.forms ...) say nothing a reader needs; the standards ones (wcag2aa ...) do. */
const isStandardTag = (tag: string) => !tag.startsWith('cat.');

/** A page in a cell as a case (history, the portal's matrix): named `<url> [<cell>]`, failing with the rules it breaks. */
function caseOf(p: PageResult, durationMs: number, failRank: number): CaseResult {
  const failing = p.violations.filter((v) => IMPACTS.indexOf(v.impact as (typeof IMPACTS)[number]) >= failRank);
  const error = p.error ?? (failing.length ? `${failing.length} ${failing.length === 1 ? 'rule' : 'rules'} broken: ${failing.map((v) => `${v.id} (${v.impact})`).join(', ')}` : undefined);
  return { name: caseInCell(p.url, p.cell), status: p.passed ? 'passed' : 'failed', durationMs: Math.round(durationMs), ...(p.cell ? { cell: p.cell } : {}), ...(!p.passed && error ? { error } : {}) };
}

/**
 * axe-core on each listed page (and, with `crawl`, each page found from them), pages one after another (axe is
 * CPU-bound), in one browser per cell (engine × device × network, decision 0078), cells one after another. A test
 * on Chromium on the desktop only (every test before the matrix) has one cell and reads as before: its pages carry
 * no cell and it has no cases.
 */
export const accessibilityRunner = defineRunner({
  facts,
  schema: accessibilityInput,
  async execute({ options }, { ctx, guard }) {
    let urls = [];
    for (const page of options.pages) urls.push((await guard.check(page)).href);
    const failRank = IMPACTS.indexOf(options.failOnImpact);
    const cells = cellsOf(options.engines, options.devices, options.networks);
    const classic = isClassic(cells);
    // Firefox writes below HOME, which a runner user may not have: one of the run's own, removed after (decision 0078).
    const home = options.engines.includes('firefox') ? path.join(ctx.runDir, 'accessibility', 'home') : undefined;
    if (home) await mkdir(home, { recursive: true });
    const pages: PageResult[] = [];
    // Each page's time, beside it: the summary's pages never had one, a case has.
    const durations: number[] = [];
    const raw: unknown[] = [];
    const artifacts: Artifact[] = [];
    try {
      for (const [c, cell] of cells.entries()) {
        const named = classic ? {} : { cell: cell.name };
        let session: CellSession;
        try {
          session = await openCellSession(cell, guard, ctx, home);
        } catch (error) {
          if (ctx.signal.aborted) throw new RunAbortedError();
          // One cell's browser that would not start fails that cell's pages; the other cells still run.
          if (classic || urls.length === 0) throw error;
          for (const url of urls) {
            pages.push({ url, ...named, passed: false, violationsByImpact: {}, violations: [], error: `the browser did not start: ${errorMessage(error)}` });
            durations.push(0);
          }
          continue;
        }
        try {
          if (c === 0 && options.crawl !== false) {
            const crawl = await crawlSite(guard, ctx, options.pages, { ...options, fetch: false, ...(session.guarded ? { browser: session.guarded } : {}) });
            if (crawl.artifact) artifacts.push(crawl.artifact);
            urls = crawl.pages;
          }
          for (const [index, url] of urls.entries()) {
            const started = performance.now();
            try {
              const { status, ready, results } = await session.audit(url, options);
              const violationsByImpact: Record<string, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
              for (const v of results.violations) violationsByImpact[v.impact ?? 'minor'] = (violationsByImpact[v.impact ?? 'minor'] ?? 0) + 1;
              const violations = results.violations.map((v) => ({
                id: v.id,
                impact: v.impact ?? 'minor',
                help: v.help,
                nodes: v.nodes.length,
                targets: v.nodes.slice(0, MAX_TARGETS_PER_RULE).map((n) => selectorOf(n.target)),
                tags: v.tags.filter(isStandardTag),
                helpUrl: v.helpUrl,
              }));
              const passed = !violations.some((v) => IMPACTS.indexOf(v.impact as (typeof IMPACTS)[number]) >= failRank);
              const durationMs = performance.now() - started;
              pages.push({ url, ...named, passed, violationsByImpact, violations, ...(ready.ready ? {} : { notReady: ready.reason ?? 'not ready' }) });
              durations.push(durationMs);
              // axe's own account of where it ran: the browser's user agent and the window's width.
              const { userAgent, windowWidth } = results.testEnvironment;
              raw.push({ url, ...named, status, ready, durationMs, userAgent, windowWidth, violations: results.violations, incomplete: results.incomplete.length, passes: results.passes.length });
            } catch (error) {
              if (ctx.signal.aborted) throw new RunAbortedError();
              pages.push({ url, ...named, passed: false, violationsByImpact: {}, violations: [], error: errorMessage(error) });
              durations.push(performance.now() - started);
              raw.push({ url, ...named, error: errorMessage(error) });
            }
            ctx.progress?.({ done: c * urls.length + index + 1, total: cells.length * urls.length, message: classic ? url : caseInCell(url, cell.name) });
          }
        } finally {
          await session.close();
        }
      }
    } finally {
      // Firefox's caches are no evidence: they would only weigh on the run folder.
      if (home) await rm(home, { recursive: true, force: true });
    }
    artifacts.unshift(await writeJsonArtifact(ctx, 'accessibility/axe-results.json', { tags: options.tags, pages: raw }, 'axe-core results'));
    return pagesOutcome({ kind: 'accessibility', pages, ...(classic ? {} : { cases: pages.map((p, i) => caseOf(p, durations[i] ?? 0, failRank)) }) }, artifacts);
  },
});

/** The name the registry and the runner processes load a kind's runner by. */
export { accessibilityRunner as runner };
