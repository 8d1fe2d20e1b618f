import { connect, isIP } from 'node:net';
import autocannon from 'autocannon';
import { RunAbortedError } from '../../errors.ts';
import { defineRunner } from '../../lib/define-runner.ts';
import type { TargetGuard } from '../../policy/target-guard.ts';
import { writeJsonArtifact } from '../../lib/result.ts';
import { MAX_DURATION_SECONDS, loadInput } from './options.ts';
import { computeLoad, countInSecond, emptySamples, isSuccessStatus, secondOf } from './stats.ts';
import { facts } from './facts.ts';
import { withLoginHeaders } from '../../lib/login-session.ts';

/** Slack over the configured duration (or the hard cap, for `amount` runs) before the run is stopped. */
export const LOAD_STOP_GRACE_MS = 15_000;

/** The parts of autocannon's client read here: with pipelining 1, its current request is the one just answered. */
interface AutocannonClient {
  requestIterator?: { currentRequest?: { path?: string; requestBuffer?: Buffer } };
}

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
 * `protocol://address:port` of an address the guard approved for the website's host: the first that accepts a
 * connection (a name may answer ::1 and 127.0.0.1 while the site listens on one), else the first.
 */
async function pinnedOrigin(guard: TargetGuard, base: URL): Promise<string> {
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
  const host = pinned.family === 6 ? `[${pinned.address}]` : pinned.address;
  return `${base.protocol}//${host}:${port}`;
}

/** The request's headers with the website's Host unless the manifest set one (autocannon would send the address). */
function withHost(headers: Record<string, string> | undefined, host: string): Record<string, string> {
  const own = headers ?? {};
  return Object.keys(own).some((name) => name.toLowerCase() === 'host') ? own : { host, ...own };
}

/**
 * autocannon in-process. Its own result has whole-millisecond latencies, no p95 and no bytes sent, so every
 * response is recorded here from the `response` event: status, bytes received and sub-millisecond time, plus the
 * client, whose current request (path and request buffer) is the one answered: autocannon moves to the next
 * request only after emitting the event, and the runner never pipelines. (A request `onResponse` hook would do
 * the same but makes autocannon convert every response's headers: ~10% fewer requests per second.)
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
    const connectUrl = await pinnedOrigin(guard, base);

    const samples = emptySamples();
    const fallbackPath = requests.length === 1 ? (requests[0]?.path ?? '/') : '*';
    const countFailure = (path: string, status: number | 'error') => {
      const key = `${path}\u0000${status}`;
      samples.failures.set(key, (samples.failures.get(key) ?? 0) + 1);
    };

    const started = performance.now();
    let settle: (error: Error | null) => void = () => undefined;
    const finished = new Promise<void>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve());
    });
    const instance = autocannon(
      {
        url: connectUrl,
        ...(base.protocol === 'https:' && isIP(guard.baseUrl.hostname) === 0 ? { servername: base.hostname } : {}),
        connections: options.connections,
        duration: options.durationSeconds,
        ...(options.amount ? { amount: options.amount } : {}),
        timeout: options.timeoutSeconds,
        requests: requests.map((r) => ({
          method: r.method,
          path: r.path,
          headers: withLoginHeaders(ctx.login, new URL(r.path, base).href, withHost(r.headers, base.host)),
          ...(r.body !== undefined ? { body: r.body } : {}),
        })),
        pipelining: 1,
      },
      (error) => settle(error ?? null),
    );

    instance.on('response', (client, statusCode, resBytes, responseTime) => {
      const req = (client as unknown as AutocannonClient).requestIterator?.currentRequest;
      const second = secondOf(started, performance.now());
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
    });
    instance.on('reqError', () => {
      // Connection errors and timeouts carry no request: attribute them to the only path, or to all ('*').
      samples.errors++;
      countInSecond(samples, secondOf(started, performance.now()), true);
      countFailure(fallbackPath, 'error');
    });

    const capMs = (options.amount ? MAX_DURATION_SECONDS : options.durationSeconds) * 1000 + LOAD_STOP_GRACE_MS;
    const cap = setTimeout(() => instance.stop(), capMs);
    const onAbort = () => instance.stop();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    ctx.log('load started', { url: origin, connections: options.connections, amount: options.amount, durationSeconds: options.durationSeconds });
    try {
      await finished;
    } finally {
      clearTimeout(cap);
      ctx.signal.removeEventListener('abort', onAbort);
    }
    if (ctx.signal.aborted) throw new RunAbortedError();
    samples.elapsedSeconds = (performance.now() - started) / 1000;

    const { load, checks, requestsPerSecond, perSecond } = computeLoad(samples, thresholds);
    const failuresByUrl = [...samples.failures].map(([key, count]) => {
      const [path = '', status = ''] = key.split('\u0000');
      return { url: new URL(path === '*' ? '/' : path, origin).href, status: status === 'error' ? ('error' as const) : Number(status), count };
    });
    failuresByUrl.sort((a, b) => b.count - a.count);
    const summary = { kind: 'load' as const, load, failuresByUrl, requestsPerSecond, thresholdChecks: checks, perSecond };
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

/** The name the registry and the runner processes load a kind's runner by. */
export { loadRunner as runner };
