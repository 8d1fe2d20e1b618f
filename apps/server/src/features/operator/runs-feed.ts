import type { OpsRunsPage } from '@fullstop/contracts';
import type { Finding } from '@fullstop/engine';
import type { Db } from '../../db/database.ts';
import { falsePositiveMatcher } from '../findings/index.ts';
import { findingsOf } from './findings.ts';
import { flakyKey } from './flaky-repository.ts';
import { flakyFlagsOfClients } from '../flaky/index.ts';
import { failingTestsOf, type FeedQuery, feedPage } from './runs-feed-repository.ts';
import { pendingCountsOfRuns } from '../visual/index.ts';

/**
 * One feed of runs across every client: failed and could-not-run runs first, each group newest first; each run
 * with its client's name and its failing tests (their alerts and violations, and whether they are marked flaky).
 */
export async function runsFeed(db: Db, query: FeedQuery): Promise<OpsRunsPage> {
  const { rows, total } = await feedPage(db, query);
  const runIds = rows.map((r) => r.runId);
  const tests = runIds.length ? await failingTestsOf(db, runIds) : [];
  const visualPending = await pendingCountsOfRuns(db, runIds);

  const clientIds = [...new Set(rows.map((r) => r.clientId))];
  const flaky = await flakyFlagsOfClients(db, clientIds);
  const scanClients = [...new Set(tests.filter((t) => t.summary?.kind === 'security-scan').map((t) => t.clientId))];
  const matchers = new Map<string, (f: Finding) => boolean>(await Promise.all(scanClients.map(async (id) => [id, await falsePositiveMatcher(db, id)] as const)));

  return {
    runs: rows.map((r) => ({
      ...r,
      totals: r.totals ?? null,
      createdAt: r.createdAt.toISOString(),
      finishedAt: r.finishedAt?.toISOString() ?? null,
      // A run test belongs to its run's client; checking both keeps one client's tests out of another's run.
      failingTests: tests
        .filter((t) => t.runId === r.runId && t.clientId === r.clientId)
        .map((t) => ({
          runTestId: t.runTestId,
          testName: t.testName,
          kind: t.kind,
          status: t.status,
          error: t.error,
          findings: findingsOf(t.summary, matchers.get(t.clientId) ?? (() => false)),
          flaky: flaky.has(flakyKey(t.clientId, t.testName)),
          flakyFlag: flaky.get(flakyKey(t.clientId, t.testName)) ?? null,
        })),
      ...(visualPending.get(r.runId) ? { visualPending: visualPending.get(r.runId) } : {}),
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}
