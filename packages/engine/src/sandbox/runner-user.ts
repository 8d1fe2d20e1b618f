/**
 * The OS user runner processes (and the browsers and tools they start) run as: not the server's, so code that
 * takes a runner over cannot read the server's files (DATA_DIR/server-key) nor its /proc (environ, memory), which
 * the kernel lets only the same user (or root) read (docs/decisions/0077). The launcher switches to it when it
 * forks a runner; only root can, and root's capabilities are all dropped by the kernel in that switch.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, closeSync, fchmodSync, fchownSync, fstatSync, lchownSync, lstatSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OPEN_UNFOLLOWED } from '../lib/attempt-file.ts';

export interface RunnerUser {
  name: string;
  uid: number;
  gid: number;
  /** Its home folder from the user database (HOME of its processes). */
  home: string;
}

/** Capabilities a switch to another user and the cleanup of its processes need (linux/capability.h). */
const NEEDED_CAPABILITIES: Record<string, number> = { CAP_CHOWN: 0, CAP_KILL: 5, CAP_SETGID: 6, CAP_SETUID: 7 };

/** Why this process cannot run runners as another user (null: it can): it must be root with the capabilities above. */
export function runnerUserBlocker(): string | null {
  if (process.geteuid?.() !== 0) return `the server runs as uid ${process.geteuid?.() ?? '?'}, and only root can start processes as another user`;
  let effective: bigint;
  try {
    effective = BigInt(`0x${/^CapEff:\s*([0-9a-f]+)$/m.exec(readFileSync('/proc/self/status', 'latin1'))?.[1] ?? '0'}`);
  } catch {
    return 'no /proc/self/status to read the capabilities from';
  }
  const missing = Object.entries(NEEDED_CAPABILITIES).filter(([, bit]) => (effective & (1n << BigInt(bit))) === 0n).map(([name]) => name);
  return missing.length ? `the server lacks ${missing.join(', ')}` : null;
}

/** The user database's entry for `name` (NSS through getent, else /etc/passwd); null when there is none. */
function passwdEntry(name: string): string | null {
  try {
    return execFileSync('getent', ['passwd', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch (error) {
    // getent answers 2 for "no such user"; without getent, read the file.
    if ((error as { status?: number }).status === 2) return null;
    return readFileSync('/etc/passwd', 'utf8').split('\n').find((line) => line.split(':')[0] === name) ?? null;
  }
}

/**
 * The runner user named `name`, checked for use: it exists, it is not root, and this process can switch to it.
 * Throws an Error saying what is wrong, in words that name the setting (`setting`).
 */
export function resolveRunnerUser(name: string, setting = 'ENGINE_RUNNER_USER'): RunnerUser {
  const entry = passwdEntry(name);
  if (!entry) throw new Error(`${setting}: there is no user "${name}" (create it: useradd --system --no-create-home --shell /usr/sbin/nologin ${name})`);
  const [, , uid, gid, , home] = entry.split(':');
  const user: RunnerUser = { name, uid: Number(uid), gid: Number(gid), home: home || '/' };
  if (user.uid === 0 || user.gid === 0) throw new Error(`${setting}: "${name}" is root (uid or gid 0); runners need an unprivileged user`);
  if (user.uid === process.geteuid?.()) throw new Error(`${setting}: "${name}" is the server's own user`);
  const blocker = runnerUserBlocker();
  if (blocker) throw new Error(`${setting}: runners cannot run as "${name}": ${blocker}`);
  return user;
}

/** The variables that say who a process is: the runner user's, not the server's. */
export function runnerUserEnv(user: RunnerUser): NodeJS.ProcessEnv {
  return { HOME: user.home, USER: user.name, LOGNAME: user.name };
}

/**
 * The folders every user may write in: what a runner user leaves there (a tool's temporary files, a browser profile
 * of a killed Chromium with the client's cookies) would be readable by the next attempt that runs as that user.
 */
export const SHARED_TEMP_DIRS: readonly string[] = ['/tmp', '/var/tmp', '/dev/shm', '/run/lock'];

/**
 * Removes what `uid` owns at the top of the shared temporary folders (a runner user can create nothing deeper
 * there but in folders of its own). Called once the user has no process left: nothing can write as it meanwhile.
 * Links are removed themselves, never followed. Answers how many entries went.
 */
export function removeFilesOf(uid: number, dirs: readonly string[] = SHARED_TEMP_DIRS): number {
  let removed = 0;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const at = path.join(dir, name);
      try {
        if (lstatSync(at).uid !== uid) continue;
        rmSync(at, { recursive: true, force: true });
        removed++;
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return removed;
}

/** Runner processes' temporary folders not removed yet: this process removes them as it exits. */
const liveTempFolders = new Set<string>();
let removeAtExit = false;

/**
 * A temporary folder of one runner process and what it starts (its TMPDIR): the user's own, 0700, removed when the
 * process ends (or this one exits). The tools' temporary files (sqlmap's, Playwright's artifacts, browser profiles)
 * go there rather than among every user's in /tmp.
 */
export function privateTempFolder(user: RunnerUser): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'fullstop-runner-tmp-'));
  chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
  liveTempFolders.add(dir);
  if (!removeAtExit) {
    removeAtExit = true;
    process.once('exit', () => {
      for (const left of liveTempFolders) rmSync(left, { recursive: true, force: true });
    });
  }
  return {
    dir,
    remove: () => {
      liveTempFolders.delete(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Makes `p` and everything below it `user`'s. Links are changed themselves (lchown), never what they point to,
 * nor followed: a link planted in a folder cannot hand the runner a file of the server's.
 */
export function giveTree(p: string, user: RunnerUser): void {
  const stat = lstatSync(p);
  if (stat.uid !== user.uid || stat.gid !== user.gid) lchownSync(p, user.uid, user.gid);
  if (stat.isDirectory()) for (const entry of readdirSync(p)) giveTree(path.join(p, entry), user);
}

/**
 * Gives the runner user the attempt's folder: everything in it becomes its own (the server, root, still reads,
 * moves and deletes it), and each folder above it gets the search bit for others if it lacked it, so the runner
 * can reach it by name without listing anything (DATA_DIR stays unlistable; server-key stays 0600).
 */
export function giveRunFolder(runDir: string, user: RunnerUser): void {
  giveTree(runDir, user);
  searchableAbove(runDir);
}


/**
 * Takes an attempt's folder back from its runner user once the attempt's processes are all dead (issue 37):
 * everything in it becomes `owner`'s (this process's user) again, closed to group and others (a folder 0700, a file
 * its owner's bits only, set-id bits dropped), so no later runner (another user, or the same one leased again for
 * another client) can read its traces and screenshots. Top-down through descriptors opened without following
 * links: a folder is closed before anything in it is touched, so a process still holding a folder below (a shared
 * runner user's, never a pool's: those are all killed first) cannot swap an entry for a link to a server file in
 * between. A link is lchown'ed, never followed nor chmod'ed; a file with other hard links (linked in from elsewhere)
 * is left as it is, unreachable in its closed folder. Answers how many entries were changed.
 */
export function takeBackTree(p: string, owner: { uid: number; gid: number } = { uid: process.geteuid?.() ?? 0, gid: process.getegid?.() ?? 0 }): number {
  let fd: number;
  try {
    fd = openSync(p, OPEN_UNFOLLOWED);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A link (ELOOP) or a socket (ENXIO): its owner only.
    if (code === 'ELOOP' || code === 'ENXIO') {
      try {
        const stat = lstatSync(p);
        if (stat.uid !== owner.uid || stat.gid !== owner.gid) {
          lchownSync(p, owner.uid, owner.gid);
          return 1;
        }
      } catch {
        // Gone.
      }
    }
    return 0;
  }
  let changed = 0;
  let folder = false;
  try {
    const stat = fstatSync(fd);
    folder = stat.isDirectory();
    if (!folder && stat.nlink > 1) return 0;
    const mode = folder ? 0o700 : stat.mode & 0o700;
    if (stat.uid !== owner.uid || stat.gid !== owner.gid) fchownSync(fd, owner.uid, owner.gid);
    if ((stat.mode & 0o7777) !== mode) fchmodSync(fd, mode);
    if (stat.uid !== owner.uid || stat.gid !== owner.gid || (stat.mode & 0o7777) !== mode) changed++;
  } finally {
    closeSync(fd);
  }
  // Closed now: what its path names inside can no longer be changed by the runner user.
  if (folder) for (const entry of readdirSync(p)) changed += takeBackTree(path.join(p, entry), owner);
  return changed;
}

/** Adds the search bit for others to each folder above `p` that lacks it: reachable by name, still not listable. */
export function searchableAbove(p: string): void {
  for (let dir = path.dirname(path.resolve(p)); ; dir = path.dirname(dir)) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, (mode & 0o7777) | 0o001);
    if (dir === path.dirname(dir)) break;
  }
}

/** Whether Chromium's own sandbox can run as this user, and if not why; one answer per user and process. */
export interface ChromiumSandboxSupport {
  ok: boolean;
  reason: string;
}

const sandboxSupport = new Map<number, ChromiumSandboxSupport>();

/**
 * Chromium's namespace sandbox needs a user that is not root (Chromium refuses to sandbox as root) and a kernel
 * that lets that user make user, PID and network namespaces (a container's seccomp profile or systemd's
 * RestrictNamespaces= may forbid them): tried once with unshare(1) as that user.
 */
export function chromiumSandboxSupport(user: RunnerUser | null): ChromiumSandboxSupport {
  const uid = user?.uid ?? process.geteuid?.() ?? -1;
  const known = sandboxSupport.get(uid);
  if (known) return known;
  let answer: ChromiumSandboxSupport;
  if (uid === 0) answer = { ok: false, reason: 'runner processes run as root, where Chromium cannot sandbox itself' };
  else {
    const tried = spawnSync('unshare', ['--user', '--pid', '--net', '--fork', 'true'], {
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      timeout: 5_000,
    });
    answer = tried.status === 0
      ? { ok: true, reason: 'user, PID and network namespaces are available' }
      : { ok: false, reason: `the kernel refuses user namespaces here (${(tried.error?.message ?? tried.stderr?.trim()) || `unshare exit ${tried.status}`})` };
  }
  sandboxSupport.set(uid, answer);
  return answer;
}
