import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A kernel-enforced memory ceiling for one attempt's process tree: a memory cgroup of its own (v1 or v2) under
 * this process's cgroup, which every process the runner starts joins by inheritance. The memory monitor polls
 * and gives the attempt its limit; this is the backstop for what grows between two polls (a busy machine starves
 * the monitor), so one runner can never take the machine's memory. Where cgroups are not writable (not root, no
 * delegation) there is none and the monitor alone holds the limit.
 */
export interface MemoryCgroup {
  /** Moves a process (and so everything it starts afterwards) into the cgroup. False when that failed. */
  add(pid: number): boolean;
  /** How many processes the kernel ended in this cgroup for going over its ceiling. */
  oomKills(): number;
  /** Removes the cgroup once its processes are gone (a no-op if some are left: the next sweep removes it). */
  remove(): void;
}

const V1_ROOT = '/sys/fs/cgroup/memory';
const V2_ROOT = '/sys/fs/cgroup';
const PREFIX = 'fullstop-';

interface Layout {
  /** This process's cgroup folder, where attempts' cgroups are made. */
  parent: string;
  limitFile: string;
  /** The file whose `oom_kill N` line counts the kernel's kills. */
  eventsFile: string;
}

let layout: Layout | null | undefined;

function read(file: string): string | null {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return null;
  }
}

/** Where this process's memory cgroup is, v1 first (a `memory` line in /proc/self/cgroup), else v2 (`0::`). */
function findLayout(): Layout | null {
  const lines = (read('/proc/self/cgroup') ?? '').split('\n');
  const v1 = lines.map((l) => l.split(':')).find(([, controllers]) => controllers?.split(',').includes('memory'));
  if (v1?.[2] !== undefined) {
    const parent = path.join(V1_ROOT, v1[2]);
    if (read(path.join(parent, 'memory.limit_in_bytes')) !== null) return { parent, limitFile: 'memory.limit_in_bytes', eventsFile: 'memory.oom_control' };
  }
  const v2 = lines.find((l) => l.startsWith('0::'));
  if (v2) {
    const parent = path.join(V2_ROOT, v2.slice(3));
    // v2 gives a child cgroup a memory controller only where the parent delegates it.
    if ((read(path.join(parent, 'cgroup.subtree_control')) ?? '').split(/\s+/).includes('memory')) {
      return { parent, limitFile: 'memory.max', eventsFile: 'memory.events' };
    }
  }
  return null;
}

const safeName = (tag: string) => PREFIX + tag.replace(/[^A-Za-z0-9_.-]/g, '_');

/** A cgroup for the attempt `tag` capped at `limitBytes`, or null where none can be made. */
export function createMemoryCgroup(tag: string, limitBytes: number): MemoryCgroup | null {
  if (layout === undefined) layout = findLayout();
  if (!layout) return null;
  const { parent, limitFile, eventsFile } = layout;
  const dir = path.join(parent, safeName(tag));
  try {
    mkdirSync(dir);
    writeFileSync(path.join(dir, limitFile), String(Math.floor(limitBytes)));
  } catch {
    try {
      rmdirSync(dir);
    } catch {
      // Never made.
    }
    return null;
  }
  return {
    add(pid) {
      try {
        writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
        return true;
      } catch {
        return false;
      }
    },
    oomKills() {
      return Number(/^oom_kill (\d+)$/m.exec(read(path.join(dir, eventsFile)) ?? '')?.[1] ?? 0);
    },
    remove() {
      try {
        rmdirSync(dir);
      } catch {
        // Processes left, or gone already.
      }
    },
  };
}

/** Removes the cgroups of attempts `orphaned` answers true for (their supervisor died), once they are empty. */
export function sweepEmptyCgroups(orphaned: (tag: string) => boolean): void {
  if (layout === undefined) layout = findLayout();
  if (!layout) return;
  let names: string[];
  try {
    names = readdirSync(layout.parent).filter((n) => n.startsWith(PREFIX) && orphaned(n.slice(PREFIX.length)));
  } catch {
    return;
  }
  for (const name of names) {
    try {
      rmdirSync(path.join(layout.parent, name));
    } catch {
      // Still has processes.
    }
  }
}
