import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

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
 * alone holds the limit, without CPU the runner's nice value is all there is. On v2, a cgroup without either is still
 * made where it can be (for the attempt's end, below).
 *
 * - **The attempt's end** (either hierarchy): when the attempt ends, everything in its cgroups is killed
 *   (`killAll`), whatever it did to leave the attempt's process tree: a detached, `setsid`, `env -i` process that
 *   carries no tag and was reparented to init is still in the cgroup it inherited (issue 37).
 */
export interface AttemptCgroup {
  /** Which of the two the kernel holds for this attempt. */
  readonly memory: boolean;
  readonly cpu: boolean;
  /** Moves a process (and so everything it starts afterwards) into the cgroups. False when that failed. */
  add(pid: number): boolean;
  /** How many processes the kernel ended in this attempt's memory cgroup for going over its ceiling. */
  oomKills(): number;
  /**
   * Kills every process in the attempt's cgroups, until they are empty or a bounded number of rounds has passed
   * (a process may fork while they are read); answers the pids killed. v2: `cgroup.kill`; v1: `cgroup.procs`.
   */
  killAll(options?: { except?: number }): Promise<number[]>;
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
/** Rounds of read-and-kill of an attempt's cgroups, and the pause between two (a killed process takes a moment to leave). */
const KILL_ROUNDS = 50;
const KILL_ROUND_PAUSE_MS = 10;

interface Controller {
  /** This process's cgroup folder for the controller, where attempts' cgroups are made. */
  parent: string;
  /** v2: `cgroup.kill` ends every process of a cgroup at once (Linux 5.14). */
  v2: boolean;
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
  if (v1Memory) found.push({ parent: v1Memory, v2: false, files: (a) => [['memory.limit_in_bytes', String(a.memoryBytes)]], eventsFile: 'memory.oom_control', cpu: false });
  const v1Cpu = v1Parent(lines, 'cpu', 'cpu.shares');
  if (v1Cpu) found.push({ parent: v1Cpu, v2: false, files: (a) => [['cpu.shares', String(CPU_SHARES[a.cpu])]], cpu: true });
  if (found.length > 0) return found;
  const v2 = raw.find((l) => l.startsWith('0::'));
  if (!v2) return [];
  const parent = path.join('/sys/fs/cgroup', v2.slice(3));
  // A v2 cgroup's own folder (not v1's tmpfs above its hierarchies, in a hybrid layout).
  if (read(path.join(parent, 'cgroup.controllers')) === null) return [];
  const delegated = (read(path.join(parent, 'cgroup.subtree_control')) ?? '').split(/\s+/);
  const memory = delegated.includes('memory');
  const cpu = delegated.includes('cpu');
  // With neither controller (systemd's Delegate= keeps the service's own cgroup without, while the service is in
  // it), a cgroup of no controller still holds the attempt's processes to be killed at its end, if it can be made.
  return [
    {
      parent,
      v2: true,
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
  const made: { dir: string; v2: boolean; eventsFile?: string; cpu: boolean }[] = [];
  for (const controller of layout) {
    const dir = path.join(controller.parent, safeName(tag));
    try {
      mkdirSync(dir);
      for (const [file, value] of controller.files({ ...ask, memoryBytes: Math.floor(ask.memoryBytes) })) writeFileSync(path.join(dir, file), value);
      made.push({ dir, v2: controller.v2, cpu: controller.cpu, ...(controller.eventsFile ? { eventsFile: controller.eventsFile } : {}) });
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
    killAll(options = {}) {
      return killCgroups(made, options.except);
    },
    remove() {
      for (const { dir } of made) removeDir(dir);
    },
  };
}

/** The pids in a cgroup folder (its `cgroup.procs`: live processes only, zombies are not listed). */
function procsOf(dir: string): number[] {
  return (read(path.join(dir, 'cgroup.procs')) ?? '')
    .split('\n')
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

/**
 * SIGKILLs every process in the cgroups `dirs` until none is left: v2 writes `1` to `cgroup.kill` (the kernel kills
 * the whole subtree, forks included), v1 reads `cgroup.procs` of each hierarchy and kills what it lists, again and
 * again (a process may fork between the read and the kill; a killed one is listed until it has exited), at most
 * KILL_ROUNDS times. `except` is left alone (never this process). Answers the pids it killed.
 */
async function killCgroups(dirs: { dir: string; v2: boolean }[], except?: number): Promise<number[]> {
  const killed = new Set<number>();
  const spare = (pid: number) => pid === except || pid === process.pid;
  for (let round = 0; round < KILL_ROUNDS; round++) {
    let left = 0;
    for (const { dir, v2 } of dirs) {
      const pids = procsOf(dir).filter((pid) => !spare(pid));
      if (pids.length === 0) continue;
      left += pids.length;
      // cgroup.kill would take `except` down too: then pid by pid, as on v1.
      if (v2 && except === undefined && round === 0) {
        try {
          writeFileSync(path.join(dir, 'cgroup.kill'), '1');
          for (const pid of pids) killed.add(pid);
          continue;
        } catch {
          // A kernel before 5.14: pid by pid.
        }
      }
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
          killed.add(pid);
        } catch {
          // Gone already.
        }
      }
    }
    if (left === 0) break;
    await sleep(KILL_ROUND_PAUSE_MS);
  }
  return [...killed];
}

/** Whether this process can give its attempts cgroups of their own (tried once: a cgroup made and removed). */
let available: boolean | undefined;
export function attemptCgroupsAvailable(): boolean {
  if (available === undefined) {
    const probe = createAttemptCgroup(`probe-${process.pid}-${Date.now()}`, { memoryBytes: 256 * 1024 * 1024, cpu: 'background' });
    available = probe !== null;
    probe?.remove();
  }
  return available;
}

/**
 * Ends the cgroups of attempts `orphaned` answers true for (their supervisor died): kills what is left in them
 * (a process that left the attempt's tree, which the sweep by tag cannot find), then removes them. A cgroup whose
 * name `isAttempt` does not take for an attempt's (a test's, a probe's) is only removed, when empty. Answers how
 * many processes were killed.
 */
export async function sweepOrphanedCgroups(orphaned: (tag: string) => boolean, isAttempt: (tag: string) => boolean): Promise<number> {
  layout ??= findLayout();
  const byName = new Map<string, { dir: string; v2: boolean }[]>();
  for (const { parent, v2 } of layout) {
    let names: string[];
    try {
      names = readdirSync(parent).filter((n) => n.startsWith(PREFIX) && orphaned(n.slice(PREFIX.length)));
    } catch {
      continue;
    }
    for (const name of names) byName.set(name, [...(byName.get(name) ?? []), { dir: path.join(parent, name), v2 }]);
  }
  let killed = 0;
  for (const [name, dirs] of byName) {
    if (isAttempt(name.slice(PREFIX.length))) killed += (await killCgroups(dirs)).length;
    for (const { dir } of dirs) removeDir(dir);
  }
  return killed;
}
