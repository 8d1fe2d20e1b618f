import { RunAbortedError } from '../../errors.ts';
import { defineRunner } from '../../lib/define-runner.ts';
import { writeJsonArtifact } from '../../lib/result.ts';
import { ERROR_STATUS, startLoad } from './load-client.ts';
import { MAX_DURATION_SECONDS, loadInput } from './options.ts';
import { computeLoad, emptySamples } from './stats.ts';

/** Slack over the configured duration (or the hard cap, for `amount` runs) before the run is stopped. */
export const LOAD_STOP_GRACE_MS = 15_000;

/**
 * Keep-alive connections on the website's origin, one request in flight on each (see load-client.ts for why not
 * autocannon). Every response is recorded: its own sub-millisecond time, status and request, so p95 is exact and
 * failures are attributed to the URL that failed, connection errors and timeouts included.
 */
export const loadRunner = defineRunner({
  kind: 'load',
  schema: loadInput,
  async execute({ options, thresholds }, { ctx, guard }) {
    const base = await guard.check(guard.baseUrl.href);
    const requests = options.requests ?? [{ path: `${base.pathname}${base.search}`, method: 'GET' as const }];
    const origin = new URL(base.origin);
    const samples = emptySamples(requests.length);

    const started = performance.now();
    const generator = startLoad(
      {
        origin,
        requests,
        connections: options.connections,
        durationSeconds: options.durationSeconds,
        amount: options.amount,
        timeoutSeconds: options.timeoutSeconds,
      },
      samples,
    );
    const capMs = (options.amount ? MAX_DURATION_SECONDS : options.durationSeconds) * 1000 + LOAD_STOP_GRACE_MS;
    const cap = setTimeout(generator.stop, capMs);
    const onAbort = () => generator.stop();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    if (ctx.signal.aborted) generator.stop();
    ctx.log('load started', { url: origin.origin, connections: options.connections, amount: options.amount, durationSeconds: options.durationSeconds });
    try {
      await generator.finished;
    } finally {
      clearTimeout(cap);
      ctx.signal.removeEventListener('abort', onAbort);
    }
    if (ctx.signal.aborted) throw new RunAbortedError();
    samples.elapsedSeconds = (performance.now() - started) / 1000;

    const { load, checks, requestsPerSecond } = computeLoad(samples, thresholds);
    // Requests on the same URL (say GET and POST) share its rows.
    const byUrl = new Map<string, { url: string; status: number | 'error'; count: number }>();
    samples.failures.forEach((byStatus, index) => {
      const url = new URL(requests[index]?.path ?? '/', origin).href;
      for (const [code, count] of byStatus) {
        const status = code === ERROR_STATUS ? ('error' as const) : code;
        const key = `${url} ${status}`;
        const row = byUrl.get(key);
        if (row) row.count += count;
        else byUrl.set(key, { url, status, count });
      }
    });
    const failuresByUrl = [...byUrl.values()];
    failuresByUrl.sort((a, b) => b.count - a.count);
    const summary = { kind: 'load' as const, load, failuresByUrl, requestsPerSecond, thresholdChecks: checks };
    const artifact = await writeJsonArtifact(ctx, 'load/summary.json', summary, 'Load test summary');
    const met = load.customMetricThresholdMet;
    return {
      status: met ? 'passed' : 'failed',
      totals: { totalTests: 1, passedTests: met ? 1 : 0, failedTests: met ? 0 : 1, skippedTests: 0 },
      summary,
      artifacts: [artifact],
    };
  },
});
