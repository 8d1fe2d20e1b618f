import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { attemptProcesses, killAttemptProcesses, processTable, residentBytes, sweepOrphanedAttempts } from './process-table.ts';
import { MEMORY_POLL_MS, type MonitorMessage, type MonitorRequest } from './memory-monitor.ts';

/**
 * The monitor's thread: it reads /proc for every watched attempt of its process, and finds and kills the
 * processes of attempts that ended. Reading another process's /proc files (its environment above all) can wait
 * on that process's memory map lock (a browser mapping hundreds of MB), so this is done here, where waiting
 * blocks nobody, rather than on the event loop that answers clients.
 */
const watched = new Map<string, number>();

/** PSS: a page shared by n processes counts 1/n in each, so a tree's sum counts Chromium's libraries once. */
function pssBytes(pid: number): number {
  try {
    const kb = /^Pss:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // Older kernel, or gone: VmRSS.
  }
  return residentBytes(pid);
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

parentPort!.on('message', (request: MonitorRequest) => {
  if (request.type === 'watch') watched.set(request.tag, request.limitBytes);
  else if (request.type === 'unwatch') watched.delete(request.tag);
  else {
    const { id, tag } = request;
    void (tag ? killAttemptProcesses(tag) : sweepOrphanedAttempts())
      .catch(() => 0)
      .then((count) => parentPort!.postMessage({ type: 'killed', id, count } satisfies MonitorMessage));
  }
});

setInterval(() => {
  if (watched.size === 0) return;
  const table = processTable();
  for (const [tag, limitBytes] of watched) {
    const pids = attemptProcesses(table, tag).map((p) => p.pid);
    // VmRSS is never less than PSS: only a tree over the limit in VmRSS needs the costlier PSS read.
    let used = sum(pids.map(residentBytes));
    if (used > limitBytes) used = sum(pids.map(pssBytes));
    parentPort!.postMessage({ type: 'sample', tag, usedBytes: used } satisfies MonitorMessage);
  }
}, MEMORY_POLL_MS);
