import { attemptEnd, chromiumSandboxSupport, netJailSupport, type RunnerUser } from '@fullstop/engine/sandbox';
import { describe, expect, it } from 'vitest';
import { runnerIsolation } from './isolation.ts';

describe('runnerIsolation', () => {
  it('says nothing for a process that runs no tests', () => {
    expect(runnerIsolation({ runAs: null }, 0)).toBeNull();
  });

  it('names the runner user, or null for the server’s own, with Chromium’s sandbox and why it is off, how a test ends whole and its network', () => {
    const own = chromiumSandboxSupport(null);
    const net = netJailSupport(null);
    expect(runnerIsolation({ runAs: null }, 2)).toEqual({
      runnerUser: null,
      chromiumSandbox: own.ok,
      reason: own.ok ? null : own.reason,
      runnerUsers: { mode: 'server', names: [], problem: null },
      // No pool here: the cgroups, a subreaper or the tags, whichever this machine allows.
      attemptEnd: { how: attemptEnd() },
      networkNamespace: net.ok ? { ok: true, reason: null } : { ok: false, reason: net.reason },
    });
    // Root is never a runner user (resolveRunnerUser refuses it), but the answer for uid 0 needs no kernel to try.
    const root: RunnerUser = { name: 'root-like', uid: 0, gid: 0, home: '/' };
    expect(runnerIsolation({ runAs: root }, 1)).toMatchObject({
      runnerUser: 'root-like',
      chromiumSandbox: false,
      reason: 'runner processes run as root, where Chromium cannot sandbox itself',
      runnerUsers: { mode: 'shared', names: ['root-like'], problem: null },
    });
  });
});
