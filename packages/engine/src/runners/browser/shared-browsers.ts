/**
 * One browser an engine for a whole browser test (issue 40, decision 0110): its spec files and its page checks are
 * contexts of the same browsers, each with its cell's device and its network's proxy.
 *
 * - **The cell proxies**: the unshaped policy proxy and one a shaped network, started once for both parts. Jailed,
 *   each is reached inside at a port of its own (JAIL_PROXY_PORT + its place), the same in every jail of the attempt,
 *   so that a context's proxy address means the same proxy in the browser host's jail and in the specs'.
 * - **The browser host** (browser-host.ts): a Node process in a jail of its own that launches the browser servers.
 *   Its ways in are each server's WebSocket, through a Unix socket of a private folder: the runner connects through
 *   a port of its own (`startPortForward`), the Playwright process's jail through a forward at the same port
 *   inside. A client's spec drives the shared browser as it drove its own, but it runs in another PID namespace
 *   than the host, so it can neither signal nor trace the process that serves the page checks.
 *
 * What fails leaves each part to launch its own browsers, as before.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { z } from 'zod';
import { contextProxyOf, type GuardedBrowser, holdForAttempt } from '../../lib/guarded-browser.ts';
import { runChild } from '../../lib/child-process.ts';
import { freePort } from '../../lib/free-port.ts';
import { errorMessage } from '../../lib/result.ts';
import { type PolicyProxy, startPolicyProxy } from '../../policy/policy-proxy.ts';
import type { TargetGuard } from '../../policy/target-guard.ts';
import { entryFile } from '../../sandbox/entry-file.ts';
import { JAIL_PROXY_PORT, type JailForward, type JailInward, netJailOn, type PortForward, privateSocketDir, startPortForward } from '../../sandbox/net-jail.ts';
import type { RunContext } from '../../types.ts';
import { FIREFOX_BIDI } from '../../lib/firefox.ts';
import { BROWSER_SERVERS_ENV, browserWsVar, HOST_LINE, launchers, SHARED_LAUNCH_TIMEOUT_MS } from './browser-servers.ts';
import { inJailProxyUrl } from './config.ts';
import type { Network, SpecEngine } from './matrix.ts';

/** The policy proxies of a test's cells: the unshaped one, and one a shaped network. */
export interface CellProxies {
  unshaped: PolicyProxy;
  shaped: ReadonlyMap<Network, PolicyProxy>;
  /** Every one, the unshaped first: a proxy's place gives its port inside a jail. */
  all: readonly PolicyProxy[];
  /** A jail's ways out to them, each at JAIL_PROXY_PORT + its place; null when unjailed. */
  forwards(): JailForward[] | null;
  /** A proxy's address as a jailed process reaches it (unjailed: its own `url`). */
  urlOf(proxy: PolicyProxy): string;
  /** The proxy of a cell's network. */
  of(network: Network): PolicyProxy;
  close(): Promise<void>;
}

export async function startCellProxies(guard: TargetGuard, networks: Iterable<Network>): Promise<CellProxies> {
  const unshaped = await startPolicyProxy(guard);
  const shaped = new Map<Network, PolicyProxy>();
  const all = () => [unshaped, ...shaped.values()];
  try {
    for (const network of new Set(networks)) if (network !== 'none') shaped.set(network, await startPolicyProxy(guard, { network }));
  } catch (error) {
    await Promise.all(all().map((x) => x.close()));
    throw error;
  }
  const list = all();
  const jailed = netJailOn();
  return {
    unshaped,
    shaped,
    all: list,
    forwards: () => (jailed ? list.map((x, i) => ({ port: JAIL_PROXY_PORT + i, socket: x.socketPath })) : null),
    urlOf: (x) => (jailed ? inJailProxyUrl(JAIL_PROXY_PORT + list.indexOf(x)) : x.url),
    of: (network) => {
      const proxy = network === 'none' ? unshaped : shaped.get(network);
      // Never a cell unshaped by mistake: every network of the test's cells has its proxy.
      if (!proxy) throw new Error(`no policy proxy for the network ${network}`);
      return proxy;
    },
    close: () => Promise.all(list.map((x) => x.close())).then(() => undefined),
  };
}

/** Playwright's `browserName` of an engine's shared browser. */
const BROWSER_NAME: Readonly<Record<SpecEngine, string>> = { chromium: 'chromium', firefox: FIREFOX_BIDI.browserName };

/** A served browser's WebSocket, and how a jail reaches it. */
interface Served {
  wsEndpoint: string;
  /** The forward a jail needs (jailed host), to the way in's Unix socket at the same port inside. */
  forward: JailForward | null;
}

/** How long the host has for its first launches: a browser's launch time and its own start. */
const HOST_START_TIMEOUT_MS = SHARED_LAUNCH_TIMEOUT_MS + 15_000;

const hostRecord = z.object({ launchMs: z.record(z.string(), z.array(z.number())), failed: z.record(z.string(), z.string()) });
/** One line of the host's: a browser served (or gone), or every first launch done. Parsed, never trusted as code. */
const hostLine = z.union([z.object({ browserName: z.string(), served: z.boolean(), record: hostRecord }), z.object({ started: z.literal(true), record: hostRecord })]);

export interface BrowserHost {
  /** The Playwright process's environment naming each served browser, and its jail's forwards to them. */
  specs(): { env: Record<string, string>; forwards: JailForward[] };
  /** The engine's shared browser for the page checks, held for the attempt; null when it is not served (launch one's own). */
  connect(engine: SpecEngine): Promise<GuardedBrowser | null>;
  close(): Promise<void>;
}

/**
 * Starts the attempt's browser host for `launches` (each engine's `browserName` → launch options, config.ts
 * `sharedLaunchesFor`), jailed with the cell proxies as its only ways out. Null when it did not start: each part
 * launches its own then (logged).
 */
export async function startBrowserHost(p: {
  launches: Record<string, Record<string, unknown>>;
  proxies: CellProxies;
  guard: TargetGuard;
  ctx: RunContext;
  /** Firefox's HOME (it writes below it), the run's own. */
  home: string;
  cwd: string;
}): Promise<BrowserHost | null> {
  const { ctx } = p;
  const jailed = netJailOn();
  const dir = jailed ? await privateSocketDir('fullstop-host-') : null;
  const ways = new Map<SpecEngine, { port: number; wsPath: string; inward: JailInward | null; outside: PortForward | null }>();
  const stopHost = new AbortController();
  const onAbort = () => stopHost.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const cleanUp = async () => {
    stopHost.abort();
    ctx.signal.removeEventListener('abort', onAbort);
    await Promise.all([...ways.values()].map((w) => w.outside?.close()));
    if (dir) await rm(dir, { recursive: true, force: true });
  };
  try {
    const wanted: Record<string, Record<string, unknown>> = {};
    for (const [engine, browserName] of Object.entries(BROWSER_NAME) as [SpecEngine, string][]) {
      if (!p.launches[browserName]) continue;
      // A path no other process of the machine can guess: the server answers no other.
      const wsPath = `/${randomBytes(16).toString('hex')}`;
      let port: number;
      let inward: JailInward | null = null;
      let outside: PortForward | null = null;
      if (dir) {
        const socket = path.join(dir, `${engine}.sock`);
        outside = await startPortForward(socket);
        port = outside.port;
        inward = { socket, port };
      } else {
        port = await freePort();
      }
      ways.set(engine, { port, wsPath, inward, outside });
      wanted[browserName] = { ...p.launches[browserName], port, wsPath };
    }
    if (ways.size === 0) {
      await cleanUp();
      return null;
    }

    const served = new Map<SpecEngine, Served>();
    const launched: Record<string, number> = {};
    let output = '';
    let resolveStarted: (ok: boolean) => void = () => undefined;
    const started = new Promise<boolean>((resolve) => (resolveStarted = resolve));
    const read = (line: string) => {
      const parsed = hostLine.safeParse(JSON.parse(line));
      if (!parsed.success) return;
      const { record } = parsed.data;
      for (const [name, launches] of Object.entries(record.launchMs)) launched[name] = launches.length;
      if ('started' in parsed.data) {
        if (Object.keys(record.failed).length > 0) ctx.log('shared browsers not started: each part launches its own', record.failed);
        for (const [engine, way] of ways) {
          if (!record.launchMs[BROWSER_NAME[engine]]) continue;
          served.set(engine, {
            wsEndpoint: `ws://127.0.0.1:${way.port}${way.wsPath}`,
            forward: way.inward ? { port: way.port, socket: way.inward.socket } : null,
          });
        }
        resolveStarted(true);
      }
    };
    const child = runChild(process.execPath, [entryFile('browser-host')], {
      cwd: p.cwd,
      env: { ...process.env, HOME: p.home, [BROWSER_SERVERS_ENV]: JSON.stringify(wanted), PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
      signal: stopHost.signal,
      // Until the attempt closes it (its own time limit holds the attempt).
      timeoutMs: 2 ** 31 - 1,
      onOutput: (chunk) => {
        output += chunk;
        for (let end = output.indexOf('\n'); end >= 0; end = output.indexOf('\n')) {
          const line = output.slice(0, end);
          output = output.slice(end + 1);
          if (!line.startsWith(HOST_LINE)) continue;
          try {
            read(line.slice(HOST_LINE.length));
          } catch {
            // Not JSON: not a line of the host's.
          }
        }
      },
      jail: dir ? { forwards: p.proxies.forwards() ?? [], inward: [...ways.values()].flatMap((w) => (w.inward ? [w.inward] : [])) } : null,
    });
    const ended = child.then(
      (result) => `the browser host ended (exit ${result.code}): ${result.stderr.slice(-500) || result.stdout.slice(-500)}`,
      (error: unknown) => errorMessage(error),
    );
    void ended.then((why) => {
      if (!stopHost.signal.aborted) ctx.log('the browser host ended before the test', { why: why.slice(0, 600) });
      resolveStarted(false);
    });
    const timer = setTimeout(() => resolveStarted(false), HOST_START_TIMEOUT_MS);
    const ok = await started;
    clearTimeout(timer);
    if (!ok || served.size === 0) {
      if (!ok) ctx.log('the browser host did not start: each part launches its own', { output: output.slice(-500) });
      await cleanUp();
      await ended;
      return null;
    }
    ctx.log('shared browsers started', launched);
    return {
      specs() {
        const env: Record<string, string> = {};
        const forwards: JailForward[] = [];
        for (const [engine, s] of served) {
          env[browserWsVar(BROWSER_NAME[engine])] = s.wsEndpoint;
          if (s.forward) forwards.push(s.forward);
        }
        return { env, forwards };
      },
      async connect(engine) {
        const s = served.get(engine);
        if (!s || stopHost.signal.aborted) return null;
        let browser: Browser;
        try {
          browser = await launchers()[BROWSER_NAME[engine]]!.connect(s.wsEndpoint, { timeout: SHARED_LAUNCH_TIMEOUT_MS });
        } catch (error) {
          ctx.log('the shared browser did not answer: the page checks launch their own', { engine, error: errorMessage(error).split('\n')[0] });
          return null;
        }
        const held = await holdForAttempt(browser, p.guard, ctx);
        return {
          browser,
          proxy: p.proxies.unshaped,
          contextProxy: (proxy) => {
            if (!p.proxies.all.includes(proxy)) throw new Error('contextProxy: a proxy the browser host was not started with');
            return contextProxyOf(p.proxies.urlOf(proxy), engine);
          },
          close: () => held.close(),
        };
      },
      async close() {
        await cleanUp();
        await ended;
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
