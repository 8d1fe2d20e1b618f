import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { caseInCell } from '@fullstop/contracts';
import { RunAbortedError } from '../../errors.ts';
import { defineRunner } from '../../lib/define-runner.ts';
import { type GuardedBrowser, launchGuardedBrowser } from '../../lib/guarded-browser.ts';
import { errorMessage, totalsFromCases, writeJsonArtifact } from '../../lib/result.ts';
import type { Artifact, CaseResult } from '../../types.ts';
import { cellsOf, isClassic } from '../browser/matrix.ts';
import { facts } from './facts.ts';
import { paymentInput } from './options.ts';
import { payOutcome } from './pay-outcome.ts';

/**
 * Pays each outcome the test lists with its provider's sandbox card (issue 43): a case per outcome per cell (engine
 * × device × network, decision 0078), in one browser per cell and a fresh context per case, cells one after another.
 * Every context's requests are guarded: one carrying a card number outside the catalogue is aborted and fails its
 * case (card-guard.ts). A test on Chromium on the desktop only names its cases by their outcome alone.
 */
export const paymentRunner = defineRunner({
  facts,
  schema: paymentInput,
  async execute({ options }, { ctx, guard }) {
    const startUrl = (await guard.check(options.start)).href;
    const cells = cellsOf(options.engines, options.devices, options.networks);
    const classic = isClassic(cells);
    // Firefox writes below HOME, which a runner user may not have: one of the run's own, removed after (decision 0078).
    const home = options.engines.includes('firefox') ? path.join(ctx.runDir, 'payment', 'home') : undefined;
    if (home) await mkdir(home, { recursive: true });
    const cases: CaseResult[] = [];
    const total = cells.length * options.outcomes.length;
    try {
      for (const cell of cells) {
        let guarded: GuardedBrowser;
        try {
          guarded = await launchGuardedBrowser(guard, ctx, { engine: cell.engine === 'firefox' ? 'firefox' : 'chromium', network: cell.network, ...(home ? { home } : {}) });
        } catch (error) {
          if (ctx.signal.aborted) throw new RunAbortedError();
          // One cell's browser that would not start fails that cell's outcomes; the other cells still pay.
          if (classic) throw error;
          for (const outcome of options.outcomes) {
            cases.push({ name: caseInCell(outcome, cell.name), status: 'failed', durationMs: 0, cell: cell.name, error: `the browser did not start: ${errorMessage(error)}` });
          }
          continue;
        }
        try {
          for (const outcome of options.outcomes) {
            cases.push(await payOutcome({ browser: guarded.browser, cell, named: !classic, options, outcome, startUrl, ctx }));
            ctx.progress?.({ done: cases.length, total, message: classic ? outcome : caseInCell(outcome, cell.name) });
          }
        } finally {
          await guarded.close();
        }
      }
    } finally {
      // Firefox's caches are no evidence: they would only weigh on the run folder.
      if (home) await rm(home, { recursive: true, force: true });
    }
    const artifacts: Artifact[] = [
      await writeJsonArtifact(ctx, 'payment/outcomes.json', { provider: options.provider, start: options.start, cases }, 'Payment outcomes'),
      ...cases
        .filter((c) => c.screenshot)
        .map((c): Artifact => ({ path: c.screenshot!, kind: 'screenshot', contentType: 'image/png', label: `After ${c.name}` })),
    ];
    const totals = totalsFromCases(cases);
    ctx.log('payment outcomes', { provider: options.provider, failed: cases.filter((c) => c.status === 'failed').map((c) => c.name) });
    return { status: totals.failedTests > 0 ? 'failed' : 'passed', totals, summary: { kind: 'payment', provider: options.provider, cases }, artifacts };
  },
});

/** The name the registry and the runner processes load a kind's runner by. */
export { paymentRunner as runner };
