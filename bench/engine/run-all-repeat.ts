/**
 * `npm run bench:run-all`: the demo suite's "Run all tests" through the product's own server, N times in a row,
 * with its CPU cost and wall time against what the machine could do at best (see README.md). Then, unless
 * BENCH_RUN_ALL_PARTS leaves it out, 200 queued API tests from 5 clients with and without the weighted capacity.
 * Figures, never pass/fail.
 */
import os from 'node:os';
import { measureApiThroughput, parseVariants } from './api-throughput.ts';
import { type BenchServer, failedBrowserCases, formatTimeline, lighthouseScores, type RunOutcome, startBenchServer, stopServersOnSignals } from './bench-server.ts';
import { machineCpuSeconds } from './cpu.ts';

const REPEAT = Number(process.env.BENCH_RUN_ALL_REPEAT ?? 20);
const SINGLE_ROUNDS = Number(process.env.BENCH_SINGLE_ROUNDS ?? 1);
const PARTS = new Set((process.env.BENCH_RUN_ALL_PARTS ?? 'run-all,throughput').split(','));
/**
 * The servers whose run-alls are compared, `name:VAR=value;VAR=value`, all started at once and taking turns run
 * by run, so each sees the same machine. E.g. `capacity:,baseline:ENGINE_CAPACITY=0` for the old behaviour too.
 */
const VARIANTS = parseVariants(process.env.BENCH_RUN_ALL_VARIANTS ?? 'capacity:');
const CORES = os.availableParallelism();
const CPU_TARGET_SECONDS = 40;
const RATIO_TARGET = 1.2;

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface Span {
  wall: number;
  /** CPU-seconds of the server and everything it started (runners, browsers, tools): this run's own work. */
  cpu: number;
  /** CPU-seconds of the whole machine, /proc/stat: includes whatever else runs on it. */
  machineCpu: number;
}

interface Variant {
  name: string;
  server: BenchServer;
  longestAlone: number;
  runs: (Span & { passed: boolean; ratio: number })[];
}

/** "  NOT PASSED: name status (first line of its error); ... [failed browser cases]" or nothing. */
function notPassedOf(server: BenchServer, run: RunOutcome): string {
  const tests = run.tests.filter((t) => t.status !== 'passed').map((t) => `${t.testName} ${t.status}${t.error ? ` (${t.error.split('\n')[0]!.slice(0, 200)})` : ''}`);
  if (tests.length === 0) return '';
  const cases = failedBrowserCases(server.dataDir, run.runId);
  return `  NOT PASSED: ${tests.join('; ')}${cases.length ? `\n      ${cases.join('\n      ')}` : ''}`;
}

async function timed<T>(server: BenchServer, work: () => Promise<T>): Promise<Span & { value: T }> {
  const before = { machine: machineCpuSeconds(), tree: server.cpu.seconds() };
  const started = performance.now();
  const value = await work();
  const wall = (performance.now() - started) / 1000;
  const after = { machine: machineCpuSeconds(), tree: server.cpu.seconds() };
  return { value, wall, cpu: after.tree - before.tree, machineCpu: after.machine - before.machine };
}

async function runAllPart(): Promise<void> {
  const variants: Variant[] = [];
  try {
    for (const [i, v] of VARIANTS.entries()) {
      variants.push({ name: v.name, server: await startBenchServer(3154 + i, { ENGINE_WORKERS: '4', ...v.env }), longestAlone: 0, runs: [] });
    }
    const settings = VARIANTS.map((v) => `${v.name} ${JSON.stringify(v.env)}`).join(', ');
    console.log(`# Demo "Run all tests" on ${CORES} cores (${settings}); load average ${os.loadavg().map(round1).join(' / ')}; CPU counted by ${variants[0]!.server.cpu.how}`);
    // A first run warms caches (Chromium's, wapiti's, the OS's), as a real server would be warm.
    const testNames: string[] = [];
    for (const v of variants) {
      const warm = await timed(v.server, () => v.server.run(v.server.demoClientId));
      if (testNames.length === 0) testNames.push(...warm.value.tests.map((t) => t.testName));
      console.log(`${v.name} warm-up run-all: ${warm.value.status} in ${round1(warm.wall)} s, ${round1(warm.cpu)} CPU-s: ${warm.value.message}${notPassedOf(v.server, warm.value)}`);
    }

    console.log('\n## Each test alone');
    for (const name of testNames) {
      for (const v of variants) {
        const spans: (Span & { value: RunOutcome })[] = [];
        for (let r = 0; r < SINGLE_ROUNDS; r++) spans.push(await timed(v.server, () => v.server.run(v.server.demoClientId, name)));
        const wall = median(spans.map((s) => s.wall));
        const cpu = median(spans.map((s) => s.cpu));
        v.longestAlone = Math.max(v.longestAlone, wall);
        console.log(
          `${v.name.padEnd(10)} ${name.padEnd(22)} ${round1(wall).toString().padStart(5)} s ${round1(cpu).toString().padStart(5)} CPU-s (machine ${round1(median(spans.map((s) => s.machineCpu)))})  ` +
            `${round2(cpu / wall)} cores busy  ${spans.map((s) => s.value.status).join(' ')}` +
            spans.map((s) => lighthouseScores(v.server.dataDir, s.value.runId).map((l) => `  Lighthouse ${l}`).join('')).join('') +
            spans.map((s) => notPassedOf(v.server, s.value)).join(''),
        );
      }
    }

    console.log(`\n## ${REPEAT} run-alls in a row (ratio = wall / max(longest alone, CPU / ${CORES} cores), target <= ${RATIO_TARGET}; CPU target <= ${CPU_TARGET_SECONDS} s)`);
    for (let i = 1; i <= REPEAT; i++) {
      for (const v of variants) {
        const span = await timed(v.server, () => v.server.run(v.server.demoClientId));
        const ratio = span.wall / Math.max(v.longestAlone, span.cpu / CORES);
        v.runs.push({ ...span, passed: span.value.status === 'passed', ratio });
        console.log(
          `${String(i).padStart(2)} ${v.name.padEnd(10)} ${span.value.status.padEnd(6)} wall ${round1(span.wall)} s, CPU ${round1(span.cpu)} s (machine ${round1(span.machineCpu)} s), ` +
            `ratio ${round2(ratio)}; load average ${round1(os.loadavg()[0]!)}; Lighthouse ${lighthouseScores(v.server.dataDir, span.value.runId).join(', ') || 'none'}` +
            notPassedOf(v.server, span.value),
        );
        console.log(`      ${formatTimeline(await v.server.timeline(span.value.runId))}`);
      }
    }
    console.log('');
    for (const { name, runs, longestAlone } of variants) {
      const passed = runs.filter((r) => r.passed).length;
      console.log(
        `${name}: ${passed} of ${runs.length} run-alls passed; wall median ${round1(median(runs.map((r) => r.wall)))} s (max ${round1(Math.max(...runs.map((r) => r.wall)))}), ` +
          `longest test alone ${round1(longestAlone)} s; CPU median ${round1(median(runs.map((r) => r.cpu)))} s (machine ${round1(median(runs.map((r) => r.machineCpu)))} s); ` +
          `ratio median ${round2(median(runs.map((r) => r.ratio)))} (worst ${round2(Math.max(...runs.map((r) => r.ratio)))})`,
      );
    }
  } finally {
    await Promise.all(variants.map((v) => v.server.stop()));
  }
}

stopServersOnSignals();
if (PARTS.has('run-all')) await runAllPart();
if (PARTS.has('throughput')) await measureApiThroughput();
