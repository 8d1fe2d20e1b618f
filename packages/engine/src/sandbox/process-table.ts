import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { ATTEMPT_TAG_VAR } from './child-env.ts';
import { sweepOrphanedCgroups } from './attempt-cgroup.ts';

/**
 * The attempt's processes, found through /proc. A tag in the environment (FULLSTOP_ATTEMPT) survives what process
 * groups do not: Playwright, chrome-launcher and runChild start their children detached, in groups of their own,
 * and crashpad handlers reparent to init. Chromium's zygotes rewrite their environment area (setproctitle), so
 * an attempt is its tagged processes plus every descendant of one of them.
 */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Clock ticks since boot at which the process started: with the pid, an identity that survives pid reuse. */
  startTime: string;
  /**
   * Where its environment lies in its memory (/proc/<pid>/stat's env_start-env_end): copied from the parent at
   * fork, new at exec. A process read between its fork and its exec still shows its parent's environment.
   */
  envArea: string;
  tag: string | null;
}

const ENV_TAG_PREFIX = `${ATTEMPT_TAG_VAR}=`;
/** Rounds of kill-and-look-again: a process may fork while its siblings are being killed. */
const KILL_ROUNDS = 6;
const KILL_ROUND_PAUSE_MS = 50;
/** The same for a runner user's processes: shorter pauses, since nothing is usually left by then (a quick release). */
const USER_KILL_ROUNDS = 30;
const USER_KILL_PAUSE_MS = 10;

/**
 * A process's environment changes only at exec, where the tag is concerned: read it once per (pid, start time,
 * environment area). Keyed by pid and start time alone, a runner process read in the moment between the
 * launcher's fork and its exec (the launcher's environment, no tag) was taken for untagged for good.
 */
const tagCache = new Map<string, string | null>();

type Stat = Pick<ProcessInfo, 'ppid' | 'startTime' | 'envArea'>;

function parseStat(stat: string): Stat | null {
  // The command name (field 2) may hold spaces and parentheses: the fields after its last ')' are plain.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // A zombie is already dead: only its parent's wait is missing.
  if (fields[0] === 'Z') return null;
  // Fields 22 (start time), 50 and 51 (env_start, env_end), counted from 1 with the pid and the name.
  return { ppid: Number(fields[1]), startTime: fields[19] ?? '', envArea: `${fields[47] ?? ''}-${fields[48] ?? ''}` };
}

function parseTag(env: string): string | null {
  const entry = env.split('\0').find((e) => e.startsWith(ENV_TAG_PREFIX));
  return entry ? entry.slice(ENV_TAG_PREFIX.length) : null;
}

/**
 * One buffer for the small /proc files read on every poll (stat, statm: well under 1 KiB): a scan of the machine's
 * processes costs ~9 µs each here and allocates nothing, so the server's event loop barely notices it.
 */
const smallFile = Buffer.alloc(4096);

export function readSmall(path: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    return smallFile.toString('latin1', 0, readSync(fd, smallFile, 0, smallFile.length, 0));
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function readStat(pid: number): Stat | null {
  const stat = readSmall(`/proc/${pid}/stat`);
  return stat === null ? null : parseStat(stat);
}

export function readTag(pid: number): string | null {
  try {
    return parseTag(readFileSync(`/proc/${pid}/environ`, 'latin1'));
  } catch {
    // Another user's process, or gone.
    return null;
  }
}

/** The pids of the machine's processes (of this pid namespace): /proc lists thread group leaders only. */
export function listPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0) pids.push(pid);
  }
  return pids;
}

/** Every process of the machine (of this pid namespace) with its parent and its attempt tag, if any. */
export function processTable(): ProcessInfo[] {
  const table: ProcessInfo[] = [];
  const seen = new Set<string>();
  for (const pid of listPids()) {
    const stat = readStat(pid);
    if (!stat) continue;
    const key = `${pid}:${stat.startTime}:${stat.envArea}`;
    seen.add(key);
    let tag = tagCache.get(key);
    if (tag === undefined) {
      tag = readTag(pid);
      tagCache.set(key, tag);
    }
    table.push({ pid, ...stat, tag });
  }
  for (const key of tagCache.keys()) if (!seen.has(key)) tagCache.delete(key);
  return table;
}

/** The processes of `table` by parent pid: built once, it serves the look-up of every attempt of one poll. */
export function childrenIndex(table: ProcessInfo[]): Map<number, ProcessInfo[]> {
  const children = new Map<number, ProcessInfo[]>();
  for (const p of table) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  return children;
}

/** The processes carrying `tag`, and all their descendants. */
export function attemptProcesses(table: ProcessInfo[], tag: string, children = childrenIndex(table)): ProcessInfo[] {
  const found = new Map<number, ProcessInfo>();
  const queue = table.filter((p) => p.tag === tag);
  while (queue.length > 0) {
    const p = queue.pop()!;
    if (found.has(p.pid)) continue;
    found.set(p.pid, p);
    queue.push(...(children.get(p.pid) ?? []));
  }
  return [...found.values()];
}

/**
 * A process's resident set (VmRSS) in bytes, null when it is gone (or a zombie: it has no memory left). Cheap to
 * read, and never less than its PSS: a tree whose summed VmRSS is under a limit is under it in PSS too, so PSS
 * (whose read walks the page tables) is only needed above the limit.
 */
export function residentBytes(pid: number): number | null {
  // statm: sizes in pages, the whole mapping first, then the resident set.
  const [size, resident] = readSmall(`/proc/${pid}/statm`)?.split(' ') ?? [];
  if (size === undefined || size === '0') return null;
  const pages = Number(resident);
  return Number.isFinite(pages) ? pages * PAGE_BYTES : 0;
}

/** Linux's page size on the machines we run on (x86-64, arm64 with 4 KiB pages). */
const PAGE_BYTES = 4096;

/**
 * The descendants of `pid` (children, their children ...), from each process's parent in /proc/<pid>/stat alone: no
 * environment is read, so nothing waits on another process's memory map lock.
 */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of listPids()) {
    const stat = readStat(p);
    if (!stat) continue;
    const list = children.get(stat.ppid);
    if (list) list.push(p);
    else children.set(stat.ppid, [p]);
  }
  const found: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const p = queue.pop()!;
    found.push(p);
    queue.push(...(children.get(p) ?? []));
  }
  return found;
}

/**
 * The processes whose real, effective or saved user id is `uid` (/proc/<pid>/status): for a runner user leased to
 * one attempt (runner-pool.ts), every process it has is that attempt's.
 */
export function userProcesses(uid: number): number[] {
  const found: number[] = [];
  for (const pid of listPids()) {
    const status = readStatus(pid);
    const ids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status ?? '');
    if (ids && (Number(ids[1]) === uid || Number(ids[2]) === uid || Number(ids[3]) === uid) && !/^State:\s+Z/m.test(status!)) found.push(pid);
  }
  return found;
}

/** /proc/<pid>/status (about 1.5 KiB, read whole), null when the process is gone. */
function readStatus(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return null;
  }
}

/**
 * SIGKILLs every process of `uid` until none is left (USER_KILL_ROUNDS at most: one may fork meanwhile); answers how
 * many were killed and how many are still there. Never this process.
 */
export async function killUserProcesses(uid: number): Promise<{ killed: number; left: number }> {
  const killed = new Set<number>();
  for (let round = 0; round < USER_KILL_ROUNDS; round++) {
    const victims = userProcesses(uid).filter((pid) => pid !== process.pid);
    if (victims.length === 0) return { killed: killed.size, left: 0 };
    for (const pid of victims) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
      } catch {
        // Already gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, USER_KILL_PAUSE_MS));
  }
  return { killed: killed.size, left: userProcesses(uid).filter((pid) => pid !== process.pid).length };
}

/** SIGKILLs every process of the attempt until none is left; answers how many were killed. */
export async function killAttemptProcesses(tag: string, options: { except?: number } = {}): Promise<number> {
  let killed = 0;
  for (let round = 0; round < KILL_ROUNDS; round++) {
    const victims = attemptProcesses(processTable(), tag).filter((p) => p.pid !== options.except && p.pid !== process.pid);
    if (victims.length === 0) break;
    for (const p of victims) {
      try {
        process.kill(p.pid, 'SIGKILL');
        killed++;
      } catch {
        // Already gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, KILL_ROUND_PAUSE_MS));
  }
  return killed;
}

/** This process's identity as an owner of attempts: its pid and start time. */
export function selfIdentity(): string {
  return `${process.pid}.${readStat(process.pid)?.startTime ?? '0'}`;
}

/** The tag of one attempt supervised by this process: `<owner pid>.<owner start time>.<attempt key>`. */
export function attemptTag(attemptKey: string): string {
  return `${selfIdentity()}.${attemptKey.replace(/[^A-Za-z0-9-]/g, '')}`;
}

/** Whether `tag` is an attempt's tag (`<owner pid>.<owner start time>.<key>`), not another cgroup's name. */
const isAttemptTag = (tag: string): boolean => /^\d+\.\d+\.[A-Za-z0-9-]*$/.test(tag);

/** Whether the process named by `identity` (a selfIdentity(), or a tag that starts with one) still runs. */
export function ownerAlive(identity: string): boolean {
  const [pid, startTime] = identity.split('.');
  const stat = readStat(Number(pid));
  return stat !== null && stat.startTime === startTime;
}

/**
 * Kills the processes of attempts whose supervising process is gone (a server or `fullstop worker` killed with
 * SIGKILL, whose runner process could not clean up either), then what is left in their cgroups (a process that
 * left the attempt's tree and tag), and removes those. Attempts of live supervisors are theirs to end.
 */
export async function sweepOrphanedAttempts(): Promise<number> {
  const tags = new Set<string>();
  for (const p of processTable()) if (p.tag && !ownerAlive(p.tag)) tags.add(p.tag);
  let killed = 0;
  for (const tag of tags) killed += await killAttemptProcesses(tag);
  killed += await sweepOrphanedCgroups((tag) => !ownerAlive(tag), isAttemptTag);
  return killed;
}
