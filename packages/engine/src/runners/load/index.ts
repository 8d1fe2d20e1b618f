import { connect, isIP } from 'node:net';
import { defineRunner } from '../../lib/define-runner.ts';
import type { TargetGuard } from '../../policy/target-guard.ts';
import { writeJsonArtifact } from '../../lib/result.ts';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { shareOf, stagesShare, untilStart } from './generators.ts';
import { encodeSamples, loadPartOf, SAMPLES_ARTIFACT } from './merge.ts';
import { driveLoad, type LoadPlan } from './driver.ts';
import { DEFAULT_CONNECTIONS, DEFAULT_DURATION_SECONDS, loadInput } from './options.ts';
import { computeLoad, countInSecond, emptySamples, isSuccessStatus, noteConnections, secondOf } from './stats.ts';
import { facts } from './facts.ts';
import { withLoginHeaders } from '../../lib/login-session.ts';

export { SAMPLES_ARTIFACT };

/** Time a pinned address gets to accept a connection before the next one is tried. */
export const ADDRESS_PROBE_TIMEOUT_MS = 3_000;

function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port, timeout: ADDRESS_PROBE_TIMEOUT_MS });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/**
 * An address the guard approved for the website's host, and its port: the first that accepts a connection (a name
 * may answer ::1 and 127.0.0.1 while the site listens on one), else the first.
 */
async function pinnedAddress(guard: TargetGuard, base: URL): Promise<{ hostname: string; port: number }> {
  const approved = await guard.addresses(base.hostname);
  const port = Number(base.port || (base.protocol === 'https:' ? 443 : 80));
  let pinned = approved[0];
  if (!pinned) throw new Error(`no approved address for ${base.hostname}`);
  if (approved.length > 1) {
    for (const candidate of approved) {
      if (await accepts(candidate.address, port)) {
        pinned = candidate;
        break;
      }
    }
  }
  return { hostname: pinned.address, port };
}

/** The request's headers with the website's Host unless the manifest set one (autocannon would send the address). */
function withHost(headers: Record<string, string> | undefined, host: string): Record<string, string> {
  const own = headers ?? {};
  return Object.keys(own).some((name) => name.toLowerCase() === 'host') ? own : { host, ...own };
}

/**
 * autocannon's HTTP client, one per connection, driven by ./driver.ts (graceful stop, stages, `amount`). Its
 * runner's own result has whole-millisecond latencies, no p95 and no bytes sent, so every response is recorded
 * here: status, bytes received and sub-millisecond time, plus the client, whose current request (path and request
 * buffer) is the one answered: the client moves to the next request only after emitting the event, and the runner
 * never pipelines.
 */
export const loadRunner = defineRunner({
  facts,
  schema: loadInput,
  async execute({ options, thresholds }, { ctx, guard }) {
    const base = await guard.check(guard.baseUrl.href);
    const requests = options.requests ?? [{ path: `${base.pathname}${base.search}`, method: 'GET' as const }];
    const origin = base.origin;
    // autocannon resolves names itself and takes no lookup: it connects to the address the guard approved, with
    // the website's Host header and TLS server name, so a DNS answer that changes after the check is never used.
    const pinned = await pinnedAddress(guard, base);

    const samples = emptySamples();
    const fallbackPath = requests.length === 1 ? (requests[0]?.path ?? '/') : '*';
    const countFailure = (path: string, status: number | 'error') => {
      const key = `${path}\u0000${status}`;
      samples.failures.set(key, (samples.failures.get(key) ?? 0) + 1);
    };

    // One of several generators (issue 12): its share of the connections, requests and stage targets.
    const generator = ctx.loadGenerator;
    const share = (n: number) => (generator ? shareOf(n, generator.index, generator.count) : n);
    const connections = share(options.connections ?? DEFAULT_CONNECTIONS);
    const stages = options.stages && generator ? stagesShare(options.stages, generator.index, generator.count) : options.stages;
    const plan: LoadPlan = stages
      ? { stages }
      : options.amount
        ? { amount: share(options.amount), connections }
        : // Constant connections: all open at once, for the duration.
          { stages: [{ durationSeconds: 0, target: connections }, { durationSeconds: options.durationSeconds ?? DEFAULT_DURATION_SECONDS, target: connections }] };
    // A paced run: this generator's share of the requests a second, shared again by its connections in the driver.
    if (options.rate !== undefined) plan.rate = share(options.rate);

    if (generator) {
      ctx.log('load generator waiting for the common start', { generator: generator.index + 1, of: generator.count, startAt: new Date(generator.startAtMs).toISOString() });
      await untilStart(generator.startAtMs, ctx.signal);
    }
    const started = performance.now();
    const now = () => secondOf(started, performance.now());
    ctx.log('load started', { url: origin, connections: options.stages ? undefined : connections, amount: options.amount, rate: plan.rate, stages: options.stages?.length });
    samples.elapsedSeconds = await driveLoad(
      {
        protocol: base.protocol === 'https:' ? 'https:' : 'http:',
        ...pinned,
        ...(base.protocol === 'https:' && isIP(guard.baseUrl.hostname) === 0 ? { servername: base.hostname } : {}),
        requests: requests.map((r) => ({
          method: r.method,
          path: r.path,
          headers: withLoginHeaders(ctx.login, new URL(r.path, base).href, withHost(r.headers, base.host)),
          ...(r.body !== undefined ? { body: r.body } : {}),
        })),
        timeoutSeconds: options.timeoutSeconds,
      },
      plan,
      {
        response(client, statusCode, resBytes, responseTime) {
          const req = client.requestIterator.currentRequest;
          const second = now();
          samples.times.push(responseTime);
          samples.timeSeconds.push(second);
          countInSecond(samples, second, !isSuccessStatus(statusCode));
          samples.bytesSent += req?.requestBuffer?.length ?? 0;
          samples.bytesReceived += resBytes;
          if (isSuccessStatus(statusCode)) {
            samples.successful++;
          } else {
            samples.failedResponses++;
            countFailure(req?.path ?? fallbackPath, statusCode);
          }
        },
        error() {
          // Connection errors and timeouts carry no request: attribute them to the only path, or to all ('*').
          samples.errors++;
          countInSecond(samples, now(), true);
          countFailure(fallbackPath, 'error');
        },
        connections(open) {
          noteConnections(samples, now(), open);
        },
      },
      ctx.signal,
    );
    const { load, checks, requestsPerSecond, perSecond } = computeLoad(samples, thresholds);
    const failuresByUrl = [...samples.failures].map(([key, count]) => {
      const [path = '', status = ''] = key.split('\u0000');
      return { url: new URL(path === '*' ? '/' : path, origin).href, status: status === 'error' ? ('error' as const) : Number(status), count };
    });
    failuresByUrl.sort((a, b) => b.count - a.count);
    const summary = {
      kind: 'load' as const,
      load,
      failuresByUrl,
      requestsPerSecond,
      thresholdChecks: checks,
      perSecond,
      ...(options.stages ? { stages: options.stages } : {}),
    };
    const artifact = await writeJsonArtifact(ctx, 'load/summary.json', summary, 'Load test summary');
    const met = load.customMetricThresholdMet;
    if (generator) {
      // The raw response times, so the merged percentiles can be checked against every sample of every generator.
      await writeFile(path.join(ctx.runDir, SAMPLES_ARTIFACT), encodeSamples(samples.times));
    }
    return {
      status: met ? 'passed' : 'failed',
      totals: { totalTests: 1, passedTests: met ? 1 : 0, failedTests: met ? 0 : 1, skippedTests: 0 },
      summary: generator ? { ...summary, part: loadPartOf(samples, failuresByUrl) } : summary,
      artifacts: generator
        ? [artifact, { path: SAMPLES_ARTIFACT, kind: 'other', contentType: 'application/octet-stream', label: 'Response times (ms, float64 little-endian)' }]
        : [artifact],
    };
  },
});

/** The name the registry and the runner processes load a kind's runner by. */
export { loadRunner as runner };
