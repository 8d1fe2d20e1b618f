import { chromiumSandboxSupport, type RunnerUser } from '@fullstop/engine/sandbox';
import { describe, expect, it } from 'vitest';
import { runnerIsolation } from './isolation.ts';

describe('runnerIsolation', () => {
  it('says nothing for a process that runs no tests', () => {
    expect(runnerIsolation({ runnerUser: null }, 0)).toBeNull();
  });

  it('names the runner user, or null for the server’s own, with Chromium’s sandbox and why it is off', () => {
    const own = chromiumSandboxSupport(null);
    expect(runnerIsolation({ runnerUser: null }, 2)).toEqual({ runnerUser: null, chromiumSandbox: own.ok, reason: own.ok ? null : own.reason });
    // Root is never a runner user (resolveRunnerUser refuses it), but the answer for uid 0 needs no kernel to try.
    const root: RunnerUser = { name: 'root-like', uid: 0, gid: 0, home: '/' };
    expect(runnerIsolation({ runnerUser: root }, 1)).toEqual({
      runnerUser: 'root-like',
      chromiumSandbox: false,
      reason: 'runner processes run as root, where Chromium cannot sandbox itself',
    });
  });
});
