import { spawn } from 'node:child_process';
import { RunAbortedError } from '../errors.ts';
import { childEnv } from '../sandbox/child-env.ts';
import { jailedCommand, type NetJail } from '../sandbox/net-jail.ts';

/** Time a child gets to exit after SIGTERM before it is killed outright. */
export const CHILD_KILL_GRACE_MS = 3_000;
/** Output kept in memory per stream; the rest goes only to the log callback. */
const MAX_CAPTURE_CHARS = 1_000_000;

export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface ChildOptions {
  cwd: string;
  /** The child's whole environment; by default the allow-list of sandbox/child-env.ts, never this process's own. */
  env?: NodeJS.ProcessEnv;
  signal: AbortSignal;
  timeoutMs: number;
  onOutput?: (chunk: string) => void;
  /**
   * Runs the command in a network namespace whose only ways out are the jail's forwards (the policy proxy):
   * sandbox/net-jail.ts. Given only where `netJailOn()` says the namespace works; null or unset: unjailed.
   */
  jail?: NetJail | null;
}

/**
 * Runs a command in its own process group, so that an abort or a time limit kills it and everything it started
 * (Playwright's workers, Chromium). Rejects with RunAbortedError on abort; a time limit resolves with timedOut.
 * Jailed, the group's SIGTERM reaches the command as before (the jail's init ignores it), and when the command ends
 * the kernel kills whatever it left in its PID namespace; a command killed by a signal then reports 128 + its number.
 */
export function runChild(command: string, args: string[], options: ChildOptions): Promise<ChildResult> {
  if (options.signal.aborted) return Promise.reject(new RunAbortedError());
  let spawned: { command: string; args: string[] };
  try {
    spawned = options.jail ? jailedCommand(command, args, options.jail, { cwd: options.cwd, env: options.env ?? childEnv() }) : { command, args };
  } catch (error) {
    return Promise.reject(error as Error);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(spawned.command, spawned.args, {
      cwd: options.cwd,
      env: options.env ?? childEnv(),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;

    const killGroup = (sig: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        // Already gone.
      }
    };
    const stop = () => {
      killGroup('SIGTERM');
      killTimer ??= setTimeout(() => killGroup('SIGKILL'), CHILD_KILL_GRACE_MS);
    };
    const onAbort = () => {
      aborted = true;
      stop();
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    const limit = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);

    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_CAPTURE_CHARS) stdout += chunk;
      options.onOutput?.(chunk);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < MAX_CAPTURE_CHARS) stderr += chunk;
      options.onOutput?.(chunk);
    });
    child.on('error', (error) => {
      clearTimeout(limit);
      options.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(limit);
      // Children of the group may outlive the leader: make sure none is left behind.
      killGroup('SIGKILL');
      if (killTimer) clearTimeout(killTimer);
      options.signal.removeEventListener('abort', onAbort);
      if (aborted) reject(new RunAbortedError());
      else resolve({ code, stdout, stderr, timedOut });
    });
  });
}
