import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { ATTEMPT_TAG_VAR } from './child-env.ts';
import { sweepEmptyCgroups } from './attempt-cgroup.ts';

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

function ownerAlive(tag: string): boolean {
  const [pid, startTime] = tag.split('.');
  const stat = readStat(Number(pid));
  return stat !== null && stat.startTime === startTime;
}

/**
 * Kills the processes of attempts whose supervising process is gone (a server or `fullstop worker` killed with
 * SIGKILL, whose runner process could not clean up either). Attempts of live supervisors are theirs to end.
 */
export async function sweepOrphanedAttempts(): Promise<number> {
  const tags = new Set<string>();
  for (const p of processTable()) if (p.tag && !ownerAlive(p.tag)) tags.add(p.tag);
  let killed = 0;
  for (const tag of tags) killed += await killAttemptProcesses(tag);
  sweepEmptyCgroups((tag) => !ownerAlive(tag));
  return killed;
}
