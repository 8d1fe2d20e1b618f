import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The kernel's hold on one attempt's process tree: cgroups of its own under this process's, which every process
 * the runner starts joins by inheritance, detached browsers included (a session of their own changes nothing).
 *
 * - **Memory** (v1 or v2): a ceiling. The memory monitor polls and gives the attempt its limit; this is the backstop
 *   for what grows between two polls (a busy machine starves the monitor), so one runner can never take the
 *   machine's memory.
 * - **CPU** (v1 `cpu.shares` or v2 `cpu.weight`): the attempt's share when the cores are contended (decision 0087).
 *   A nice value does not hold for a browser: Playwright and chrome-launcher start it in a session of its own, and
 *   with the kernel's autogroups on, each session competes at nice 0 whatever its processes' nice (Chromium as root
 *   even renices itself to -8). An attempt in a CPU cgroup is out of the autogroups: the API process comes first,
 *   and a kind whose figures time this machine's CPU (Lighthouse) comes before the other attempts.
 *
 * Where a controller is not writable (not root, no delegation) that part is missing: without memory the monitor
 * alone holds the limit, without CPU the runner's nice value is all there is.
 */
export interface AttemptCgroup {
  /** Which of the two the kernel holds for this attempt. */
  readonly memory: boolean;
  readonly cpu: boolean;
  /** Moves a process (and so everything it starts afterwards) into the cgroups. False when that failed. */
  add(pid: number): boolean;
  /** How many processes the kernel ended in this attempt's memory cgroup for going over its ceiling. */
  oomKills(): number;
  /** Removes the cgroups once their processes are gone (a no-op if some are left: the next sweep removes them). */
  remove(): void;
}

/** Which share of the CPU an attempt gets against the API and the other attempts. */
export type CpuShare = 'measured' | 'background';

/**
 * The weights, against the API process's 1024 (v1 shares; v2 weights are a tenth, their default 100): a background
 * attempt weighs what a process at nice 10 would (110, the runners' nice value), a measured one half the API.
 */
const CPU_SHARES: Readonly<Record<CpuShare, number>> = { measured: 512, background: 110 };

const PREFIX = 'fullstop-';

interface Controller {
  /** This process's cgroup folder for the controller, where attempts' cgroups are made. */
  parent: string;
  /** The files written when an attempt's cgroup is made, by what is asked of it. */
  files(ask: { memoryBytes: number; cpu: CpuShare }): [file: string, value: string][];
  /** The file whose `oom_kill N` line counts the kernel's kills (memory only). */
  eventsFile?: string;
  /** Whether the attempt's CPU share is set here. */
  cpu: boolean;
}

let layout: Controller[] | undefined;

function read(file: string): string | null {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return null;
  }
}

/** v1's folder of this process in a controller's hierarchy (a line of /proc/self/cgroup naming it), if writable there. */
function v1Parent(lines: string[][], controller: string, probeFile: string): string | null {
  const line = lines.find(([, controllers]) => controllers?.split(',').includes(controller));
  if (line?.[2] === undefined) return null;
  const parent = path.join('/sys/fs/cgroup', controller, line[2]);
  return read(path.join(parent, probeFile)) !== null ? parent : null;
}

/**
 * The controllers this process may give its attempts: v1's memory and cpu hierarchies, each where it is mounted,
 * else v2's one folder with the controllers its parent delegates (`cgroup.subtree_control`).
 */
function findLayout(): Controller[] {
  const raw = (read('/proc/self/cgroup') ?? '').split('\n');
  const lines = raw.map((l) => l.split(':'));
  const found: Controller[] = [];
  const v1Memory = v1Parent(lines, 'memory', 'memory.limit_in_bytes');
  if (v1Memory) found.push({ parent: v1Memory, files: (a) => [['memory.limit_in_bytes', String(a.memoryBytes)]], eventsFile: 'memory.oom_control', cpu: false });
  const v1Cpu = v1Parent(lines, 'cpu', 'cpu.shares');
  if (v1Cpu) found.push({ parent: v1Cpu, files: (a) => [['cpu.shares', String(CPU_SHARES[a.cpu])]], cpu: true });
  if (found.length > 0) return found;
  const v2 = raw.find((l) => l.startsWith('0::'));
  if (!v2) return [];
  const parent = path.join('/sys/fs/cgroup', v2.slice(3));
  const delegated = (read(path.join(parent, 'cgroup.subtree_control')) ?? '').split(/\s+/);
  const memory = delegated.includes('memory');
  const cpu = delegated.includes('cpu');
  if (!memory && !cpu) return [];
  return [
    {
      parent,
      files: (a) => [
        ...(memory ? [['memory.max', String(a.memoryBytes)] as [string, string]] : []),
        ...(cpu ? [['cpu.weight', String(Math.round(CPU_SHARES[a.cpu] / 10.24))] as [string, string]] : []),
      ],
      ...(memory ? { eventsFile: 'memory.events' } : {}),
      cpu,
    },
  ];
}

const safeName = (tag: string) => PREFIX + tag.replace(/[^A-Za-z0-9_.-]/g, '_');

function removeDir(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Processes left, or gone already.
  }
}

/** Cgroups for the attempt `tag`: memory capped at `memoryBytes`, the CPU share `cpu`; null where none can be made. */
export function createAttemptCgroup(tag: string, ask: { memoryBytes: number; cpu: CpuShare }): AttemptCgroup | null {
  layout ??= findLayout();
  const made: { dir: string; eventsFile?: string; cpu: boolean }[] = [];
  for (const controller of layout) {
    const dir = path.join(controller.parent, safeName(tag));
    try {
      mkdirSync(dir);
      for (const [file, value] of controller.files({ ...ask, memoryBytes: Math.floor(ask.memoryBytes) })) writeFileSync(path.join(dir, file), value);
      made.push({ dir, cpu: controller.cpu, ...(controller.eventsFile ? { eventsFile: controller.eventsFile } : {}) });
    } catch {
      removeDir(dir);
    }
  }
  if (made.length === 0) return null;
  const events = made.find((m) => m.eventsFile);
  return {
    memory: events !== undefined,
    cpu: made.some((m) => m.cpu),
    add(pid) {
      let joined = true;
      for (const { dir } of made) {
        try {
          writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
        } catch {
          joined = false;
        }
      }
      return joined;
    },
    oomKills() {
      return events ? Number(/^oom_kill (\d+)$/m.exec(read(path.join(events.dir, events.eventsFile!)) ?? '')?.[1] ?? 0) : 0;
    },
    remove() {
      for (const { dir } of made) removeDir(dir);
    },
  };
}

/** Removes the cgroups of attempts `orphaned` answers true for (their supervisor died), once they are empty. */
export function sweepEmptyCgroups(orphaned: (tag: string) => boolean): void {
  layout ??= findLayout();
  for (const { parent } of layout) {
    let names: string[];
    try {
      names = readdirSync(parent).filter((n) => n.startsWith(PREFIX) && orphaned(n.slice(PREFIX.length)));
    } catch {
      continue;
    }
    for (const name of names) removeDir(path.join(parent, name));
  }
}
