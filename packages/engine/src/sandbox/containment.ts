/**
 * How this process makes sure an attempt ends whole (issue 37): that no process it started outlives it, however it
 * left the attempt's tree (`env -i setsid sleep 300 &`: no tag, a session of its own, reparented to init).
 *
 * - **cgroup**: every process the runner starts inherits the attempt's cgroups (attempt-cgroup.ts); at the end
 *   everything in them is killed.
 * - **subreaper**, where no cgroup can be made: the runner process is started through a tiny Python wrapper that
 *   makes it a child subreaper (prctl(PR_SET_CHILD_SUBREAPER), kept across the exec of node), so an orphan of its
 *   tree is reparented to the runner, not to init, and stays one of its descendants; the runner kills its
 *   descendants before it exits, and the supervisor kills them before it kills the runner. A runner killed by a
 *   process of its own attempt (same user) still lets what it held reach init. The wrapper costs ~70 ms of fork to
 *   ready (312 → 382 ms, medians on 2 loaded cores: bench/engine/attempt-isolation.ts), hidden by the warm pool;
 *   python3 is tried once per process (a blocking ~100 ms), at the first fork without a cgroup.
 * - **tags** only, where neither is possible (no python3): the attempt's tagged processes and their descendants.
 *
 * Independently of these, a runner user leased from a pool (runner-pool.ts) has every process it still has killed
 * before it is leased again.
 */
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { attemptCgroupsAvailable } from './attempt-cgroup.ts';
import { SUBREAPER_SCRIPT } from './launcher-protocol.ts';

export type AttemptEnd = 'cgroup' | 'subreaper' | 'tags';

export { SUBREAPER_VAR } from './protocol.ts';

/** Where python3 is looked for: the system's own (a shim on PATH, pyenv's, costs a shell per fork). */
const PYTHONS = ['/usr/bin/python3', '/usr/local/bin/python3', '/bin/python3'];

let subreaper: string | null | undefined;
let forced: { cgroup?: boolean; subreaper?: boolean } = {};

/** The python3 that can wrap a runner as a subreaper (tried once), or null. */
export function subreaperPython(): string | null {
  if (forced.subreaper === false) return null;
  if (subreaper !== undefined) return subreaper;
  subreaper = null;
  for (const python of PYTHONS) {
    try {
      accessSync(python, constants.X_OK);
    } catch {
      continue;
    }
    const tried = spawnSync(python, ['-I', '-S', '-c', SUBREAPER_SCRIPT, '/bin/true'], { stdio: 'ignore', timeout: 10_000 });
    if (tried.status === 0) subreaper = python;
    break;
  }
  return subreaper;
}

/** Whether attempts get cgroups of their own here. */
export const cgroupsInUse = (): boolean => forced.cgroup ?? attemptCgroupsAvailable();

/** How attempts are ended whole in this process (see above). */
export function attemptEnd(): AttemptEnd {
  if (cgroupsInUse()) return 'cgroup';
  return subreaperPython() ? 'subreaper' : 'tags';
}

/** Tests: behave as if this process could (or could not) make cgroups, or wrap a runner as a subreaper; {} restores the truth. */
export function forceContainmentForTests(options: { cgroup?: boolean; subreaper?: boolean }): void {
  forced = options;
}
