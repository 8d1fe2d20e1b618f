/**
 * Run by monitor.ts in a process of its own: watches the given attempt tags with the engine's memory monitor (or,
 * with `full-scan`, with the poll it had before, full-scan-worker.ts) and prints the process's CPU time over the
 * measuring window: the monitor thread is all this process does.
 */
import { Worker } from 'node:worker_threads';
import { watchMemory } from '../../packages/engine/src/sandbox/memory-monitor.ts';

const [mode = 'tracker', tagList = '', seconds = '10'] = process.argv.slice(2);
const tags = tagList.split(',').filter(Boolean);
let stop = () => {};
if (mode === 'full-scan' && tags.length > 0) {
  const worker = new Worker(new URL('./full-scan-worker.ts', import.meta.url), { workerData: tags });
  worker.on('message', () => {});
  stop = () => void worker.terminate();
} else {
  const unwatch = tags.map((tag) => watchMemory({ tag, limitBytes: 64 * 1024 ** 3, onSample: () => {}, onOver: () => {} }));
  stop = () => unwatch.forEach((u) => u());
}
// The thread's start and first full look at /proc are not what a running attempt costs: measure after them.
await new Promise((r) => setTimeout(r, 1500));
const cpu = process.cpuUsage();
const started = performance.now();
await new Promise((r) => setTimeout(r, Number(seconds) * 1000));
const used = process.cpuUsage(cpu);
const wallMs = performance.now() - started;
stop();
console.log(JSON.stringify({ cpuMsPerSecond: ((used.user + used.system) / 1000 / wallMs) * 1000 }));
process.exit(0);
