/**
 * The light lane (issue 39, decision 0091): how long another client's API test waits to be picked up (queued → its
 * attempt's start, what the attempt log's "picked up N ms after the test was queued" says) while two heavy browser
 * tests of two other clients hold both cores, without the lane (ENGINE_LIGHT_LANE=0) and with it, in the same run.
 * Figures, never pass/fail.
 *
 * Each variant is the product's own server on a fresh embedded database (bench-server.ts), ENGINE_CAPACITY=2 and
 * ENGINE_WORKERS=4 whatever the machine. Clients A and B each queue one 12-cell matrix test: page checks of the
 * home and pricing pages on Chromium and Firefox × desktop, phone and tablet × no shaping and 4G (`pageChecks.axe`
 * off). Their cells run one at a time, so each weighs a browser test (a core, decision 0086): the two fill the 2
 * cores' worth. Client C's API test (the demo's "Health check") is then queued every BENCH_LANE_INTERVAL seconds
 * until both heavy tests have ended; a warm-up API test runs first, alone. The wait of each is read from the run's
 * detail (its attempt's start less the run's creation, written with its test row).
 *
 *   npm run bench:light-lane   (BENCH_LANE_VARIANTS=0,0.5 BENCH_LANE_ROUNDS=1 BENCH_LANE_INTERVAL=10)
 */
import os from 'node:os';
import { type BenchServer, startBenchServer, stopServersOnSignals } from './bench-server.ts';

const VARIANTS = (process.env.BENCH_LANE_VARIANTS ?? '0,0.5').split(',');
const ROUNDS = Number(process.env.BENCH_LANE_ROUNDS ?? 1);
const INTERVAL_MS = Number(process.env.BENCH_LANE_INTERVAL ?? 10) * 1000;
/** The heavy tests are queued first; the first API test a little after, once their attempts have started. */
const FIRST_SAMPLE_AFTER_MS = 3000;
const PASSWORD = 'bench-password-0123456789';

const HEAVY = {
  name: 'Marketing pages (12 cells)',
  kind: 'browser',
  options: {
    pages: [
      { path: '/', expect: ['h1', 'footer'] },
      { path: '/pricing', expect: ['h1', 'footer'] },
    ],
    engines: ['chromium', 'firefox'],
    devices: ['desktop', 'phone', 'tablet'],
    networks: ['none', '4g'],
    pageChecks: { axe: 'off' },
    maxDurationSeconds: 900,
  },
};

const LIGHT = {
  name: 'Health check',
  kind: 'api',
  options: {
    requests: [
      { name: 'healthz answers ok', path: '/healthz', expect: { status: 200, json: { status: 'ok' } } },
      { name: 'tests need credentials', path: '/test/fetch/all', expect: { status: 401 } },
    ],
  },
};

const suite = (test: object) => [{ path: 'suite.json', content: JSON.stringify({ version: 1, groups: [{ name: 'Bench', tests: [test] }] }) }];
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A client with one test; answers its id and a way to read its runs' details as its own user. */
async function client(server: BenchServer, n: string, test: object) {
  const email = `lane-${n}@example.com`;
  const { clientId } = await server.call<{ clientId: string }>('POST', '/operator/clients', { name: `Lane ${n}`, website: server.base, email, password: PASSWORD, username: `lane-${n}` });
  await server.call('POST', `/operator/clients/${clientId}/suite`, { files: suite(test) });
  const login = await fetch(`${server.base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  const { accessToken } = (await login.json()) as { accessToken: string };
  type Detail = {
    status: string;
    message: string;
    createdAt: string;
    tests: { testName: string; error: string | null; attempts: { startedAt: string; finishedAt: string | null }[] }[];
  };
  const detail = async (runId: string) => {
    const res = await fetch(`${server.base}/test/runs/${runId}`, { headers: { authorization: `Bearer ${accessToken}` } });
    if (!res.ok) throw new Error(`GET /test/runs/${runId}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Detail;
  };
  /** Queued → the first attempt's start, ms. */
  const waitOf = async (runId: string) => {
    const run = await detail(runId);
    return Date.parse(run.tests[0]!.attempts[0]!.startedAt) - Date.parse(run.createdAt);
  };
  /**
   * Queues its test and answers the run's detail once it ended: polled, not `wait`, whose answer may come later than
   * fetch's 300 s for headers.
   */
  const runToEnd = async (): Promise<Detail & { runId: string }> => {
    const { runId } = await server.call<{ runId: string }>('POST', `/operator/clients/${clientId}/runs`, {});
    for (;;) {
      const run = await detail(runId);
      if (['passed', 'failed', 'error', 'cancelled'].includes(run.status)) return { ...run, runId };
      await sleep(1000);
    }
  };
  return { clientId, detail, waitOf, runToEnd };
}

interface Outcome {
  lane: string;
  waits: number[];
  lightPassed: number;
  heavy: { status: string; wall: number; start: number; end: number; error: string | null }[];
  load: number;
}

async function once(lane: string, port: number): Promise<Outcome> {
  const server = await startBenchServer(port, {
    ENGINE_WORKERS: '4',
    ENGINE_CAPACITY: '2',
    ENGINE_LIGHT_LANE: lane,
    ENGINE_ALLOW_PRIVATE_TARGETS: 'true',
    ENGINE_DEMO_SUITE: 'false',
  });
  try {
    const [a, b, c] = [await client(server, `${port}-a`, HEAVY), await client(server, `${port}-b`, HEAVY), await client(server, `${port}-c`, LIGHT)];
    // A warm-up: the first attempt of a fresh server loads what the next ones find loaded.
    await c.runToEnd();
    const t0 = Date.now();
    const heavyRuns = [a, b].map((x) => x.runToEnd());
    let heavyDone = false;
    void Promise.allSettled(heavyRuns).then(() => (heavyDone = true));
    await sleep(FIRST_SAMPLE_AFTER_MS);
    const samples: ReturnType<typeof c.runToEnd>[] = [];
    while (!heavyDone) {
      samples.push(c.runToEnd());
      for (let slept = 0; slept < INTERVAL_MS && !heavyDone; slept += 250) await sleep(250);
    }
    const light = await Promise.all(samples);
    const waits = await Promise.all(light.map((o) => c.waitOf(o.runId)));
    const heavy = (await Promise.all(heavyRuns)).map((run) => {
      const attempt = run.tests[0]!.attempts[0]!;
      const start = (Date.parse(attempt.startedAt) - t0) / 1000;
      const end = (Date.parse(run.tests[0]!.attempts.at(-1)!.finishedAt ?? attempt.startedAt) - t0) / 1000;
      return { status: run.status, wall: end - start, start, end, error: run.status === 'passed' ? null : `${run.message}${run.tests[0]?.error ? `: ${run.tests[0].error}` : ''}` };
    });
    return { lane, waits, lightPassed: light.filter((o) => o.status === 'passed').length, heavy, load: os.loadavg()[0]! };
  } finally {
    await server.stop();
  }
}

stopServersOnSignals();
console.log(`# The wait of an API test beside two 12-cell matrix tests (${ROUNDS} round(s), lanes ${VARIANTS.join(' and ')} in turn; ${os.availableParallelism()} cores)`);
const outcomes: Outcome[] = [];
for (let r = 1; r <= ROUNDS; r++) {
  // The order turns each round, so no variant always runs first on a cold machine.
  const order = VARIANTS.map((_, i) => VARIANTS[(i + r - 1) % VARIANTS.length]!);
  for (const lane of order) {
    const o = await once(lane, 3260 + r);
    outcomes.push(o);
    const heavy = o.heavy.map((h) => `${h.status} ${h.start.toFixed(1)}-${h.end.toFixed(1)} s`).join(', ');
    console.log(`round ${r} lane ${lane}: ${o.waits.length} API tests (${o.lightPassed} passed), waits ${o.waits.map((w) => (w / 1000).toFixed(1)).join(' ')} s; heavy tests ${heavy}; load average ${o.load.toFixed(1)}`);
    for (const h of o.heavy.filter((x) => x.error)) console.log(`  a heavy test ${h.status}: ${h.error!.slice(0, 300)}`);
  }
}
console.log('\n| light lane | API tests | wait, median | wait, max | heavy tests (wall each) | heavy tests side by side |');
console.log('|---|---|---|---|---|---|');
for (const lane of VARIANTS) {
  const mine = outcomes.filter((o) => o.lane === lane);
  const waits = mine.flatMap((o) => o.waits);
  const walls = mine.flatMap((o) => o.heavy.map((h) => h.wall.toFixed(0)));
  const together = mine.filter((o) => o.heavy[0]!.start < o.heavy[1]!.end && o.heavy[1]!.start < o.heavy[0]!.end).length;
  console.log(`| ${lane} | ${waits.length} | ${(median(waits) / 1000).toFixed(1)} s | ${(Math.max(...waits) / 1000).toFixed(1)} s | ${walls.join(', ')} s | ${together}/${mine.length} |`);
}
