/**
 * The memory monitor's poll as it was before attempt-tracker.ts (issue 22), for the baseline of monitor.ts: every
 * 500 ms a full scan of /proc (every process's stat, each new one's environment), then each attempt's tree and
 * its processes' VmRSS.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { attemptProcesses, processTable, residentBytes } from '../../packages/engine/src/sandbox/process-table.ts';

const tags = workerData as string[];
setInterval(() => {
  const table = processTable();
  for (const tag of tags) {
    const used = attemptProcesses(table, tag).reduce((sum, p) => sum + (residentBytes(p.pid) ?? 0), 0);
    parentPort!.postMessage({ tag, used });
  }
}, 500);
