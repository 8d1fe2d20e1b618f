/**
 * `npm run bench:overhead`: what one two-request API test costs end to end through the product's own server (the
 * demo's "Health check", kind `api`, against the server itself), with the warm pool of runner processes and
 * without it (ENGINE_WARM_RUNNERS=0), and where each 100 ms goes. Figures, never pass/fail (README.md).
 *
 * Both servers start at once on fresh embedded databases and take turns, run by run, so each sees the same
 * machine. Each run: `POST /operator/clients/<demo>/runs { testName, wait: true }` (what `GET /test/run/<name>
 * ?wait=true` does for a client), wall time to the answer, CPU-seconds of the server's whole process tree (its
 * own cgroup: runner processes, the pool's refill and the sweep included) from the request to SETTLE_MS after the
 * answer, and the machine's (/proc/stat, everything else on it included). The phases come from the attempt's log.
 * Then the memory monitor's own CPU (monitor.ts). BENCH_OVERHEAD_PARTS=test,monitor picks the parts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type BenchServer, startBenchServer, stopServersOnSignals } from '../engine/bench-server.ts';
import { machineCpuSeconds } from '../engine/cpu.ts';
import { measureMonitor } from './monitor.ts';

const PARTS = new Set((process.env.BENCH_OVERHEAD_PARTS ?? 'test,monitor').split(','));
const RUNS = Number(process.env.BENCH_OVERHEAD_RUNS ?? 7);
const TEST_NAME = process.env.BENCH_OVERHEAD_TEST ?? 'Health check';
/** After the answer, CPU is still counted this long: the runner's exit, the sweep, the pool's refill. */
const SETTLE_MS = 1_500;
/** Between runs, a pause like a person's between two clicks (the pool refills in it). */
const PAUSE_MS = Number(process.env.BENCH_OVERHEAD_PAUSE_MS ?? 1_000);
const VARIANTS = [
  { name: 'warm pool (ENGINE_WARM_RUNNERS=1)', env: { ENGINE_WARM_RUNNERS: '1' } },
  { name: 'fresh fork (ENGINE_WARM_RUNNERS=0)', env: { ENGINE_WARM_RUNNERS: '0' } },
];
const CPU_TARGET_SECONDS = 1.0;
const WALL_TARGET_SECONDS = 1.5;

const PHASES = ['queue pick-up', 'attempt set-up', 'fork / take', 'runner load', 'test itself', 'recording', 'reports', 'run end + answer'] as const;
type Phase = (typeof PHASES)[number];

interface Sample {
  wall: number;
  cpu: number;
  machineCpu: number;
  warm: boolean;
  phases: Record<Phase, number>;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The folder of the run's one test: storage/runs/<client>/<run>/<runTest>/. */
function runTestFolder(server: BenchServer, runId: string): string {
  const runDir = path.join(server.dataDir, 'storage', 'runs', server.demoClientId, runId);
  const runTest = readdirSync(runDir).find((name) => statSync(path.join(runDir, name)).isDirectory() && name !== 'reports');
  if (!runTest) throw new Error(`no run test folder in ${runDir}`);
  return path.join(runDir, runTest);
}

/** Each line of the attempt's log: its time (ms since the epoch) and text. */
function logLines(folder: string): { at: number; text: string }[] {
  return readFileSync(path.join(folder, 'attempt-1.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => ({ at: Date.parse(line.slice(0, line.indexOf(' '))), text: line.slice(line.indexOf(' ') + 1) }));
}

/** Where the time went, from the attempt's log (execute-job.ts and the sandbox write these lines). */
function phasesOf(folder: string, sentAt: number, answeredAt: number): { phases: Record<Phase, number>; warm: boolean } {
  const lines = logLines(folder);
  const find = (re: RegExp) => {
    const line = lines.find((l) => re.test(l.text));
    if (!line) throw new Error(`no line ${re} in the attempt log of ${folder}`);
    return { at: line.at, match: re.exec(line.text)! };
  };
  const picked = find(/^attempt 1 of \d+ on /);
  const ready = find(/^runner process \d+ ready in (\d+) ms( \(pre-forked)?/);
  const loaded = find(/^runner loaded in (\d+) ms/);
  const ended = find(/^runner process \d+ ended/);
  const recorded = find(/^attempt 1 ended: /);
  const readyMs = Number(ready.match[1]);
  const reportsDir = path.join(folder, 'reports');
  const reportsAt = Math.max(recorded.at, ...readdirSync(reportsDir).map((f) => statSync(path.join(reportsDir, f)).mtimeMs));
  return {
    warm: ready.match[2] !== undefined,
    phases: {
      'queue pick-up': picked.at - sentAt,
      'attempt set-up': ready.at - readyMs - picked.at,
      'fork / take': readyMs,
      'runner load': loaded.at - ready.at,
      'test itself': ended.at - loaded.at,
      recording: recorded.at - ended.at,
      reports: reportsAt - recorded.at,
      'run end + answer': answeredAt - reportsAt,
    },
  };
}

async function measure(server: BenchServer): Promise<Sample> {
  const cpu0 = server.cpu.seconds();
  const machine0 = machineCpuSeconds();
  const sentAt = Date.now();
  const outcome = await server.run(server.demoClientId, TEST_NAME);
  const answeredAt = Date.now();
  if (outcome.status !== 'passed') throw new Error(`the test did not pass: ${JSON.stringify(outcome)}`);
  await pause(SETTLE_MS);
  const { phases, warm } = phasesOf(runTestFolder(server, outcome.runId), sentAt, answeredAt);
  return { wall: (answeredAt - sentAt) / 1000, cpu: server.cpu.seconds() - cpu0, machineCpu: machineCpuSeconds() - machine0, warm, phases };
}

async function measureTest(): Promise<void> {
  const servers: BenchServer[] = [];
  try {
    for (const [i, v] of VARIANTS.entries()) servers.push(await startBenchServer(3171 + i, v.env));
    // A first run of each warms what a running server has warm (the suite's files, the OS's caches, the pool).
    for (const server of servers) await measure(server);
    const samples: Sample[][] = VARIANTS.map(() => []);
    for (let run = 0; run < RUNS; run++) {
      for (const [i, server] of servers.entries()) {
        await pause(PAUSE_MS);
        const s = await measure(server);
        samples[i]!.push(s);
        console.log(`${VARIANTS[i]!.name} run ${run + 1}: ${s.wall.toFixed(2)} s, ${s.cpu.toFixed(2)} CPU-s (machine ${s.machineCpu.toFixed(2)}), ${s.warm ? 'pre-forked' : 'forked'}`);
      }
    }
    console.log(`\nmedian of ${RUNS} runs (${servers[0]!.cpu.how} CPU of each server's process tree; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`);
    console.table(
      VARIANTS.map((v, i) => {
        const s = samples[i]!;
        return {
          variant: v.name,
          'wall s': median(s.map((x) => x.wall)).toFixed(2),
          'CPU-s (tree)': median(s.map((x) => x.cpu)).toFixed(2),
          'CPU-s (machine)': median(s.map((x) => x.machineCpu)).toFixed(2),
          'pre-forked': `${s.filter((x) => x.warm).length}/${s.length}`,
        };
      }),
    );
    console.log('median ms per phase');
    console.table(Object.fromEntries(PHASES.map((p) => [p, Object.fromEntries(VARIANTS.map((v, i) => [v.name, Math.round(median(samples[i]!.map((x) => x.phases[p])))]))])));
    const warm = samples[0]!;
    console.log(
      `targets: <= ${CPU_TARGET_SECONDS} CPU-s: ${median(warm.map((x) => x.cpu)) <= CPU_TARGET_SECONDS ? 'met' : 'not met'}; <= ${WALL_TARGET_SECONDS} s: ${median(warm.map((x) => x.wall)) <= WALL_TARGET_SECONDS ? 'met' : 'not met'} (warm pool)`,
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

stopServersOnSignals();
if (PARTS.has('test')) await measureTest();
if (PARTS.has('monitor')) {
  console.log('\nmemory monitor thread, CPU ms per second of wall time, now and with the full scan of /proc it polled with before');
  console.table(await measureMonitor());
}
