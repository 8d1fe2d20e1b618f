import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createAttemptCgroup } from '../../src/sandbox/attempt-cgroup.ts';
import { readStat, selfIdentity, sweepOrphanedAttempts } from '../../src/sandbox/process-table.ts';
import { alive, sleepers, uniqueSleep, until } from './fixtures/processes.ts';

const MB = 1024 * 1024;
const probe = createAttemptCgroup(`probe-${process.pid}`, { memoryBytes: 512 * MB, cpu: 'background' });
probe?.remove();

// The kernel's ceiling needs a writable memory cgroup (root, or a delegated v2 subtree); elsewhere the memory
// monitor alone holds the limit (runner-sandbox tests), and there is nothing here to test.
describe.skipIf(!probe?.memory)('the kernel memory ceiling of an attempt (memory cgroup)', () => {
  it('ends a process that allocates past the ceiling faster than any poll, counts the kill, and is removed after', async () => {
    const cgroup = createAttemptCgroup(`test-${process.pid}-${Date.now()}`, { memoryBytes: 200 * MB, cpu: 'background' })!;
    expect(cgroup).not.toBeNull();
    const child = spawn(process.execPath, ['-e', 'const k = []; setInterval(() => k.push(Buffer.alloc(32 << 20, 1)), 5);'], { stdio: 'ignore' });
    child.on('error', () => {});
    expect(cgroup.add(child.pid!)).toBe(true);
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
    expect(cgroup.oomKills()).toBe(1);
    cgroup.remove();
    // Removed: a second cgroup of the same name can be made again.
  }, 30_000);

  it('leaves a process under the ceiling alone', async () => {
    const cgroup = createAttemptCgroup(`test-ok-${process.pid}-${Date.now()}`, { memoryBytes: 200 * MB, cpu: 'background' })!;
    const child = spawn(process.execPath, ['-e', 'const b = Buffer.alloc(50 << 20, 1); setTimeout(() => process.exit(b.length > 0 ? 0 : 1), 300);'], { stdio: 'ignore' });
    child.on('error', () => {});
    expect(cgroup.add(child.pid!)).toBe(true);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(cgroup.oomKills()).toBe(0);
    cgroup.remove();
  }, 30_000);
});

/** CPU-seconds a process has used (user + system, /proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

// Needs a writable CPU controller (root, or a delegated v2 subtree): elsewhere the runner's nice value is all there is.
describe.skipIf(!probe?.cpu)("an attempt's share of the CPU (cpu cgroup)", () => {
  it('gives a measured attempt the core before a background one, even when each is a session of its own (as a browser is)', async () => {
    // Two busy processes on one core, each started detached (its own session, so its own autogroup, where a nice
    // value would not count against the other): only their cgroups' shares order them.
    const busy = (tag: string, cpu: 'measured' | 'background') => {
      const cgroup = createAttemptCgroup(`test-cpu-${tag}-${process.pid}-${Date.now()}`, { memoryBytes: 512 * MB, cpu })!;
      const child = spawn('taskset', ['-c', '0', process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore', detached: true });
      child.on('error', () => {});
      expect(cgroup.add(child.pid!)).toBe(true);
      return { child, cgroup };
    };
    const measured = busy('measured', 'measured');
    const background = busy('background', 'background');
    try {
      await sleep(300);
      const start = [cpuSeconds(measured.child.pid!), cpuSeconds(background.child.pid!)];
      await sleep(2_000);
      const used = [cpuSeconds(measured.child.pid!) - start[0]!, cpuSeconds(background.child.pid!) - start[1]!];
      // 512 against 110: about 4.7 to 1 on a quiet core. Twice is the floor on a busy machine, equal without the shares.
      expect(used[0]).toBeGreaterThan(2 * used[1]!);
    } finally {
      for (const p of [measured, background]) {
        p.child.kill('SIGKILL');
        await once(p.child, 'exit').catch(() => {});
        p.cgroup.remove();
      }
    }
  }, 30_000);
});

/**
 * A process in the attempt's cgroups that left its tree: `setsid` of a child whose parent then exits, reparented to
 * init, with no tag. Started waiting on its stdin, so it is in the cgroup before it forks.
 */
async function escapedInto(cgroup: NonNullable<ReturnType<typeof createAttemptCgroup>>, arg: string) {
  const parent = spawn('sh', ['-c', `read go; setsid sleep ${arg} & exit 0`], { stdio: ['pipe', 'ignore', 'ignore'] });
  parent.on('error', () => {});
  expect(cgroup.add(parent.pid!)).toBe(true);
  parent.stdin!.end('go\n');
  await once(parent, 'exit');
  await until('the escaped sleep', () => sleepers(arg).length === 1, 10_000);
  const [pid] = sleepers(arg);
  expect(readStat(pid!)?.ppid).not.toBe(parent.pid);
  return pid!;
}

// Killing what an attempt leaves needs a cgroup of its own (root, or a delegated v2 subtree): elsewhere the runner is a
// subreaper (supervisor.test.ts "without cgroups").
describe.skipIf(!probe)("the end of an attempt's cgroups (issue 37)", () => {
  it('kills every process in them, one that left the tree included, and can be removed after', async () => {
    const cgroup = createAttemptCgroup(`test-kill-${process.pid}-${Date.now()}`, { memoryBytes: 512 * MB, cpu: 'background' })!;
    const arg = uniqueSleep();
    const pid = await escapedInto(cgroup, arg);
    const killed = await cgroup.killAll();
    expect(killed).toEqual([pid]);
    expect(sleepers(arg)).toEqual([]);
    cgroup.remove();
    // Nothing is left to kill a second time.
    expect(await cgroup.killAll()).toEqual([]);
  }, 30_000);

  it('spares `except`, and a process that keeps forking is killed in rounds', async () => {
    const cgroup = createAttemptCgroup(`test-fork-${process.pid}-${Date.now()}`, { memoryBytes: 512 * MB, cpu: 'background' })!;
    const keep = spawn('sleep', ['60'], { stdio: 'ignore' });
    keep.on('error', () => {});
    const forker = spawn('sh', ['-c', 'read go; while :; do sleep 60 & sleep 0.01; done'], { stdio: ['pipe', 'ignore', 'ignore'] });
    forker.on('error', () => {});
    expect(cgroup.add(keep.pid!) && cgroup.add(forker.pid!)).toBe(true);
    forker.stdin!.end('go\n');
    await sleep(200);
    const killed = await cgroup.killAll({ except: keep.pid! });
    expect(killed.length).toBeGreaterThan(1);
    expect(killed).not.toContain(keep.pid);
    expect(alive(keep.pid!)).toBe(true);
    expect(alive(forker.pid!)).toBe(false);
    keep.kill('SIGKILL');
    await once(keep, 'exit').catch(() => {});
    cgroup.remove();
  }, 30_000);

  it('the orphan sweep kills what is left in the cgroups of an attempt whose owner died, never a live owner’s', async () => {
    // A dead owner: a process that has exited (its pid and start time no longer name a process).
    const gone = spawn('true');
    await once(gone, 'exit');
    const deadTag = `${gone.pid}.1.orphan-${process.pid}`;
    const liveTag = `${selfIdentity()}.live-${process.pid}`;
    const orphan = createAttemptCgroup(deadTag, { memoryBytes: 512 * MB, cpu: 'background' })!;
    const live = createAttemptCgroup(liveTag, { memoryBytes: 512 * MB, cpu: 'background' })!;
    const [orphanArg, liveArg] = [uniqueSleep(), uniqueSleep()];
    await escapedInto(orphan, orphanArg);
    const livePid = await escapedInto(live, liveArg);
    await sweepOrphanedAttempts();
    expect(sleepers(orphanArg)).toEqual([]);
    expect(sleepers(liveArg)).toEqual([livePid]);
    // The orphan's cgroups are gone too: one of the same name can be made again.
    const again = createAttemptCgroup(deadTag, { memoryBytes: 512 * MB, cpu: 'background' });
    expect(again).not.toBeNull();
    again?.remove();
    await live.killAll();
    live.remove();
  }, 30_000);
});
