import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// CPU time read from /proc (Linux only): the whole machine's, and one process tree's.

/** Clock ticks per second of /proc's CPU figures (almost always 100). */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU-seconds every core of the machine has spent working (not idle, not waiting on I/O) since boot: /proc/stat. */
export function machineCpuSeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  // cpu user nice system idle iowait irq softirq steal guest guest_nice; guest time is already inside user.
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number) as number[];
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS;
}

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime: its own CPU and that of the children it has waited for. */
  ticks: number;
}

function readStat(pid: string): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces or parentheses itself: the fields follow the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields[0] is state (field 3); ppid is field 4, utime..cstime are fields 14-17.
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number) as number[];
    return { pid: Number(pid), ppid: Number(fields[1]), ticks: utime! + stime! + cutime! + cstime! };
  } catch {
    return null; // it ended while the table was read
  }
}

/**
 * CPU-seconds of a process and all its descendants, living or ended: each living process's own time plus that
 * of the children it has reaped (an ended runner's Chromium is in the runner's cutime, the runner's in the
 * server's). Unlike /proc/stat it leaves out what other programs on a shared machine do. A process that outlived
 * its parent and was adopted by init is lost.
 */
export function treeCpuSeconds(rootPid: number): number {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(readStat)
    .filter((s): s is ProcStat => s !== null);
  const children = new Map<number, ProcStat[]>();
  for (const s of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  let ticks = 0;
  const root = all.find((s) => s.pid === rootPid);
  const queue = root ? [root] : [];
  while (queue.length > 0) {
    const s = queue.pop()!;
    ticks += s.ticks;
    queue.push(...(children.get(s.pid) ?? []));
  }
  return ticks / TICKS;
}

/** The CPU-seconds of one process and everything it starts, read by difference over a span. */
export interface CpuMeter {
  /** cgroup: exact, ended and orphaned processes included; process tree: see treeCpuSeconds. */
  how: 'cgroup' | 'process tree';
  seconds(): number;
  /** The processes counted now (cgroup only: a process tree's members are not kept track of). */
  pids(): number[];
  /** Removes the cgroup once the processes in it are gone (waits up to 10 s for the last of them). */
  close(): Promise<void>;
}

/**
 * Puts the process in a CPU-accounting cgroup of its own (cgroup v1 cpuacct, or v2), which everything it starts
 * joins, when this user may make one; else counts its process tree. Call it before the process starts children.
 */
export function meterCpu(pid: number): CpuMeter {
  const lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  const v1 = lines.map((l) => l.split(':')).find(([, controllers]) => controllers?.split(',').includes('cpuacct'));
  const v2 = lines.find((l) => l.startsWith('0::'));
  const candidates = [
    ...(v1?.[2] !== undefined ? [{ dir: path.join('/sys/fs/cgroup/cpuacct', v1[2], `fullstop-bench-${pid}`), read: (d: string) => Number(readFileSync(path.join(d, 'cpuacct.usage'), 'utf8')) / 1e9 }] : []),
    ...(v2 ? [{ dir: path.join('/sys/fs/cgroup', v2.slice(3), `fullstop-bench-${pid}`), read: (d: string) => Number(/usage_usec (\d+)/.exec(readFileSync(path.join(d, 'cpu.stat'), 'utf8'))![1]) / 1e6 }] : []),
  ];
  for (const c of candidates) {
    try {
      mkdirSync(c.dir);
      writeFileSync(path.join(c.dir, 'cgroup.procs'), String(pid));
      c.read(c.dir);
      return {
        how: 'cgroup',
        seconds: () => c.read(c.dir),
        pids: () =>
          readFileSync(path.join(c.dir, 'cgroup.procs'), 'utf8')
            .split('\n')
            .filter(Boolean)
            .map(Number),
        close: async () => {
          for (let i = 0; i < 100; i++) {
            try {
              rmdirSync(c.dir);
              return;
            } catch {
              // processes are still leaving it
              await new Promise((r) => setTimeout(r, 100));
            }
          }
        },
      };
    } catch {
      try {
        rmdirSync(c.dir);
      } catch {
        // it was never made
      }
    }
  }
  return { how: 'process tree', seconds: () => treeCpuSeconds(pid), pids: () => [], close: async () => undefined };
}
