/**
 * What a piece of work costs this process and the processes it starts (a Chromium and its renderers): CPU
 * seconds, wall time, and the peak of the whole tree's memory (proportional set size) above where it stood before. Linux only
 * (/proc).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** USER_HZ: the clock ticks /proc counts CPU time in, 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;
const SAMPLE_EVERY_MS = 25;
/** How long a measure waits for the processes its work started to be reaped. */
const REAP_WAIT_MS = 10_000;

export interface Cost {
  wallMs: number;
  cpuSeconds: number;
  /** The tree's peak memory (PSS) above its level at the start. */
  peakAddedBytes: number;
}

/** CPU of this process (µs precision) plus that of every child it has reaped (Chromium, once closed). */
function cpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of stat (cutime, cstime): 13 and 14 after the command.
  const children = (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
  const self = process.cpuUsage();
  return (self.user + self.system) / 1e6 + children;
}

/** This process and its descendants, through the kernel's lists of children (no scan of every process). */
function tree(root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        for (const child of readFileSync(`/proc/${out[i]}/task/${tid}/children`, 'utf8').split(' ')) if (child.trim()) out.push(Number(child));
      } catch {
        // Gone since the listing.
      }
    }
  }
  return out;
}

/**
 * Memory of this process and every descendant, as proportional set size: a page shared by Chromium's processes
 * (its libraries, its zygote's copy-on-write pages) counts once, split between them, not once per process.
 */
export function treePss(): number {
  let total = 0;
  for (const pid of tree(process.pid)) {
    try {
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      total += Number(pss?.[1] ?? 0) * 1024;
    } catch {
      // Gone since the listing.
    }
  }
  return total;
}

/** Runs `work` and measures it; every process it starts must have ended when it resolves (they are waited for). */
export async function measure(work: () => Promise<unknown>): Promise<Cost> {
  const before = treePss();
  const already = new Set(tree(process.pid));
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, treePss());
  }, SAMPLE_EVERY_MS);
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  try {
    await work();
  } catch (err) {
    clearInterval(sampler);
    throw err;
  }
  const wallMs = performance.now() - t0;
  // A closed browser is reaped a moment after close() resolves: its CPU counts only once it is (cutime).
  const started = () => tree(process.pid).filter((pid) => !already.has(pid)).length;
  for (const until = Date.now() + REAP_WAIT_MS; started() > 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
  clearInterval(sampler);
  const cpu = cpuSeconds() - cpu0;
  peak = Math.max(peak, treePss());
  return { wallMs, cpuSeconds: cpu, peakAddedBytes: Math.max(0, peak - before) };
}
