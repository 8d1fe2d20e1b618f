/**
 * A network namespace whose only way out is the policy proxy (issue 37).
 *
 * Clients' code (a browser test's Playwright specs, a mobile UI test's WebdriverIO specs, wapiti) and the Chromium
 * our own runners drive used to share the runner's network: `fetch('http://127.0.0.1:<api port>/healthz')` from a
 * spec answered, and so did the database, Redis and the cloud's metadata address. The policy proxy guards what goes
 * through it, not what a process opens itself. A jailed command runs in user, network, PID and mount namespaces of
 * its own (its uid mapped to itself) where the only interface is loopback; a forwarder inside (socat) listens on
 * 127.0.0.1:<port> and carries each connection to the policy proxy's Unix socket, a file outside: the filesystem is
 * shared, the network is not. Nothing else leaves the namespace: no route, no DNS server (a name resolves only
 * through the proxy), no 169.254.169.254, no abstract Unix socket of the host's; and /run (/var/run) is an empty
 * tmpfs there, so the sockets of the host's daemons (PostgreSQL's `/run/postgresql/.s.PGSQL.5432`, which Debian's
 * `local ... trust` or `peer` would answer, MariaDB's, Redis's, D-Bus's, Docker's) are not found either. The tmpfs
 * cannot be unmounted from inside, not even from a user namespace the jailed code makes (the kernel locks mounts
 * inherited into a less privileged namespace). Still reachable: other files, /tmp included (a socket a daemon keeps
 * there), as for the runner itself.
 *
 * The user namespace also shields the processes outside it, the runner's own included: the kernel's ptrace check
 * (/proc/<pid>/mem, environ, fd) asks for the same user namespace or CAP_SYS_PTRACE over the target's, so jailed code
 * cannot reach into the runner (which has the network) even with the same uid, nor into another attempt's processes.
 *
 * The wrapper:
 *
 *   unshare --user --map-current-user --keep-caps --net --pid --mount --fork --kill-child
 *     /bin/sh -c '<init>' fullstop-net-jail <command> <args...>
 *
 * where the init (this file's `initScript`), PID 1 of the new PID namespace, mounts the tmpfs over /run and a /proc
 * of the namespace's own (decision 0110: the host's /proc showed every process of the machine), starts one
 * socat per forward (its stdio on /dev/null and fds 3-9 closed, so that it holds none of the caller's pipes), brings
 * lo up, waits until each forwarder listens (read from /proc/net/tcp, which is the namespace's own), then runs the
 * command under `setpriv` with every capability dropped (inheritable, ambient and bounding: root in the namespace
 * gets none back at exec but CAP_SETFCAP, see `boundingSet`), in the foreground, and exits with its status.
 * Capabilities in the jail's user namespace reach nothing outside it.
 *
 * Why a shell as PID 1 rather than the command itself (both were tried; Chromium starts fine as PID 1, with and
 * without its own sandbox): the kernel delivers to a namespace's PID 1 only the signals it has a handler for. Node
 * and Python have none for SIGTERM (measured: a jailed `node` ignored the group's SIGTERM), so `runChild`'s SIGTERM
 * to the process group was ignored and every stop became the SIGKILL 3 s later. With the shell as PID 1 (no trap:
 * it ignores them), the command is an ordinary process of the group and gets SIGTERM as it did unjailed; orphans
 * (Chromium's crashpad handler) are reaped by the shell. The command runs in the foreground, not as `cmd &`: an asynchronous list gets /dev/null as its stdin and
 * SIGINT and SIGQUIT ignored. Its status comes back as the shell's exit code (a command killed by a signal: 128+n,
 * not a signal). The extra process costs ~0.2 MB.
 *
 * Nothing of the jail outlives the command: when it ends, the init exits, and the kernel kills everything left in
 * the PID namespace (the forwarders, a `setsid sleep 1000 &` of the client's) with SIGKILL. When `unshare` itself is
 * killed (Playwright's or `runChild`'s SIGKILL to the group), `--kill-child` has the kernel SIGKILL the init, and the
 * namespace goes the same way. `unshare` blocks SIGTERM and SIGINT while it waits, so a SIGTERM to the group reaches
 * the command (and the forwarders), never only the wrapper.
 *
 * Stdio and every other descriptor the caller passes (Playwright's pipes to Chromium on fds 3 and 4, a Node IPC
 * channel) go through unshare, sh and setpriv untouched.
 *
 * Cost, measured with `node bench/engine/net-jail.ts` on the 2-core machine of decision 0050 while other sessions
 * loaded it (load average 5-17; medians of 7-9 in three runs, jailed and unjailed taking turns): a launch of
 * `/bin/true` through `runChild` 21-28 ms unjailed, 65-77 ms jailed without a forwarder, 94-159 ms jailed with the
 * proxy's forwarder (70-75 CPU-ms more): each exec costs 10-25 ms there (unshare, sh, mount, ip, socat, setpriv), and
 * socat's start with the wait for it is the largest share (forwarders on loopback start before `ip`, so the two
 * overlap). A new connection through the forwarder adds 12-20 ms (socat forks per connection; Chromium keeps its
 * connections to the proxy). Chromium's launch, one page and close: 2.5-4.4 s either way (+50-300 ms, +60-140 CPU-ms
 * jailed). A browser test attempt (the engine's fixture suite, 4 cases, its page checks' Chromium too): 17-22 s
 * either way, the difference within the run-to-run noise (about 0.2-0.3 s expected: the probe, one jail for
 * `playwright test`, one per Chromium the runner starts). The probe (`netJailSupport`) is one such launch, 98-162 ms
 * (85-95 CPU-ms), once per process and user. Memory: unshare 0.3 MB, the init 0.2 MB, each socat 1.5 MB (PSS).
 *
 * A runner that drives a jailed program over TCP gets a way in (`JailInward` + `startPortForward`): the runner listens
 * on 127.0.0.1:P, each connection goes to a Unix socket that a forwarder inside listens on, and on to 127.0.0.1:P
 * inside, where the program listens (same number: every port is free in a fresh namespace). Firefox driven by our
 * runners (WebDriver BiDi, lib/guarded-browser.ts) is jailed that way.
 *
 * WebKit (lib/webkit.ts: the runner drives WebKitWebDriver over HTTP) and Lighthouse's Chromium (its DevTools port)
 * take the same way in. Firefox inside a browser test's `playwright test` is jailed with it (its driver is inside too).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import { chmod, lstat, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, connect, createServer, isIP, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { RunnerUser } from './runner-user.ts';

/** One way out of the namespace: a listener inside at `address`:`port` whose connections go to `socket` outside. */
export interface JailForward {
  /** The address the forwarder listens on inside (127.0.0.1 unless given; another address is added to lo). */
  address?: string;
  port: number;
  /** A Unix socket outside the namespace (the policy proxy's `socketPath`, or a `startSocketForward`). */
  socket: string;
}

/**
 * One way in: a Unix socket outside (in a private folder) that a forwarder inside listens on, whose connections reach
 * 127.0.0.1:`port` inside: for a runner that drives a jailed browser over TCP (Firefox's WebDriver BiDi port), with
 * `startPortForward` on its side.
 */
export interface JailInward {
  socket: string;
  port: number;
}

/** The ways out of a jail: the policy proxy at `proxyPort` inside, and/or explicit forwards; and its ways in. */
export type NetJail = ({ proxySocket: string; proxyPort: number; forwards?: JailForward[] } | { forwards: JailForward[] }) & { inward?: JailInward[] };

export type NetJailSupport = { ok: true } | { ok: false; reason: string };

/** The policy proxy's port inside a jail (squid's): any port would do, the namespace has nothing else. */
export const JAIL_PROXY_PORT = 3128;

/** Where the tools are looked for first, whatever the runner's PATH (ip lives in /usr/sbin, which users' PATHs may lack). */
const SYSTEM_DIRS = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const TOOL_NAMES = ['unshare', 'ip', 'socat', 'setpriv', 'sleep', 'mount'] as const;
type Tools = Record<(typeof TOOL_NAMES)[number], string> & { sh: string };

/** Install hints for a missing tool (Debian package names). */
const PACKAGE_OF: Record<string, string> = { unshare: 'util-linux', setpriv: 'util-linux', mount: 'mount', ip: 'iproute2', socat: 'socat', sleep: 'coreutils' };

let tools: Tools | string | undefined;

/** The tools' absolute paths, or what is missing. */
function jailTools(): Tools | string {
  if (tools !== undefined) return tools;
  const dirs = [...SYSTEM_DIRS, ...(process.env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d))];
  const found: Partial<Tools> = { sh: '/bin/sh' };
  const missing: string[] = [];
  for (const name of TOOL_NAMES) {
    const file = dirs.map((d) => path.join(d, name)).find((f) => {
      try {
        accessSync(f, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
    if (file) found[name] = file;
    else missing.push(`${name} (apt-get install ${PACKAGE_OF[name]})`);
  }
  tools = missing.length ? `missing ${missing.join(', ')}` : (found as Tools);
  return tools;
}

/** A word for sh, quoted. */
/** `s` as one word of a POSIX shell command line. */
export const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** socat reads `:` `,` `!` and spaces in an address as syntax: a socket path is refused unless plain. */
const PLAIN_PATH = /^\/[\w./+-]+$/;

function forwardsOf(jail: NetJail): JailForward[] {
  const proxy = 'proxySocket' in jail ? [{ port: jail.proxyPort, socket: jail.proxySocket }] : [];
  return [...proxy, ...(jail.forwards ?? [])];
}

/** `port` as /proc/net/tcp writes it: four upper-case hex digits. */
const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');

/**
 * The capabilities the command keeps in its bounding set: none, except for a root runner CAP_SETFCAP (in the jail's
 * own user namespace only), without which a browser's own sandbox cannot map root into the namespace it makes for
 * its content processes (Firefox's: Linux 5.12+ asks CAP_SETFCAP of whoever maps uid 0). Root regains at exec what
 * its bounding set holds; an unprivileged user maps its own uid without any.
 */
const boundingSet = (uid: number) => (uid === 0 ? '-all,+setfcap' : '-all');

/** The init of the namespace (PID 1): see the comment at the top. `$@` is the command and its arguments. */
function initScript(t: Tools, forwards: JailForward[], inward: JailInward[], uid: number, hidden: string[]): string {
  // Unix sockets are files, and the filesystem is shared: an empty tmpfs over /run hides the host's daemons' sockets
  // there (PostgreSQL's, MariaDB's, Redis's, D-Bus's, Docker's). Not fatal: a kernel that refuses it leaves them.
  const hide = hidden.map((dir) => `${shellQuote(t.mount)} -t tmpfs -o mode=0755,nosuid,nodev,noexec,size=64k fullstop-net-jail ${shellQuote(dir)} 2>/dev/null`);
  // A /proc of the PID namespace's own (with the mount namespace, where the hidden folders made one): the processes
  // outside, the runner's and the attempt's browser host's, are not found there (their numbers, command lines). `-n`:
  // mount writes nothing under the empty /run. Not fatal either: a kernel that refuses it leaves the host's /proc.
  if (hidden.length > 0) hide.push(`${shellQuote(t.mount)} -n -t proc -o nosuid,nodev,noexec fullstop-net-jail /proc 2>/dev/null`);
  const up = [`${shellQuote(t.ip)} link set lo up || { echo 'net jail: loopback would not come up' >&2; exit 125; }`];
  // Forwarders on loopback start first: they bind while lo is still down, so their start overlaps ip's.
  const early: string[] = [];
  const late: string[] = [];
  /** Listeners awaited, per table and port: two addresses may share a port (an endpoint's IPv4 and IPv6 ones). */
  const awaited = new Map<string, number>();
  for (const f of forwards) {
    const address = f.address ?? '127.0.0.1';
    const family = isIP(address);
    if (family === 0) throw new Error(`net jail: ${JSON.stringify(address)} is not an IP address`);
    if (!Number.isInteger(f.port) || f.port < 1 || f.port > 65535) throw new Error(`net jail: ${f.port} is not a port`);
    if (!PLAIN_PATH.test(f.socket)) throw new Error(`net jail: the socket path ${JSON.stringify(f.socket)} has characters socat would misread`);
    const loopback = family === 4 ? address.startsWith('127.') : address === '::1';
    // A pinned address of an Appium endpoint, say: the namespace's lo answers for it, and only there.
    if (!loopback) up.push(`${shellQuote(t.ip)} ${family === 6 ? '-6 ' : ''}addr add ${address}/${family === 6 ? '128 dev lo nodad' : '32 dev lo'} || exit 125`);
    const listen = family === 6 ? `TCP6-LISTEN:${f.port},bind=[${address}]` : `TCP4-LISTEN:${f.port},bind=${address}`;
    (loopback ? early : late).push(`${shellQuote(t.socat)} ${shellQuote(`${listen},fork,reuseaddr`)} ${shellQuote(`UNIX-CONNECT:${f.socket}`)} </dev/null >/dev/null 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &`);
    const key = `/proc/net/tcp${family === 6 ? '6' : ''} ${hexPort(f.port)}`;
    awaited.set(key, (awaited.get(key) ?? 0) + 1);
  }
  for (const w of inward) {
    if (!Number.isInteger(w.port) || w.port < 1 || w.port > 65535) throw new Error(`net jail: ${w.port} is not a port`);
    if (!PLAIN_PATH.test(w.socket)) throw new Error(`net jail: the socket path ${JSON.stringify(w.socket)} has characters socat would misread`);
    early.push(`${shellQuote(t.socat)} ${shellQuote(`UNIX-LISTEN:${w.socket},fork,unlink-early`)} ${shellQuote(`TCP4:127.0.0.1:${w.port}`)} </dev/null >/dev/null 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &`);
  }
  const lines = [...hide, ...early, ...up, ...late];
  const sockets = inward.map((w) => `[ -S ${shellQuote(w.socket)} ]`);
  if (awaited.size || sockets.length) {
    // Listening: as many lines of the namespace's own table (/proc/net is the reader's network namespace's) with the
    // port in their local address and the state 0A (LISTEN) as forwarders on it. One that failed never listens: the
    // count of tries ends the wait.
    lines.push('listening() { c=0; while read -r _ addr _ st _; do case "$addr $st" in *":$2 0A") c=$((c+1));; esac; done < "$1"; [ "$c" -ge "$3" ]; }');
    const waits = [...[...awaited].map(([key, count]) => `listening ${key} ${count}`), ...sockets].join(' && ');
    lines.push(`n=0; until ${waits}; do n=$((n+1)); [ "$n" -lt 1000 ] || { echo 'net jail: the forwarders did not listen' >&2; exit 125; }; ${shellQuote(t.sleep)} 0.01; done`);
  }
  // In the foreground, not the last command (sh would exec it and make it PID 1): see the comment at the top.
  lines.push(`${shellQuote(t.setpriv)} --inh-caps=-all --ambient-caps=-all --bounding-set=${boundingSet(uid)} -- "$@"`, 'exit "$?"');
  return lines.join('\n');
}

/** Folders hidden under an empty tmpfs in a jail: /run, and /var/run where it is not a link to /run. */
const HIDDEN_DIRS = (() => {
  try {
    return realpathSync('/var/run') === '/run' ? ['/run'] : ['/run', '/var/run'];
  } catch {
    return ['/run'];
  }
})();

/** Where the jailed command needs a path (its own, an argument, a socket, its folder): none of HIDDEN_DIRS hides it. */
const hiddenFor = (paths: (string | undefined)[]) =>
  HIDDEN_DIRS.filter((dir) => !paths.some((p) => p !== undefined && (p === dir || p.startsWith(`${dir}/`) || p.includes(`=${dir}/`))));

/**
 * `command args` wrapped to run in a fresh user + network + PID + mount namespace whose only ways out are `jail`'s
 * forwards (the policy proxy at 127.0.0.1:`proxyPort`). `cwd` and `env`, where given, are the child's: a folder it
 * needs under /run is not hidden. Throws when the tools are missing (ask `netJailSupport` first).
 */
export function jailedCommand(command: string, args: string[], jail: NetJail, child: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): { command: string; args: string[] } {
  const env = child.env ?? process.env;
  const paths = [command, ...args, ...forwardsOf(jail).map((f) => f.socket), ...(jail.inward ?? []).map((w) => w.socket), child.cwd ?? process.cwd(), env.TMPDIR, env.HOME, os.tmpdir()];
  return wrap(command, args, jail, process.geteuid?.() ?? -1, hiddenFor(paths));
}

/** `jailedCommand` for a process that will run as `uid`, with `hidden` under an empty tmpfs. */
function wrap(command: string, args: string[], jail: NetJail, uid: number, hidden: string[]): { command: string; args: string[] } {
  const t = jailTools();
  if (typeof t === 'string') throw new Error(`net jail: ${t}`);
  const mountNs = hidden.length ? ['--mount'] : [];
  return {
    command: t.unshare,
    args: ['--user', '--map-current-user', '--keep-caps', '--net', '--pid', ...mountNs, '--fork', '--kill-child', t.sh, '-c', initScript(t, forwardsOf(jail), jail.inward ?? [], uid, hidden), 'fullstop-net-jail', command, ...args],
  };
}

/**
 * An executable file that runs `command` (with the arguments it is given) in a jail: for a launcher that takes one
 * executable path (Playwright's `executablePath`). Written into `dir`, a private folder of this process's (0700).
 * `replaceArg`: an argument the launcher passes that is replaced on the way (Firefox's `--remote-debugging-port=0`
 * by the port its way in listens on).
 */
export async function writeJailedExecutable(dir: string, name: string, command: string, jail: NetJail, replaceArg?: [string, string]): Promise<string> {
  const wrapped = jailedCommand(command, [], jail);
  const file = path.join(dir, name);
  const replace = replaceArg ? `for a do shift; [ "$a" = ${shellQuote(replaceArg[0])} ] && a=${shellQuote(replaceArg[1])}; set -- "$@" "$a"; done\n` : '';
  await writeFile(file, `#!/bin/sh\n${replace}exec ${[wrapped.command, ...wrapped.args].map(shellQuote).join(' ')} "$@"\n`, { mode: 0o700 });
  await chmod(file, 0o700);
  return file;
}

const support = new Map<number, NetJailSupport>();

/**
 * Whether `user` (null: this process's own user) can run a jailed command here, and if not why; tried once per
 * process and user with the very wrapper `jailedCommand` builds (one forwarder on a privileged port, as a mobile UI
 * test's endpoint may need), run as that user. A kernel or container that refuses user namespaces (Docker's default
 * seccomp profile, systemd's RestrictNamespaces= without `user net pid`), a missing tool: the runners run unjailed
 * as before.
 */
export function netJailSupport(user: RunnerUser | null): NetJailSupport {
  const uid = user?.uid ?? process.geteuid?.() ?? -1;
  const known = support.get(uid);
  if (known) return known;
  let answer: NetJailSupport;
  const t = jailTools();
  if (process.platform !== 'linux') answer = { ok: false, reason: 'network namespaces need Linux' };
  else if (typeof t === 'string') answer = { ok: false, reason: t };
  else {
    const probe = wrap('/bin/true', [], { forwards: [{ port: 80, socket: '/nonexistent/fullstop-net-jail.sock' }] }, uid, HIDDEN_DIRS);
    const tried = spawnSync(probe.command, probe.args, {
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      cwd: '/',
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      timeout: 10_000,
    });
    answer =
      tried.status === 0
        ? { ok: true }
        : { ok: false, reason: `the kernel or a tool refuses the network namespace here (${(tried.error?.message ?? tried.stderr?.trim().split('\n').slice(-2).join(' ')) || `exit ${tried.status ?? tried.signal}`})` };
  }
  support.set(uid, answer);
  return answer;
}

let offForTests = false;

/** Tests only: runs client code unjailed, to prove a test of the jail can fail. Nothing in production calls it. */
export function setNetJailOffForTests(off: boolean): void {
  offForTests = off;
}

/** Whether this process jails the code it starts: the namespace works for its user (and a test did not turn it off). */
export function netJailOn(): boolean {
  if (offForTests) return false;
  // The supervisor probed for this runner's user before the fork (supervisor.ts); a runner started otherwise probes.
  const told = process.env[NET_JAIL_VAR];
  return told === '1' || (told !== '0' && netJailSupport(null).ok);
}

/** Set by the supervisor in a runner process's environment: '1' when its user can run jailed commands, '0' when not. */
export const NET_JAIL_VAR = 'FULLSTOP_NET_JAIL';

const SOCKET_DIR_PREFIXES = ['fullstop-proxy-', 'fullstop-forward-'];
let swept = false;

/**
 * The socket folders a process of this user left behind when it was killed before it closed them (an attempt's
 * time limit ends its runner with SIGKILL): those whose socket no longer answers (nothing listens) and that are a
 * minute old, or that never got one and are an hour old. A folder in use always answers. Once per process, in the
 * background; errors are ignored.
 */
export async function sweepStaleSocketDirs(root: string): Promise<void> {
  const uid = process.geteuid?.();
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (!SOCKET_DIR_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    const dir = path.join(root, name);
    const info = await lstat(dir).catch(() => null);
    if (!info?.isDirectory() || info.uid !== uid) continue;
    const socket = (await readdir(dir).catch(() => [] as string[])).find((f) => f.endsWith('.sock'));
    const stale = socket
      ? await new Promise<boolean>((resolve) => {
          const probe = connect(path.join(dir, socket));
          probe.once('connect', () => (probe.destroy(), resolve(false)));
          // Refused: nothing listens (or, for an instant, a socket bound and not yet listening: hence the age).
          probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' && Date.now() - info.mtimeMs > 60_000));
        })
      : Date.now() - info.mtimeMs > 3_600_000;
    if (stale) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** A folder of this process's own (0700) for Unix sockets: short enough for a socket path (108 bytes), plain for socat. */
export async function privateSocketDir(prefix: string): Promise<string> {
  const base = os.tmpdir();
  const root = base.length <= 60 && PLAIN_PATH.test(base) ? base : '/tmp';
  if (!swept) {
    swept = true;
    void sweepStaleSocketDirs(root).catch(() => undefined);
  }
  return mkdtemp(path.join(root, prefix));
}

/** A Unix socket whose every connection is piped to `host`:`port` (an address the target policy already judged). */
export interface SocketForward {
  socketPath: string;
  close(): Promise<void>;
}

/**
 * A server whose every connection is relayed to a new one (`connectTo`), half-open on both sides as TCP is: an end is
 * passed on (pipe), never turned into a close that would drop what the other way still carries; an error ends both.
 * Every socket has its `error` listener from birth. `destroyAll` ends the connections still open.
 */
function relayServer(connectTo: () => Socket): { server: Server; destroyAll(): void } {
  const open = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (accepted) => {
    const relayed = connectTo();
    const fail = () => (accepted.destroy(), relayed.destroy());
    accepted.on('error', fail);
    relayed.on('error', fail);
    for (const s of [accepted, relayed]) {
      open.add(s);
      s.once('close', () => open.delete(s));
    }
    accepted.pipe(relayed);
    relayed.pipe(accepted);
  });
  server.on('error', () => undefined);
  return { server, destroyAll: () => open.forEach((s) => s.destroy()) };
}

/**
 * For a jailed child that must reach one judged address directly (a mobile UI spec's Appium endpoint): a Unix socket
 * in a private folder whose connections this process carries to `host`:`port`, and nowhere else. Every socket has its
 * `error` listener from birth.
 */
export async function startSocketForward(host: string, port: number): Promise<SocketForward> {
  const dir = await privateSocketDir('fullstop-forward-');
  const socketPath = path.join(dir, 'forward.sock');
  const { server, destroyAll } = relayServer(() => connect({ host, port, allowHalfOpen: true }));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    socketPath,
    async close() {
      destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP port on 127.0.0.1 of this process's network whose connections go to a Unix socket: a jail's way in. */
export interface PortForward {
  port: number;
  close(): Promise<void>;
}

/**
 * The runner's end of a jail's way in (`JailInward`): 127.0.0.1:<port> here, each connection carried to `socketPath`,
 * which the jail's forwarder listens on (and connects on to the same port inside). Half-open like TCP; every socket
 * has its `error` listener from birth.
 */
export async function startPortForward(socketPath: string): Promise<PortForward> {
  const { server, destroyAll } = relayServer(() => connect({ path: socketPath, allowHalfOpen: true }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        destroyAll();
        server.close(() => resolve());
      }),
  };
}
