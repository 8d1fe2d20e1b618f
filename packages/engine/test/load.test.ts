import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadInsight } from '@fullstop/contracts';
import { loadRunner } from '../src/runners/load/index.ts';
import { countInSecond, emptySamples, noteConnections, percentile, perSecondSeries } from '../src/runners/load/stats.ts';
import { connectionsAt, parseDuration } from '../src/runners/load/stages.ts';
import { startCountingServer } from './fixtures/counting-server.ts';
import { loadSample } from '../src/reporters/fixtures.ts';
import { renderReportHtml } from '../src/reporters/html/render-report.ts';
import { stageRows } from '../src/runners/load/report.ts';
import { startPlantedServer, PLANTED } from './fixtures/planted-server.ts';
import { isPrivateAddress } from '../src/policy/private-address.ts';
import { PUBLIC_LOOPBACK, startTwinServers } from './fixtures/rebinding.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

describe('load runner', () => {
  const server = serverForSuite(startPlantedServer);

  it('counts every request the server saw, with exact times, bytes and failures per URL', async () => {
    server.resetCounters();
    const ctx = await makeContext();
    const amount = 400;
    const result = await loadRunner.run(
      testOf('load', { requests: [{ path: '/flaky' }], connections: 4, amount }, { thresholds: { maxFailedRate: 30, maxP95Ms: 2000 } }),
      localTarget(server.url),
      ctx,
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('passed');
    if (result.summary.kind !== 'load') throw new Error('wrong summary');
    const { load, failuresByUrl } = result.summary;
    expect(loadInsight.strict().parse(load)).toEqual(load);
    expect(load.totalRequests).toBe(server.requests);
    expect(load.totalRequests).toBe(amount);
    expect(load.failedRequestsCount).toBe(amount / PLANTED.flakyEvery);
    expect(load.successfulRequests).toBe(amount - amount / PLANTED.flakyEvery);
    expect(load.failedRequestsRate).toBe(25);
    expect(load.customMetricThresholdMet).toBe(true);
    expect(failuresByUrl).toEqual([{ url: `${server.url}/flaky`, status: 500, count: amount / PLANTED.flakyEvery }]);
    // Sub-millisecond precision: autocannon's own figures are whole milliseconds.
    expect(Number.isInteger(load.averageResponseTime)).toBe(false);
    expect(load.minResponseTime).toBeLessThanOrEqual(load.ninetyFifthPercentileResponseTime);
    expect(load.ninetyFifthPercentileResponseTime).toBeLessThanOrEqual(load.maxResponseTime);
    // Every request is the same GET: bytes sent are its length times the count, exactly what the server read.
    expect(load.dataSentBytes % amount).toBe(0);
    expect(load.dataSentBytes / amount).toBeGreaterThan(20);
    expect(load.dataSentBytes).toBe(server.requestBytes);
    expect(load.dataReceivedBytes).toBeGreaterThan(amount * 100);
    const written = JSON.parse(await readFile(path.join(ctx.runDir, result.artifacts[0]!.path), 'utf8'));
    expect(written.load.totalRequests).toBe(amount);
  });

  it('attributes failures and bytes sent to each URL of a mixed run', async () => {
    server.resetCounters();
    const result = await loadRunner.run(
      testOf('load', { requests: [{ path: '/flaky' }, { path: '/api/items', headers: { 'x-load-test': 'yes' } }], connections: 2, amount: 200 }),
      localTarget(server.url),
      await makeContext(),
    );
    if (result.summary.kind !== 'load') throw new Error(result.error);
    const { load, failuresByUrl } = result.summary;
    expect(server.requestsByPath.get('/flaky')).toBe(100);
    expect(server.requestsByPath.get('/api/items')).toBe(100);
    expect(load.totalRequests).toBe(server.requests);
    expect(failuresByUrl).toEqual([{ url: `${server.url}/flaky`, status: 500, count: 100 / PLANTED.flakyEvery }]);
    // Two request shapes, 100 of each: the second carries an extra header, so the total is not a multiple of one.
    const flakyRequest = `GET /flaky HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n\r\n`.length;
    expect(load.dataSentBytes).toBeGreaterThan(200 * flakyRequest);
    expect(load.dataSentBytes).toBe(server.requestBytes);
  });

  it('counts the bytes of a request body as sent', async () => {
    server.resetCounters();
    const body = JSON.stringify({ note: 'x'.repeat(1000) });
    const result = await loadRunner.run(
      testOf('load', { requests: [{ path: '/api/items', method: 'POST', headers: { 'content-type': 'application/json' }, body }], connections: 2, amount: 20 }),
      localTarget(server.url),
      await makeContext(),
    );
    if (result.summary.kind !== 'load') throw new Error(result.error);
    expect(server.requests).toBe(20);
    expect(result.summary.load.dataSentBytes).toBe(server.requestBytes);
    expect(result.summary.load.dataSentBytes).toBeGreaterThan(20 * body.length);
  });

  it('paces a run at the requests a second it was given, whatever the site could answer', async () => {
    server.resetCounters();
    const rate = 30;
    const durationSeconds = 2;
    const result = await loadRunner.run(testOf('load', { requests: [{ path: '/' }], connections: 4, durationSeconds, rate }), localTarget(server.url), await makeContext());
    if (result.summary.kind !== 'load') throw new Error(result.error);
    const { load, perSecond = [] } = result.summary;
    expect(load.totalRequests).toBe(server.requests);
    // Each connection sends its share (8, 8, 7, 7) every second: 60 in two seconds, one more second's worth at most
    // when the graceful stop crosses a second; an unpaced run on this server makes thousands.
    expect(load.totalRequests).toBeGreaterThanOrEqual(rate * (durationSeconds - 1));
    expect(load.totalRequests).toBeLessThanOrEqual(rate * (durationSeconds + 1));
    for (const s of perSecond) expect(s.requests).toBeLessThanOrEqual(rate);
  });

  it('reports second by second what a time-boxed run did', async () => {
    server.resetCounters();
    const durationSeconds = 3;
    const result = await loadRunner.run(testOf('load', { requests: [{ path: '/flaky' }], connections: 2, durationSeconds }), localTarget(server.url), await makeContext());
    if (result.summary.kind !== 'load') throw new Error(result.error);
    const { load, perSecond = [] } = result.summary;
    // Each whole second of the run, plus the part-second at its end when something completed in it.
    expect(perSecond.length).toBeGreaterThanOrEqual(durationSeconds);
    expect(perSecond.length).toBeLessThanOrEqual(durationSeconds + 1);
    expect(perSecond.map((s) => s.second)).toEqual(perSecond.map((_, i) => i));
    expect(perSecond.reduce((sum, s) => sum + s.requests, 0)).toBe(load.totalRequests);
    expect(perSecond.reduce((sum, s) => sum + s.errors, 0)).toBe(load.failedRequestsCount);
    for (const s of perSecond.slice(0, durationSeconds)) {
      expect(s.requests).toBeGreaterThan(0);
      expect(s.p50).toBeGreaterThan(0);
      expect(s.p50).toBeLessThanOrEqual(s.p95);
      expect(s.p95).toBeLessThanOrEqual(s.p99);
      expect(s.p99).toBeLessThanOrEqual(load.maxResponseTime);
    }
  });

  it('fails the thresholds on the slow route and says which', async () => {
    const result = await loadRunner.run(
      testOf('load', { requests: [{ path: '/slow' }], connections: 2, amount: 6 }, { thresholds: { maxP95Ms: 100, maxFailedRate: 0 } }),
      localTarget(server.url),
      await makeContext(),
    );
    expect(result.status).toBe('failed');
    if (result.summary.kind !== 'load') throw new Error('wrong summary');
    expect(result.summary.load.customMetricThresholdMet).toBe(false);
    // The site's timer counts from libuv's loop time, cached at the start of its turn: it can fire under a millisecond
    // before PLANTED.slowMs have passed by the runner's clock (299.96 ms once, on CI).
    expect(result.summary.load.minResponseTime).toBeGreaterThanOrEqual(PLANTED.slowMs - 1);
    expect(result.summary.thresholdChecks?.map((c) => [c.name, c.met])).toEqual([
      ['maxP95Ms', false],
      ['maxFailedRate', true],
    ]);
    expect(result.totals).toEqual({ totalTests: 1, passedTests: 0, failedTests: 1, skippedTests: 0 });
  });

  it('refuses a private target unless allowed, and bad options by field', async () => {
    const refused = await loadRunner.run(testOf('load', { amount: 1 }), localTarget(server.url, { allowPrivateAddresses: false }), await makeContext());
    expect(refused.status).toBe('error');
    expect(refused.errorCode).toBe('target_policy');
    expect(refused.error).toContain('private address 127.0.0.1');
    expect(server.requestsByPath.get('/') ?? 0).toBe(0);
    expect(() => loadRunner.validate(testOf('load', { connections: 0 }))).toThrow(/options\.connections/);
    expect(() => loadRunner.validate(testOf('load', { requests: [{ path: 'http://evil.example/' }] }))).toThrow(/options\.requests\.0\.path/);
    // Requests go on the wire as written: no smuggled second request.
    expect(() => loadRunner.validate(testOf('load', { requests: [{ path: '/ HTTP/1.1\r\nHost: x\r\n\r\nGET /admin' }] }))).toThrow(/options\.requests\.0\.path/);
    expect(() => loadRunner.validate(testOf('load', { requests: [{ path: '/', headers: { 'x-a': 'b\r\nx-c: d' } }] }))).toThrow(/options\.requests\.0\.headers/);
  });

  it('stops at once when the run is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const result = await loadRunner.run(testOf('load', { connections: 2, durationSeconds: 30 }), localTarget(server.url), await makeContext({ signal: controller.signal }));
    expect(result).toMatchObject({ status: 'error', errorCode: 'aborted' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('loads the first pinned address that accepts connections, with the website Host header', async () => {
    const twin = await startTwinServers();
    try {
      // The name answers two addresses; nothing listens on the first.
      const network = {
        isPrivate: (a: string) => !['127.0.0.3', PUBLIC_LOOPBACK].includes(a) && isPrivateAddress(a),
        lookup: async () => [{ address: '127.0.0.3', family: 4 }, { address: PUBLIC_LOOPBACK, family: 4 }],
      };
      const result = await loadRunner.run(
        testOf('load', { connections: 1, amount: 5 }),
        { baseUrl: `http://two.test:${twin.port}/`, allowedOrigins: [], allowPrivateAddresses: false },
        await makeContext({ network }),
      );
      if (result.summary.kind !== 'load') throw new Error(result.error);
      expect(result.summary.load.failedRequestsCount).toBe(0);
      expect(result.summary.load.successfulRequests).toBeGreaterThan(0);
      expect(new Set(twin.publicHosts)).toEqual(new Set([`two.test:${twin.port}`]));
      expect(result.summary.failuresByUrl).toEqual([]);
      expect(twin.privateHits).toBe(0);
    } finally {
      await twin.close();
    }
  });

  it('keeps a quiet second in the series, with nothing made up for it', () => {
    const samples = emptySamples(3.4);
    const respond = (second: number, ms: number, failed = false) => {
      samples.times.push(ms);
      samples.timeSeconds.push(second);
      countInSecond(samples, second, failed);
    };
    noteConnections(samples, 0, 2);
    respond(0, 10);
    respond(0, 30, true);
    countInSecond(samples, 0, true); // a connection error: no time
    noteConnections(samples, 2, 1);
    respond(2, 5);
    expect(perSecondSeries(samples)).toEqual([
      { second: 0, requests: 3, errors: 2, p50: 10, p95: 30, p99: 30, connections: 2 },
      { second: 1, requests: 0, errors: 0, p50: 0, p95: 0, p99: 0, connections: 2 },
      { second: 2, requests: 1, errors: 0, p50: 5, p95: 5, p99: 5, connections: 1 },
    ]);
  });

  it('takes the nearest-rank 95th percentile', () => {
    const times = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(times, 95)).toBe(95);
    expect(percentile([1.5], 95)).toBe(1.5);
    expect(percentile([], 95)).toBe(0);
  });
});

describe('load runner totals and stages', () => {
  const site = serverForSuite(startCountingServer);

  async function runAgainst(options: Record<string, unknown>, thresholds?: Record<string, number>) {
    site.reset();
    const result = await loadRunner.run(testOf('load', options, thresholds ? { thresholds } : {}), localTarget(site.url), await makeContext());
    if (result.summary.kind !== 'load') throw new Error(result.error);
    await site.idle();
    return { result, summary: result.summary };
  }

  for (const connections of [10, 200]) {
    it(`counts every request the site served when the duration ends, at ${connections} connections`, async () => {
      // Each answer takes 5 ms, so every connection has a request in flight when the duration ends.
      const { result, summary } = await runAgainst({ requests: [{ path: '/?ms=5' }], connections, durationSeconds: 2 });
      const { load, perSecond = [] } = summary;
      expect(result.status).toBe('passed');
      // The runner opens them all at once; a busy machine may accept them over a second or two.
      expect(perSecond[0]?.connections).toBe(connections);
      expect(site.peakOpen).toBeLessThanOrEqual(connections);
      expect(load.totalRequests).toBeGreaterThan(connections);
      expect(load.totalRequests).toBe(site.requests);
      expect(load.successfulRequests).toBe(site.served);
      expect(load.failedRequestsCount).toBe(0);
      expect(load.dataSentBytes).toBe(site.bytesRead);
      expect(load.dataReceivedBytes).toBe(site.bytesWritten);
      // Node's 5 ms timer may fire a fraction of a millisecond early.
      expect(load.minResponseTime).toBeGreaterThanOrEqual(4);
      // The series adds up to the totals, including the part-second in which the last requests were awaited.
      expect(perSecond.reduce((sum, s) => sum + s.requests, 0)).toBe(site.requests);
    });
  }

  it('waits for a request in flight no longer than the request timeout, and counts it as failed', async () => {
    const started = performance.now();
    const { result, summary } = await runAgainst({ requests: [{ path: '/hang' }], connections: 3, durationSeconds: 0.5, timeoutSeconds: 1 }, { maxFailedRate: 0 });
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThan(4);
    expect(result.status).toBe('failed');
    expect(summary.load.totalRequests).toBe(site.requests);
    expect(summary.load.failedRequestsCount).toBe(site.requests);
    expect(summary.failuresByUrl).toEqual([{ url: `${site.url}/hang`, status: 'error', count: site.requests }]);
  });

  it('ramps the connections up and down as the stages declare, as the site sees them', async () => {
    const stages = [
      { duration: '1s', target: 20 },
      { duration: '1s', target: 20 },
      { duration: '1s', target: 0 },
    ];
    const { summary } = await runAgainst({ requests: [{ path: '/?ms=10' }], stages }, { maxFailedRate: 0 });
    expect(summary.load.totalRequests).toBe(site.requests);
    expect(summary.load.failedRequestsCount).toBe(0);
    expect(summary.stages).toEqual([
      { durationSeconds: 1, target: 20 },
      { durationSeconds: 1, target: 20 },
      { durationSeconds: 1, target: 0 },
    ]);
    expect(site.peakOpen).toBeLessThanOrEqual(20);
    const openBetween = (fromMs: number, toMs: number) => site.samples.filter((s) => s.atMs >= fromMs && s.atMs < toMs).map((s) => s.open);
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
    const rising = openBetween(0, 400);
    const holding = openBetween(1200, 1800);
    const falling = openBetween(2600, 3000);
    // Rising through the first second, all 20 in the second, few left near the end of the third.
    expect(Math.max(...rising)).toBeLessThan(12);
    expect(mean(holding)).toBeGreaterThanOrEqual(16);
    expect(mean(falling)).toBeLessThan(10);
    expect(Math.max(...openBetween(0, 200))).toBeLessThan(Math.min(...holding));
    // The report's series follows the ramp: the most connections open in each second.
    const [first, second, third] = (summary.perSecond ?? []).map((s) => s.connections);
    expect(first).toBeGreaterThanOrEqual(15);
    expect(first).toBeLessThanOrEqual(20);
    expect([second, third]).toEqual([20, 20]);
  });

  it('keeps thresholds working on a staged run', async () => {
    const { result, summary } = await runAgainst({ requests: [{ path: '/?ms=120' }], stages: [{ duration: '500ms', target: 4 }, { duration: '500ms', target: 4 }] }, {
      maxP95Ms: 50,
      maxFailedRate: 0,
    });
    expect(result.status).toBe('failed');
    expect(summary.thresholdChecks?.map((c) => [c.name, c.met])).toEqual([
      ['maxP95Ms', false],
      ['maxFailedRate', true],
    ]);
    expect(summary.load.totalRequests).toBe(site.requests);
  });

  it('refuses a rate it cannot keep, saying which field and why', () => {
    const check = (options: Record<string, unknown>) => () => loadRunner.validate(testOf('load', options));
    expect(check({ connections: 10, rate: 50 })).not.toThrow();
    expect(check({ connections: 10, rate: 5 })).toThrow(/options\.rate.*at least the connections \(10\)/);
    expect(check({ rate: 2.5 })).toThrow(/options\.rate.*whole number of requests a second/);
    expect(check({ stages: [{ duration: '10s', target: 5 }], rate: 50 })).toThrow(/options\.rate.*cannot be set together with stages/);
  });

  it('refuses stages it cannot follow, saying which field and why', () => {
    const check = (options: Record<string, unknown>) => () => loadRunner.validate(testOf('load', options));
    expect(check({ stages: [{ duration: '30s', target: 50 }, { duration: '1m30s', target: 0 }] })).not.toThrow();
    expect(check({ stages: [{ duration: '30 seconds', target: 5 }] })).toThrow(/options\.stages\.0\.duration.*such as '30s'/);
    expect(check({ stages: [{ duration: '10s', target: 2.5 }] })).toThrow(/options\.stages\.0\.target.*whole number/);
    expect(check({ stages: [{ duration: '10s', target: 5000 }] })).toThrow(/options\.stages\.0\.target.*at most 1000/);
    expect(check({ stages: [{ duration: '10s', target: 0 }] })).toThrow(/options\.stages.*above 0 connections/);
    expect(check({ stages: [{ duration: '4m', target: 5 }, { duration: '2m', target: 5 }] })).toThrow(/options\.stages.*at most 300 seconds/);
    expect(check({ stages: [] })).toThrow(/options\.stages.*at least one stage/);
    expect(check({ stages: [{ duration: '10s', target: 5 }], connections: 5 })).toThrow(/options\.connections.*cannot be set together with stages/);
    expect(check({ stages: [{ duration: '10s', target: 5 }], durationSeconds: 5 })).toThrow(/options\.durationSeconds.*cannot be set together with stages/);
    expect(check({ stages: [{ duration: '10s', target: 5 }], amount: 5 })).toThrow(/options\.amount.*cannot be set together with stages/);
  });

  it("shows a staged run's connections over time in the report", () => {
    const report = loadSample();
    const stages = [
      { durationSeconds: 30, target: 50 },
      { durationSeconds: 60, target: 50 },
      { durationSeconds: 0, target: 80 },
      { durationSeconds: 10, target: 0 },
    ];
    if (report.summary?.kind !== 'load') throw new Error('wrong sample');
    report.summary.stages = stages;
    const html = renderReportHtml(report);
    expect(html).toContain('<h2>Connections over time</h2>');
    expect(html).toContain('jumped from 50 to 80');
    expect(stageRows(stages).map((row) => row.slice(1))).toEqual([
      ['30 s', 'from 0 to 50'],
      ['1 min', 'held at 50'],
      ['at once', 'jumped from 50 to 80'],
      ['10 s', 'from 80 to 0'],
    ]);
  });

  it('reads k6 durations and ramps linearly from where the previous stage ended', () => {
    expect(parseDuration('30s')).toBe(30);
    expect(parseDuration('1m30s')).toBe(90);
    expect(parseDuration('500ms')).toBe(0.5);
    expect(parseDuration('1h')).toBe(3600);
    expect(parseDuration('30')).toBeUndefined();
    const stages = [
      { durationSeconds: 10, target: 50 },
      { durationSeconds: 0, target: 20 },
      { durationSeconds: 10, target: 0 },
    ];
    expect([0, 5, 9.99, 10, 15, 20, 25].map((t) => connectionsAt(stages, t))).toEqual([0, 25, 50, 20, 10, 0, 0]);
  });
});
