import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { LAUNCHER_IDLE_MS, launch, launcherPid, type RemoteChild } from '../../src/sandbox/launcher-client.ts';
import { alive } from './fixtures/processes.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'launcher-idle-'));
/** A runner process that only waits, and leaves when its channel closes. */
const entry = path.join(dir, 'waits.mjs');
writeFileSync(entry, "process.on('disconnect', () => process.exit(0));\nsetInterval(() => {}, 60_000);\n");

const start = async (): Promise<RemoteChild> => {
  const child = launch({ entry, args: [], cwd: dir, env: { PATH: process.env.PATH ?? '' }, execArgv: [], niceness: 0 });
  await once(child, 'spawn');
  return child;
};

const end = async (child: RemoteChild) => {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
};

/** Until the process is gone: the test's own time limit bounds it. */
const gone = async (pid: number) => {
  while (alive(pid)) await new Promise((r) => setImmediate(r));
};

describe('the launcher at rest (launcher-client.ts, fake clock)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('stays while a runner process lives, leaves LAUNCHER_IDLE_MS after the last one ended, and starts again for the next', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const first = await start();
    const second = await start();
    const pid = launcherPid()!;
    expect(alive(pid)).toBe(true);
    vi.advanceTimersByTime(LAUNCHER_IDLE_MS * 10);
    await end(first);
    // One runner process is left: nothing to count yet.
    vi.advanceTimersByTime(LAUNCHER_IDLE_MS * 10);
    expect(launcherPid()).toBe(pid);
    await end(second);
    vi.advanceTimersByTime(LAUNCHER_IDLE_MS - 1);
    expect(launcherPid()).toBe(pid);
    vi.advanceTimersByTime(1);
    expect(launcherPid()).toBeNull();
    await gone(pid);

    const next = await start();
    expect(launcherPid()).not.toBe(pid);
    expect(alive(next.pid)).toBe(true);
    await end(next);
    vi.advanceTimersByTime(LAUNCHER_IDLE_MS);
    expect(launcherPid()).toBeNull();
  });
});
