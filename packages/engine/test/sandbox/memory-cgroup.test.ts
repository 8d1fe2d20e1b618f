import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createMemoryCgroup } from '../../src/sandbox/memory-cgroup.ts';

const MB = 1024 * 1024;
const probe = createMemoryCgroup(`probe-${process.pid}`, 512 * MB);
probe?.remove();

// The kernel's ceiling needs a writable memory cgroup (root, or a delegated v2 subtree); elsewhere the memory
// monitor alone holds the limit (runner-sandbox tests), and there is nothing here to test.
describe.skipIf(!probe)('the kernel memory ceiling of an attempt (memory cgroup)', () => {
  it('ends a process that allocates past the ceiling faster than any poll, counts the kill, and is removed after', async () => {
    const cgroup = createMemoryCgroup(`test-${process.pid}-${Date.now()}`, 200 * MB)!;
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
    const cgroup = createMemoryCgroup(`test-ok-${process.pid}-${Date.now()}`, 200 * MB)!;
    const child = spawn(process.execPath, ['-e', 'const b = Buffer.alloc(50 << 20, 1); setTimeout(() => process.exit(b.length > 0 ? 0 : 1), 300);'], { stdio: 'ignore' });
    child.on('error', () => {});
    expect(cgroup.add(child.pid!)).toBe(true);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(cgroup.oomKills()).toBe(0);
    cgroup.remove();
  }, 30_000);
});
