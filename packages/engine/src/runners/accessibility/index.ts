import AxeBuilder from '@axe-core/playwright';
import { RunAbortedError } from '../../errors.ts';
import { defineRunner } from '../../lib/define-runner.ts';
import { launchGuardedBrowser } from '../../lib/guarded-browser.ts';
import { errorMessage, pagesOutcome, writeJsonArtifact } from '../../lib/result.ts';
import { crawlSite } from '../../lib/site-crawl.ts';
import type { Artifact } from '../../types.ts';
import { IMPACTS, accessibilityInput } from './options.ts';
import { facts } from './facts.ts';

type PageResult = {
  url: string;
  passed: boolean;
  violationsByImpact: Record<string, number>;
  violations: { id: string; impact: string; help: string; nodes: number; targets: string[]; tags: string[]; helpUrl: string }[];
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

/**
 * axe-core on each listed page (and, with `crawl`, each page found from them), in one Chromium, pages one after
 * another (axe is CPU-bound).
 */
export const accessibilityRunner = defineRunner({
  facts,
  schema: accessibilityInput,
  async execute({ options }, { ctx, guard }) {
    let urls = [];
    for (const page of options.pages) urls.push((await guard.check(page)).href);
    const failRank = IMPACTS.indexOf(options.failOnImpact);
    const browser = await launchGuardedBrowser(guard, ctx);
    const pages: PageResult[] = [];
    const raw: unknown[] = [];
    const artifacts: Artifact[] = [];
    try {
      if (options.crawl !== false) {
        const crawl = await crawlSite(guard, ctx, options.pages, { ...options, fetch: false, browser });
        if (crawl.artifact) artifacts.push(crawl.artifact);
        urls = crawl.pages;
      }
      const context = await browser.browser.newContext();
      for (const [index, url] of urls.entries()) {
        const started = performance.now();
        const page = await context.newPage();
        try {
          const response = await page.goto(url, { waitUntil: 'load', timeout: options.pageTimeoutMs });
          if (!response) throw new Error('no response');
          const results = await new AxeBuilder({ page }).withTags(options.tags).disableRules(options.disableRules).analyze();
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
          pages.push({ url, passed, violationsByImpact, violations });
          raw.push({ url, status: response.status(), durationMs: performance.now() - started, violations: results.violations, incomplete: results.incomplete.length, passes: results.passes.length });
        } catch (error) {
          if (ctx.signal.aborted) throw new RunAbortedError();
          pages.push({ url, passed: false, violationsByImpact: {}, violations: [], error: errorMessage(error) });
          raw.push({ url, error: errorMessage(error) });
        } finally {
          await page.close().catch(() => undefined);
        }
        ctx.progress?.({ done: index + 1, total: urls.length, message: url });
      }
    } finally {
      await browser.close();
    }
    artifacts.unshift(await writeJsonArtifact(ctx, 'accessibility/axe-results.json', { tags: options.tags, pages: raw }, 'axe-core results'));
    return pagesOutcome({ kind: 'accessibility', pages }, artifacts);
  },
});

/** The name the registry and the runner processes load a kind's runner by. */
export { accessibilityRunner as runner };
