/**
 * WebKit, from Debian's `webkit2gtk-driver` (decision 0079): WebKitWebDriver, a classic W3C WebDriver server, starts
 * WebKitGTK's MiniBrowser in automation mode, in an X server of the run's own (Xvfb, its display chosen by Xvfb
 * with `-displayfd`: no fixed number, no clash between attempts). Playwright cannot drive it; lib/webdriver.ts does.
 * Every request goes through the policy proxy (the session's `proxy` capability; loopback included).
 *
 * The display answers only clients holding its cookie (issue 37): a random MIT-MAGIC-COOKIE-1 of its own, in an
 * Xauthority file (0600) in the run's home, given to Xvfb with `-auth` and to the driver (so MiniBrowser) with
 * XAUTHORITY. Without it any local process (another attempt's included) could screenshot or type into the browser.
 *
 * Processes: Xvfb and the driver each start detached, in a process group of their own, with the attempt's tag in
 * their environment; MiniBrowser and WebKit's helper processes (web, network, GPU) start below the driver, in its
 * group. `close()` ends the session, then kills both groups (TERM, then KILL after a grace); the sandbox's sweeper
 * finds any that escaped by the tag.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PNG } from 'pngjs';
import { RunAbortedError } from '../errors.ts';
import { startPolicyProxy, type PolicyProxy } from '../policy/policy-proxy.ts';
import type { Network } from '../policy/network-profiles.ts';
import type { TargetGuard } from '../policy/target-guard.ts';
import { childEnv } from '../sandbox/child-env.ts';
import { JAIL_PROXY_PORT, jailedCommand, netJailOn, type PortForward, startPortForward } from '../sandbox/net-jail.ts';
import type { RunContext } from '../types.ts';
import { CHILD_KILL_GRACE_MS } from './child-process.ts';
import { freePort } from './free-port.ts';
import { waitForDriver, WebDriverSession } from './webdriver.ts';

export const DEFAULT_WEBKIT_DRIVER_PATH = '/usr/bin/WebKitWebDriver';
export const DEFAULT_XVFB_PATH = '/usr/bin/Xvfb';
export const WEBKIT_INSTALL = 'apt-get install -y webkit2gtk-driver xvfb';

/** Where Debian (and others) put WebKitGTK's MiniBrowser: below the multiarch library folder, per API version. */
function miniBrowserCandidates(): string[] {
  const libs: string[] = [];
  try {
    for (const entry of readdirSync('/usr/lib')) if (/-linux-gnu[a-z]*$/.test(entry)) libs.push(path.join('/usr/lib', entry));
  } catch {
    // No /usr/lib: nothing to find.
  }
  return [...libs, '/usr/lib', '/usr/libexec'].flatMap((dir) => ['webkit2gtk-4.1', 'webkitgtk-6.0', 'webkit2gtk-4.0'].map((api) => path.join(dir, api, 'MiniBrowser')));
}

/** The MiniBrowser this machine has (the first found), else where Debian amd64 puts it (to name in "not installed at"). */
export function defaultMiniBrowserPath(): string {
  const candidates = miniBrowserCandidates();
  return candidates.find((file) => existsSync(file)) ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
}

export interface WebKitPaths {
  driver: string;
  miniBrowser: string;
  xvfb: string;
}

/** The programs a run's WebKit needs, from the run context (tests and workers may point elsewhere) or Debian's places. */
export function webkitPaths(p: { webkitDriverPath?: string | undefined; miniBrowserPath?: string | undefined; xvfbPath?: string | undefined }): WebKitPaths {
  return { driver: p.webkitDriverPath ?? DEFAULT_WEBKIT_DRIVER_PATH, miniBrowser: p.miniBrowserPath ?? defaultMiniBrowserPath(), xvfb: p.xvfbPath ?? DEFAULT_XVFB_PATH };
}

/** How long Xvfb and the driver get to be ready, and a session (MiniBrowser's start) to open. */
export const WEBKIT_START_TIMEOUT_MS = 30_000;

/**
 * MiniBrowser's toolbar (buttons and the address field) keeps its window at least 447 px wide: a phone (412 px)
 * would get a wider page. Its GTK widgets, never the page, are shrunk to nothing by the user style sheet GTK reads
 * from XDG_CONFIG_HOME (the run's own), so the window can take a phone's width.
 */
const SHRINK_TOOLBAR_CSS = 'toolbar, toolbar *, entry, button, image { font-size: 1px; padding: 0; margin: 0; min-height: 0; min-width: 0; border-width: 0; -gtk-icon-transform: scale(0.01); }\n';

/** Xvfb's screen: larger than the largest device window (a tablet, 712 × 1138, and MiniBrowser's own frame). */
const SCREEN = '1920x1600x24';

/**
 * The environment of the driver and so of MiniBrowser and WebKit's processes: the allow-listed one, the run's X
 * display, and a HOME and XDG folders of the run's own (WebKit writes its caches and databases there; a runner user
 * has no home: decision 0077). No accessibility bus, no D-Bus settings: nothing outside the run is asked.
 */
function webkitEnv(display: string, xauthority: string, home: string): NodeJS.ProcessEnv {
  return childEnv(process.env, {
    DISPLAY: display,
    XAUTHORITY: xauthority,
    HOME: home,
    XDG_RUNTIME_DIR: path.join(home, 'runtime'),
    XDG_CACHE_HOME: path.join(home, 'cache'),
    XDG_DATA_HOME: path.join(home, 'data'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    GDK_BACKEND: 'x11',
    NO_AT_BRIDGE: '1',
    GTK_A11Y: 'none',
    GSETTINGS_BACKEND: 'memory',
    GIO_USE_VFS: 'local',
    // Skia paints the page's tiles on the CPU. Without a GPU (Xvfb) WebKitGTK 2.50 otherwise paints them through
    // Skia's GL backend on a software GL, and a page that animates kept its web process a core busy (the demo's two
    // pages on a phone: 7.1-8.2 CPU-s; this way 3.3-4.0, the same screenshots to pixelmatch's eye: bench/engine/
    // README.md, "WebKit's tiles on the CPU"). Compositing stays: without it (WEBKIT_DISABLE_COMPOSITING_MODE) a
    // page that never repaints never answers WebDriver's screenshot; WEBKIT_DISABLE_DMABUF_RENDERER (or
    // LIBGL_ALWAYS_SOFTWARE) makes it hang under Xvfb too.
    WEBKIT_SKIA_ENABLE_CPU_RENDERING: '1',
  });
}

/** A child in a process group of its own, with an error listener on it and on each of its streams. */
function startGroup(file: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, extraFds = 0): ChildProcess {
  const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe', ...Array.from({ length: extraFds }, () => 'pipe' as const)] });
  child.on('error', () => {});
  for (const stream of child.stdio) stream?.on('error', () => {});
  return child;
}

/** A process's parent and start time (its identity with the pid), from /proc; null when it is gone. */
function statOf(pid: number): { ppid: number; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? null : { ppid: Number(fields[1]), start: fields[19] ?? '' };
  } catch {
    return null;
  }
}

/** Every descendant of `root` now (a process that set up a group or session of its own included). */
function descendants(root: number): { pid: number; start: string }[] {
  const byParent = new Map<number, { pid: number; start: string }[]>();
  let names: string[] = [];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const stat = statOf(pid);
    if (!stat) continue;
    const list = byParent.get(stat.ppid) ?? [];
    list.push({ pid, start: stat.start });
    byParent.set(stat.ppid, list);
  }
  const found: { pid: number; start: string }[] = [];
  const queue = [...(byParent.get(root) ?? [])];
  while (queue.length > 0) {
    const p = queue.pop()!;
    found.push(p);
    queue.push(...(byParent.get(p.pid) ?? []));
  }
  return found;
}

/**
 * Kills a child's whole group: TERM, then KILL after a grace; resolves once the leader has exited. Its descendants
 * that left the group (a new session) are found first and killed after.
 */
async function killGroup(child: ChildProcess): Promise<void> {
  // Never started (spawn failed): nothing to kill.
  if (child.pid === undefined) return;
  const tree = descendants(child.pid);
  const signal = (sig: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // Gone already.
    }
  };
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), CHILD_KILL_GRACE_MS);
  await Promise.race([exited, new Promise((r) => setTimeout(r, CHILD_KILL_GRACE_MS + 1_000))]);
  clearTimeout(timer);
  // Helpers that outlived their leader (or ignored TERM) go too, in the group or not.
  signal('SIGKILL');
  for (const p of tree) {
    if (statOf(p.pid)?.start !== p.start) continue;
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Output of a child kept for an error message (the last few KB). */
function tail(child: ChildProcess): () => string {
  let text = '';
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => text.trim();
}

const COOKIE_NAME = 'MIT-MAGIC-COOKIE-1';
/** libXau's FamilyWild: the entry is for any host (X's "family" of addresses). */
const FAMILY_WILD = 0xffff;

/**
 * One Xauthority entry for `cookie`, in the file's binary format (libXau's XauWriteAuth): the family as 2 bytes
 * big-endian, then the address, the display number, the protocol's name and its data, each as a 2-byte big-endian
 * length and its bytes. FamilyWild with no address, and no display number, which libXau (XauGetBestAuthByAddr)
 * matches with any display (checked with xdpyinfo on Debian 12's libXau 1.0.9): the number is only known once Xvfb
 * has started (`-displayfd`), and the file is read at its start.
 * Xvfb itself takes every MIT-MAGIC-COOKIE-1 entry of its `-auth` file, whatever its address and number.
 */
export function xauthorityEntry(cookie: Buffer): Buffer {
  const field = (bytes: Buffer) => {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(bytes.length);
    return [length, bytes];
  };
  const family = Buffer.alloc(2);
  family.writeUInt16BE(FAMILY_WILD);
  return Buffer.concat([family, ...field(Buffer.alloc(0)), ...field(Buffer.alloc(0)), ...field(Buffer.from(COOKIE_NAME, 'latin1')), ...field(cookie)]);
}

/** A fresh random cookie for a display, written as the Xauthority file `file`, readable by the run alone (0600). */
async function writeXauthority(file: string): Promise<void> {
  await rm(file, { force: true });
  await writeFile(file, xauthorityEntry(randomBytes(16)), { mode: 0o600, flag: 'wx' });
}

/**
 * Starts Xvfb on the first free display; its number comes back on fd 3 (`-displayfd`). Only clients with the
 * cookie of `xauthority` may connect (`-auth`).
 */
async function startXvfb(file: string, home: string, xauthority: string, signal: AbortSignal): Promise<{ child: ChildProcess; display: string }> {
  const child = startGroup(file, ['-displayfd', '3', '-screen', '0', SCREEN, '-auth', xauthority, '-nolisten', 'tcp', '-noreset'], childEnv(process.env, { HOME: home }), home, 1);
  const output = tail(child);
  try {
    const display = await new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error(`Xvfb did not start within ${WEBKIT_START_TIMEOUT_MS / 1000} s: ${output()}`)), WEBKIT_START_TIMEOUT_MS);
      const done = (fn: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = () => done(() => reject(new RunAbortedError()));
      signal.addEventListener('abort', onAbort, { once: true });
      child.stdio[3]?.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const line = /^(\d+)\n/.exec(text);
        if (line) done(() => resolve(`:${line[1]}`));
      });
      child.once('error', (error) => done(() => reject(error)));
      child.once('exit', (code) => done(() => reject(new Error(`Xvfb exited (${code}) before it was ready: ${output()}`))));
    });
    return { child, display };
  } catch (error) {
    await killGroup(child);
    throw error;
  }
}

/** One X server and one WebDriver server for an attempt: its cells open their sessions (one MiniBrowser each) in turn. */
export interface WebKitHost {
  /** `http://127.0.0.1:<port>` of WebKitWebDriver. */
  driverUrl: string;
  /** The X display (`:<n>`) and the Xauthority file holding its cookie: a client without the cookie is refused. */
  display: string;
  xauthority: string;
  paths: WebKitPaths;
  /** Whether the driver, and so MiniBrowser, runs in a network namespace whose only ways out are the policy proxies. */
  jailed: boolean;
  /** The address a session's `proxyUrl` gives for one of the host's policy proxies (inside the jail, a port of its own). */
  proxyUrl(proxy: PolicyProxy): string;
  close(): Promise<void>;
}

/**
 * Starts Xvfb and WebKitWebDriver for a run; `home` is the run's own folder for WebKit's files (created here,
 * removed by the caller). An abort of the run kills both. `proxies`: every policy proxy its sessions will use. Where
 * the network namespace works (sandbox/net-jail.ts, decision 0090), the driver, MiniBrowser and WebKit's processes
 * run in one whose only ways out are those proxies (each at a port of its own inside); the runner reaches the driver
 * through a way in (the same port outside and inside). Xvfb stays outside: its clients reach it by its socket file
 * (it listens on no network), which the namespace shares.
 */
export async function startWebKitHost(paths: WebKitPaths, opts: { home: string; signal: AbortSignal; proxies?: readonly PolicyProxy[] }): Promise<WebKitHost> {
  if (opts.signal.aborted) throw new RunAbortedError();
  const home = opts.home;
  const proxies = opts.proxies ?? [];
  await Promise.all(['runtime', 'cache', 'data', 'config/gtk-3.0'].map((d) => mkdir(path.join(home, d), { recursive: true, mode: 0o700 })));
  await writeFile(path.join(home, 'config/gtk-3.0/gtk.css'), SHRINK_TOOLBAR_CSS);
  const xauthority = path.join(home, 'runtime', 'Xauthority');
  await writeXauthority(xauthority);
  const xvfb = await startXvfb(paths.xvfb, home, xauthority, opts.signal);
  const jailed = proxies.length > 0 && netJailOn();
  const env = webkitEnv(xvfb.display, xauthority, home);
  let driver: ChildProcess | null = null;
  let inward: PortForward | null = null;
  const closeAll = async () => {
    await Promise.all([driver ? killGroup(driver) : Promise.resolve(), killGroup(xvfb.child)]);
    await inward?.close();
  };
  const onAbort = () => void closeAll();
  opts.signal.addEventListener('abort', onAbort, { once: true });
  const proxyUrl = (proxy: PolicyProxy) => {
    const index = proxies.indexOf(proxy);
    if (!jailed) return proxy.url;
    if (index < 0) throw new Error('this WebKit host was not started with that policy proxy');
    return `http://127.0.0.1:${JAIL_PROXY_PORT + index}`;
  };
  try {
    // A port free a moment ago may be taken by the time the driver binds it: a few tries. Jailed, the port inside is
    // always free (a fresh namespace) and the one outside is the way in's, already bound.
    let lastError: unknown = null;
    for (let attempt = 0; attempt < 3 && !driver; attempt++) {
      let command = paths.driver;
      let args: string[];
      if (jailed) {
        const socket = path.join(path.dirname(proxies[0]!.socketPath), `webkit-driver-${++driverCount}.sock`);
        inward = await startPortForward(socket);
        args = [`--port=${inward.port}`, '--host=127.0.0.1'];
        const forwards = proxies.map((p, i) => ({ port: JAIL_PROXY_PORT + i, socket: p.socketPath }));
        ({ command, args } = jailedCommand(paths.driver, args, { forwards, inward: [{ socket, port: inward.port }] }, { cwd: home, env }));
      } else {
        args = [`--port=${await freePort()}`, '--host=127.0.0.1'];
      }
      const port = jailed ? inward!.port : Number(args[0]!.slice('--port='.length));
      const child = startGroup(command, args, env, home);
      const output = tail(child);
      const exited = new Promise<never>((_, reject) => {
        child.once('error', reject);
        child.once('exit', (code) => reject(new Error(`WebKitWebDriver exited (${code}): ${output()}`)));
      });
      exited.catch(() => {});
      const url = `http://127.0.0.1:${port}`;
      try {
        await Promise.race([waitForDriver(url, WEBKIT_START_TIMEOUT_MS, opts.signal), exited]);
        driver = child;
        return {
          driverUrl: url,
          display: xvfb.display,
          xauthority,
          paths,
          jailed,
          proxyUrl,
          async close() {
            opts.signal.removeEventListener('abort', onAbort);
            await closeAll();
          },
        };
      } catch (error) {
        lastError = error;
        await killGroup(child);
        await inward?.close();
        inward = null;
        // The spawn itself failed (ENOENT, EACCES): no use trying another port.
        if ((error as { syscall?: unknown }).syscall) throw error;
        if (opts.signal.aborted) throw new RunAbortedError();
        if (jailed) throw error;
      }
    }
    throw lastError instanceof Error ? lastError : new Error('WebKitWebDriver did not start');
  } catch (error) {
    opts.signal.removeEventListener('abort', onAbort);
    await closeAll();
    throw error;
  }
}
let driverCount = 0;

/** What a cell's WebKit session is given: its window (the device's viewport), user agent and proxy. */
export interface WebKitSessionOptions {
  viewport: { width: number; height: number };
  userAgent?: string;
  /** The policy proxy of the cell's network, `http://127.0.0.1:<port>`. */
  proxyUrl: string;
  pageLoadTimeoutMs: number;
  scriptTimeoutMs: number;
}

/**
 * The session's capabilities: MiniBrowser in automation mode, the user agent as a MiniBrowser setting, and every
 * request (http, https through CONNECT; loopback included: `noProxy` is empty) through the policy proxy.
 */
export function webkitCapabilities(paths: WebKitPaths, o: WebKitSessionOptions): Record<string, unknown> {
  const proxy = new URL(o.proxyUrl).host;
  return {
    'webkitgtk:browserOptions': { binary: paths.miniBrowser, args: ['--automation', ...(o.userAgent ? [`--user-agent=${o.userAgent}`] : [])] },
    proxy: { proxyType: 'manual', httpProxy: proxy, sslProxy: proxy, noProxy: [] },
    pageLoadStrategy: 'normal',
    acceptInsecureCerts: false,
    timeouts: { pageLoad: o.pageLoadTimeoutMs, script: o.scriptTimeoutMs, implicit: 0 },
  };
}

/**
 * Opens a cell's session (a MiniBrowser) and sizes its window so that the page's viewport is the device's:
 * the window's frame is measured once and added.
 */
export async function openWebKitSession(host: WebKitHost, o: WebKitSessionOptions, signal: AbortSignal): Promise<WebDriverSession> {
  const session = await WebDriverSession.open(host.driverUrl, webkitCapabilities(host.paths, o), { timeoutMs: WEBKIT_START_TIMEOUT_MS, signal });
  try {
    const want = o.viewport;
    await session.setWindowRect({ x: 0, y: 0, width: want.width, height: want.height });
    const inner = await session.execute<{ w: number; h: number }>('return { w: window.innerWidth, h: window.innerHeight };');
    if (inner.w !== want.width || inner.h !== want.height) {
      await session.setWindowRect({ x: 0, y: 0, width: want.width + (want.width - inner.w), height: want.height + (want.height - inner.h) });
    }
    return session;
  } catch (error) {
    await session.close();
    throw error;
  }
}

/** A WebKit of its own for a caller that needs one session (the accessibility kind's cell): host, proxy, session. */
export interface GuardedWebKit {
  session: WebDriverSession;
  proxy: PolicyProxy;
  close(): Promise<void>;
}

/** One WebKit behind the policy proxy of `network`, sized for `viewport`; `home` is the run's folder for WebKit's files. */
export async function launchGuardedWebKit(
  guard: TargetGuard,
  ctx: RunContext,
  how: { home: string; network?: Network; viewport: { width: number; height: number }; userAgent?: string; pageLoadTimeoutMs: number },
): Promise<GuardedWebKit> {
  const proxy = await startPolicyProxy(guard, how.network ? { network: how.network } : {});
  let host: WebKitHost | null = null;
  try {
    host = await startWebKitHost(webkitPaths(ctx), { home: how.home, signal: ctx.signal, proxies: [proxy] });
    const session = await openWebKitSession(
      host,
      { viewport: how.viewport, ...(how.userAgent ? { userAgent: how.userAgent } : {}), proxyUrl: host.proxyUrl(proxy), pageLoadTimeoutMs: how.pageLoadTimeoutMs, scriptTimeoutMs: how.pageLoadTimeoutMs },
      ctx.signal,
    );
    const started = host;
    return {
      session,
      proxy,
      async close() {
        await session.close();
        await started.close();
        await proxy.close();
      },
    };
  } catch (error) {
    await host?.close();
    await proxy.close();
    throw error;
  }
}

/** Waits for two animation frames (a frame painted after the call), or 1 s where the page gets none. */
const NEXT_PAINTED_FRAME = `const done = arguments[arguments.length - 1];
const timer = setTimeout(() => done(false), 1000);
requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(timer); done(true); }));`;

/** Whether every pixel of a PNG is black: WebKit's window before its first paint. */
function allBlack(png: Buffer): boolean {
  const { data } = PNG.sync.read(png);
  for (let i = 0; i < data.length; i += 4) if (data[i] !== 0 || data[i + 1] !== 0 || data[i + 2] !== 0) return false;
  return true;
}

/**
 * The viewport as WebKit last painted it. WebKitGTK paints after the load event, on its own schedule: on a busy
 * machine a screenshot taken before its first frame came back all black (seen on the demo's first run). So a frame
 * is awaited first, and an all-black shot is taken again, up to `tries` times, half a second apart.
 */
export async function webkitScreenshot(session: WebDriverSession, tries = 3): Promise<Buffer> {
  let png: Buffer = Buffer.alloc(0);
  for (let i = 0; i < tries; i++) {
    if (i > 0) await sleep(500);
    await session.executeAsync(NEXT_PAINTED_FRAME).catch(() => false);
    png = await session.screenshot();
    if (!allBlack(png)) break;
  }
  return png;
}
