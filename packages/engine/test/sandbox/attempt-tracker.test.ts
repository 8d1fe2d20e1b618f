import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { AttemptTracker } from '../../src/sandbox/attempt-tracker.ts';
import { attemptProcesses, attemptTag, processTable } from '../../src/sandbox/process-table.ts';

const started: ChildProcess[] = [];
const sleepers = new Set<string>();

/** A shell carrying `tag` that starts what `script` says, the way runners start tools (and then waits). */
function tagged(tag: string, script: string): ChildProcess {
  const child = spawn('sh', ['-c', `${script}\nwait`], { stdio: 'ignore', env: { PATH: process.env.PATH, FULLSTOP_ATTEMPT: tag } });
  child.on('error', () => {});
  started.push(child);
  return child;
}

const fullScan = (tag: string) => attemptProcesses(processTable(), tag).map((p) => p.pid).sort((a, b) => a - b);
const tracked = (tracker: AttemptTracker, tag: string) => [...(tracker.poll().get(tag)?.keys() ?? [])].sort((a, b) => a - b);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (on a loaded machine a shell may take a while to start its children). */
async function until(check: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !check() && Date.now() < end; ) await pause(20);
}

afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  // The orphans (reparented to init) carry the tag of their test: kill them by it.
  for (const key of [...sleepers]) for (const p of processTable().filter((p) => p.tag?.includes(key))) process.kill(p.pid, 'SIGKILL');
  sleepers.clear();
});

describe('the attempts’ processes between full scans (attempt-tracker.ts)', () => {
  it('finds what an attempt starts after the first poll as a full scan would: children, untagged ones, orphans', async () => {
    const key = `tracker-${process.pid}-${Date.now()}`;
    // A real owner (this process): another process's orphan sweep must not take these for a dead server's.
    const tag = attemptTag(key);
    sleepers.add(key);
    const tracker = new AttemptTracker();
    tracker.watch(tag);
    expect(tracked(tracker, tag)).toEqual([]);
    // Started after the first poll: only the ids handed out since can show them.
    tagged(
      tag,
      [
        'sleep 30 &', // a tagged child
        'env -u FULLSTOP_ATTEMPT sleep 31 &', // an untagged child (a zygote rewrites its environment): by its parent
        '(sleep 32 &)', // orphaned at once, reparented to init: by its tag
        '(env -u FULLSTOP_ATTEMPT sleep 33 &)', // orphaned and untagged: lost to a full scan too
      ].join('\n'),
    );
    // Four, and still four a moment later: a subshell that starts an orphan lives a moment as a fifth (a loaded machine).
    let steady = 0;
    await until(() => (steady = fullScan(tag).length === 4 ? steady + 1 : 0) >= 3);
    const found = tracked(tracker, tag);
    expect(found).toEqual(fullScan(tag));
    // The shell, its two children and the tagged orphan.
    expect(found).toHaveLength(4);
    expect(tracker.fullScans).toBe(1);
  });

  it('finds a process first seen between its fork and its exec, once it has exec’d with the tag', async () => {
    const key = `tracker-c-${process.pid}-${Date.now()}`;
    const tag = attemptTag(key);
    sleepers.add(key);
    const tracker = new AttemptTracker();
    tracker.watch(tag);
    tracker.poll();
    // A subshell is a fork that has not exec'd (its parent's environment, untagged) until it execs the tagged
    // sleep: what a runner process is between the launcher's fork and its exec, only longer.
    const parent = spawn('sh', ['-c', `(sleep 0.8; exec env FULLSTOP_ATTEMPT=${tag} sleep 30) &\nwait`], { stdio: 'ignore', env: { PATH: process.env.PATH } });
    parent.on('error', () => {});
    started.push(parent);
    await pause(300);
    expect(tracked(tracker, tag)).toEqual([]);
    // This process's own table read it untagged too, and must not keep that.
    expect(fullScan(tag)).toEqual([]);
    await until(() => fullScan(tag).length === 1);
    expect(fullScan(tag)).toHaveLength(1);
    expect(tracked(tracker, tag)).toEqual(fullScan(tag));
    expect(tracker.fullScans).toBe(1);
  });

  it('drops what exited, keeps following an attempt as it goes on, and ignores other attempts and threads', async () => {
    const key = `tracker-b-${process.pid}-${Date.now()}`;
    const tag = attemptTag(key);
    sleepers.add(key);
    const tracker = new AttemptTracker();
    tracker.watch(tag);
    const shell = tagged(tag, 'sleep 30 & sleep 0.2 &');
    // Another attempt's processes, and a process with threads (this test's own node runs a few).
    tagged(`${tag}other`, 'sleep 30 &');
    await until(() => fullScan(tag).length === 3);
    expect(tracked(tracker, tag)).toHaveLength(3);
    await until(() => fullScan(tag).length === 2);
    // The short sleep is gone, and the tree below the shell keeps growing.
    spawn('true').on('error', () => {});
    const found = tracked(tracker, tag);
    expect(found).toEqual(fullScan(tag));
    expect(found).toContain(shell.pid);
    expect(found).toHaveLength(2);
    shell.kill('SIGKILL');
    await pause(200);
    expect(tracked(tracker, tag)).toEqual(fullScan(tag));
    tracker.unwatch(tag);
    expect(tracker.poll().has(tag)).toBe(false);
  });
});
