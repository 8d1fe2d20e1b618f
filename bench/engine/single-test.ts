/**
 * `node --import tsx bench/engine/single-test.ts "<test name>" [rounds]` (default "Marketing pages", 3 rounds): one
 * test of the demo suite run alone through the product's own server (fresh embedded database, demo client), after
 * one warm-up run. Wall time from the request to the answer of `wait`; CPU of the server and everything it starts
 * (runner processes, browsers). Medians, and each round's figures. Figures, never pass/fail.
 */
import { startBenchServer, stopServersOnSignals } from './bench-server.ts';

const name = process.argv[2] ?? 'Marketing pages';
const rounds = Number(process.argv[3] ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

stopServersOnSignals();
const server = await startBenchServer(Number(process.env.BENCH_PORT ?? 3154), { ENGINE_WORKERS: process.env.ENGINE_WORKERS ?? '4' });
try {
  const once = async () => {
    const cpu0 = server.cpu.seconds();
    const started = performance.now();
    const outcome = await server.run(server.demoClientId, name);
    const wall = (performance.now() - started) / 1000;
    // The browsers' last processes exit before the CPU is read.
    await new Promise((r) => setTimeout(r, 500));
    return { wall, cpu: server.cpu.seconds() - cpu0, status: outcome.status, error: outcome.tests[0]?.error ?? null };
  };
  await once();
  const samples = [];
  for (let i = 0; i < rounds; i++) samples.push(await once());
  console.log(JSON.stringify({ test: name, cpuMeter: server.cpu.how, samples }, null, 2));
  console.log(`${name}: median ${median(samples.map((s) => s.wall)).toFixed(1)} s wall, ${median(samples.map((s) => s.cpu)).toFixed(1)} CPU-s (${samples.map((s) => s.status).join(', ')})`);
} finally {
  await server.stop();
}
