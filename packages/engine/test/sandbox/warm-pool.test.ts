import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RemoteChild } from '../../src/sandbox/launcher-client.ts';
import { type RunnerShape, WARM_POOL_MAX, WarmPool } from '../../src/sandbox/warm-pool.ts';

/** A runner process as the launcher shows it, without a process behind it. */
class FakeChild extends EventEmitter {
  pid: number;
  connected = true;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  killed: NodeJS.Signals | null = null;

  constructor(pid: number) {
    super();
    this.pid = pid;
  }

  kill(signal: NodeJS.Signals = 'SIGTERM') {
    this.killed = signal;
    this.die();
  }

  die() {
    this.connected = false;
    this.signalCode = 'SIGKILL';
    this.emit('exit', null, 'SIGKILL');
  }
}

function pool(idleMs?: number) {
  const forked: { child: FakeChild; shape: RunnerShape; tag: string }[] = [];
  const warm = new WarmPool((shape, tag) => {
    const child = new FakeChild(1000 + forked.length);
    forked.push({ child, shape, tag });
    return { child: child as unknown as RemoteChild, user: null, lease: null };
  }, idleMs);
  return { warm, forked };
}

const shape = (memoryMb = 256, env: NodeJS.ProcessEnv = { PATH: '/bin' }, runnersModule?: string): RunnerShape => ({ memoryMb, env, runnersModule, runAs: null });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the warm pool (warm-pool.ts)', () => {
  it('forks nothing until asked to refill, then hands each waiting process out once', () => {
    const { warm, forked } = pool();
    expect(warm.take(shape(), 1)).toBeNull();
    expect(forked).toHaveLength(0);
    warm.refill(shape(), 1);
    expect(forked).toHaveLength(1);
    expect(forked[0]!.tag).toMatch(new RegExp(`^${process.pid}\\.\\d+\\.warm-[0-9a-f]{16}$`));
    const taken = warm.take(shape(), 1)!;
    expect(taken.child).toBe(forked[0]!.child);
    expect(taken.tag).toBe(forked[0]!.tag);
    expect(warm.take(shape(), 1)).toBeNull();
    warm.drain();
  });

  it('notes when a waiting process is ready, and keeps at most WARM_POOL_MAX whatever it is asked', () => {
    const { warm, forked } = pool();
    warm.refill(shape(), 10);
    expect(forked).toHaveLength(WARM_POOL_MAX);
    forked[0]!.child.emit('message', { type: 'ready' });
    expect(warm.take(shape(), 10)!.readyAt).toBeGreaterThan(0);
    expect(warm.take(shape(), 10)!.readyAt).toBeNull();
    warm.drain();
  });

  it('gives nothing to a request of another shape, and ends the waiting processes of the old shape at the refill', () => {
    const { warm, forked } = pool();
    warm.refill(shape(256, { PATH: '/bin', LANG: 'C' }), 1);
    for (const other of [shape(512, { PATH: '/bin', LANG: 'C' }), shape(256, { PATH: '/usr/bin', LANG: 'C' }), shape(256, { PATH: '/bin' }), shape(256, { PATH: '/bin', LANG: 'C' }, '/x/runners.ts')]) {
      expect(warm.take(other, 1)).toBeNull();
    }
    // The same variables in another order are the same shape.
    expect(warm.take(shape(256, { LANG: 'C', PATH: '/bin' }), 1)).not.toBeNull();
    warm.refill(shape(256), 1);
    warm.refill(shape(512), 1);
    expect(forked[1]!.child.killed).toBe('SIGKILL');
    expect(warm.size).toBe(1);
    expect(forked[2]!.shape.memoryMb).toBe(512);
    // Size 0 (the pool turned off) empties it.
    warm.refill(shape(512), 0);
    expect(warm.size).toBe(0);
    expect(forked[2]!.child.killed).toBe('SIGKILL');
  });

  it('drops a waiting process that died and never hands it out; the next refill replaces it', () => {
    const { warm, forked } = pool();
    warm.refill(shape(), 1);
    forked[0]!.child.die();
    expect(warm.size).toBe(0);
    expect(warm.take(shape(), 1)).toBeNull();
    warm.refill(shape(), 1);
    expect(forked).toHaveLength(2);
    // Disconnected but not yet seen exiting: not handed out either.
    forked[1]!.child.connected = false;
    expect(warm.take(shape(), 1)).toBeNull();
    warm.drain();
  });

  it('empties itself after its idle time with no attempt started or ended, and not before', async () => {
    const { warm, forked } = pool(300);
    warm.refill(shape(), 1);
    await pause(200);
    // An attempt of another shape starts: the pool is in use, its idle time starts again.
    expect(warm.take(shape(999), 1)).toBeNull();
    await pause(200);
    expect(warm.size).toBe(1);
    await pause(300);
    expect(warm.size).toBe(0);
    expect(forked[0]!.child.killed).toBe('SIGKILL');
  });

  describe('at rest (fake clock)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('keeps its processes while an attempt runs, however long, and empties itself its idle time after the last one ends', () => {
      vi.useFakeTimers();
      const { warm, forked } = pool(1_000);
      const first = warm.attemptStarted();
      const second = warm.attemptStarted();
      warm.refill(shape(), 1);
      vi.advanceTimersByTime(10_000);
      expect(warm.size).toBe(1);
      first();
      // Said twice, an end counts once: the second attempt still runs.
      first();
      vi.advanceTimersByTime(10_000);
      expect(warm.size).toBe(1);
      second();
      vi.advanceTimersByTime(999);
      expect(warm.size).toBe(1);
      vi.advanceTimersByTime(1);
      expect(warm.size).toBe(0);
      expect(forked[0]!.child.killed).toBe('SIGKILL');
    });

    it('by default, holds no process 20 s after the last attempt ended (bench:rest measures a server 30 s after work)', () => {
      vi.useFakeTimers();
      const { warm } = pool();
      const ended = warm.attemptStarted();
      warm.refill(shape(), 1);
      ended();
      vi.advanceTimersByTime(20_000);
      expect(warm.size).toBe(0);
    });
  });
});
