import { attemptProcesses, childrenIndex, type ProcessInfo, processTable, readSmall, readStat, readTag, residentBytes } from './process-table.ts';

/**
 * More new task ids than this since the last poll and a full scan of /proc is cheaper than reading each one.
 * A poll reads ~16 µs per new id (its status), a full scan ~10 µs per process of the machine.
 */
const MAX_IDS_READ = 256;
/** Polls a process that has not exec'd yet is looked at again for, before it is taken for one that never will. */
const MAX_PENDING_POLLS = 20;

/**
 * The processes of the watched attempts, kept from one poll of the memory monitor to the next. A full scan of
 * /proc (processTable: every process's stat, each new one's environment) cost the monitor ~10 µs per process of
 * the machine at every poll; this reads only what can have changed:
 *
 * - new processes: pids (and thread ids) are handed out in increasing order, wrapping at pid_max, and
 *   /proc/loadavg names the last one given. So every process started since the last poll has an id in between:
 *   each is read (threads skipped), and it joins an attempt when it carries the attempt's tag or its parent is
 *   one of the attempt's processes, exactly as in attemptProcesses. Reparenting to init changes nothing for a
 *   process already known, and one orphaned before it was seen is found by its tag, as a full scan would;
 * - known processes: one whose pid was handed out again since the last poll is read again (a different start
 *   time: it left); one whose memory (read at every poll anyway) can no longer be read is gone;
 * - a process seen between its fork and its exec shows its parent's environment (for a runner process, the
 *   launcher's, without the tag). One that joined no attempt and still has its parent's environment area is
 *   looked at again at the next polls, and read as new once it has exec'd.
 *
 * A full scan is still made when an attempt starts being watched (its runner process may be older than the
 * watch: a pre-forked one), when the range of new ids is not known or too large, and after a pause.
 */
export class AttemptTracker {
  /** Per watched tag, its processes: pid → start time. */
  private readonly members = new Map<string, Map<number, string>>();
  /** The last id handed out at the previous poll; null when the next poll must scan everything. */
  private lastId: number | null = null;
  /** Processes not yet exec'd that joined no attempt: pid → when they were seen, and how many polls ago. */
  private readonly pending = new Map<number, { startTime: string; envArea: string; polls: number }>();
  /** Full scans of /proc made so far (tests, benches). */
  fullScans = 0;

  watch(tag: string): void {
    if (this.members.has(tag)) return;
    this.members.set(tag, new Map());
    this.lastId = null;
  }

  unwatch(tag: string): void {
    this.members.delete(tag);
  }

  /** Forgets where the ids were: after a pause, the next poll scans everything. */
  pause(): void {
    this.lastId = null;
  }

  /**
   * Each watched attempt's processes now, with their resident memory (VmRSS, bytes): one read per process says
   * both, and a process whose memory can no longer be read is gone and leaves its attempt.
   */
  poll(): Map<string, Map<number, number>> {
    const lastId = lastAllocatedId();
    const range = this.lastId === null || lastId === null ? null : idsBetween(this.lastId, lastId);
    if (range && range.count <= MAX_IDS_READ) this.readNew(range);
    else this.scanAll();
    this.lastId = lastId;
    const resident = new Map<number, number | null>();
    const answer = new Map<string, Map<number, number>>();
    for (const [tag, pids] of this.members) {
      const used = new Map<number, number>();
      for (const pid of pids.keys()) {
        if (!resident.has(pid)) resident.set(pid, residentBytes(pid));
        const bytes = resident.get(pid);
        if (bytes === null || bytes === undefined) pids.delete(pid);
        else used.set(pid, bytes);
      }
      answer.set(tag, used);
    }
    return answer;
  }

  private scanAll(): void {
    this.fullScans++;
    const table = processTable();
    const children = childrenIndex(table);
    const joined = new Set<number>();
    for (const [tag, pids] of this.members) {
      pids.clear();
      for (const p of attemptProcesses(table, tag, children)) {
        pids.set(p.pid, p.startTime);
        joined.add(p.pid);
      }
    }
    this.pending.clear();
    const byPid = new Map(table.map((p) => [p.pid, p]));
    for (const p of table) if (!joined.has(p.pid)) this.maybePending(p, byPid.get(p.ppid)?.envArea);
  }

  private readNew(range: IdRange): void {
    // A known pid inside the range may name another process now: kept only with the same start time.
    for (const pids of this.members.values()) {
      for (const [pid, startTime] of pids) {
        if (range.has(pid) && readStat(pid)?.startTime !== startTime) pids.delete(pid);
      }
    }
    const started: ProcessInfo[] = [];
    // Those seen before their exec: read as new once they have exec'd (or given up on).
    for (const [pid, seen] of this.pending) {
      const stat = readStat(pid);
      if (!stat || stat.startTime !== seen.startTime || ++seen.polls > MAX_PENDING_POLLS) this.pending.delete(pid);
      else if (stat.envArea !== seen.envArea) {
        this.pending.delete(pid);
        started.push({ pid, ...stat, tag: readTag(pid) });
      }
    }
    for (const id of range.ids()) {
      if (!isProcess(id)) continue;
      const stat = readStat(id);
      if (!stat) continue;
      started.push({ pid: id, ...stat, tag: readTag(id) });
    }
    if (started.length === 0) return;
    const joined = new Set<number>();
    for (const [tag, pids] of this.members) {
      for (const p of started) if (p.tag === tag) pids.set(p.pid, p.startTime);
      // A child may come before its parent in the range (ids wrap): join until nothing more joins.
      for (let more = true; more; ) {
        more = false;
        for (const p of started) {
          if (!pids.has(p.pid) && pids.has(p.ppid)) {
            pids.set(p.pid, p.startTime);
            more = true;
          }
        }
      }
      for (const p of started) if (pids.has(p.pid)) joined.add(p.pid);
    }
    for (const p of started) if (!joined.has(p.pid)) this.maybePending(p, readStat(p.ppid)?.envArea);
  }

  /**
   * An untagged process with its parent's environment area may not have exec'd yet: looked at again later.
   * (Kernel threads and other users' processes show no area: 0-0.)
   */
  private maybePending(p: ProcessInfo, parentEnvArea: string | undefined): void {
    if (p.tag === null && p.envArea !== '0-0' && parentEnvArea === p.envArea) this.pending.set(p.pid, { startTime: p.startTime, envArea: p.envArea, polls: 0 });
  }
}

interface IdRange {
  count: number;
  has(id: number): boolean;
  ids(): Iterable<number>;
}

let pidMax: number | undefined;

/** The most recently handed-out pid or thread id of this pid namespace: /proc/loadavg's fifth field. */
function lastAllocatedId(): number | null {
  const last = Number(readSmall('/proc/loadavg')?.trim().split(/\s+/)[4]);
  return Number.isInteger(last) && last > 0 ? last : null;
}

/** The ids handed out after `from` up to `to`, wrapping at pid_max; null when a lap cannot be told apart. */
function idsBetween(from: number, to: number): IdRange | null {
  pidMax ??= Number(readSmall('/proc/sys/kernel/pid_max')?.trim()) || 32_768;
  const max = pidMax;
  const count = (to - from + max) % max;
  if (count >= max / 2) return null;
  const has = to >= from ? (id: number) => id > from && id <= to : (id: number) => id > from || id <= to;
  return {
    count,
    has,
    *ids() {
      for (let i = 1; i <= count; i++) {
        const id = ((from + i - 1) % max) + 1;
        if (has(id)) yield id;
      }
    },
  };
}

/** Whether a task id names a live process (a thread group's leader), not one of its threads. */
function isProcess(id: number): boolean {
  const tgid = /^Tgid:\s+(\d+)$/m.exec(readSmall(`/proc/${id}/status`) ?? '')?.[1];
  return tgid !== undefined && Number(tgid) === id;
}
