import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserType } from 'playwright-core';
import type { Network } from '../policy/network-profiles.ts';
import { startPolicyProxy, type PolicyProxy } from '../policy/policy-proxy.ts';
import type { TargetGuard } from '../policy/target-guard.ts';
import type { RunContext } from '../types.ts';
import { RunAbortedError } from '../errors.ts';
import { JAIL_PROXY_PORT, netJailOn, startPortForward, writeJailedExecutable } from '../sandbox/net-jail.ts';
import { playwrightChromiumArgs, runnerChromium } from './chromium.ts';
import { FIREFOX_BIDI, GUARDED_FIREFOX_PREFS } from './firefox.ts';
import { runnerFirefox } from './warm-firefox.ts';
import { loginContextOptions, loginOf } from './login-session.ts';

export const BROWSER_LAUNCH_TIMEOUT_MS = 30_000;

export interface GuardedBrowser {
  browser: Browser;
  proxy: PolicyProxy;
  /**
   * The `proxy` option of a context that goes through one of the launch's `contextProxies` instead of the browser's
   * own: its address as the browser reaches it (inside the jail, a port of its own).
   */
  contextProxy(proxy: PolicyProxy): { server: string; bypass?: string };
  close(): Promise<void>;
}

// Playwright's Firefox over WebDriver BiDi; not among the ESM entry's names, the CommonJS module has it.
const bidiFirefox = (createRequire(import.meta.url)('playwright-core') as { _bidiFirefox: BrowserType })._bidiFirefox;

/** Which browser, and on which network: Chromium on the unshaped network unless asked (decision 0078). */
export interface GuardedLaunch {
  engine?: 'chromium' | 'firefox';
  /** Shaped in the policy proxy, so it holds for every engine. */
  network?: Network;
  /** HOME for Firefox, which writes below it and hangs at start without one (a runner user has none). */
  home?: string;
  /**
   * Further policy proxies (a shaped network's each) that contexts of this browser go through, one a context
   * (`contextProxy`): one browser serves the cells of a matrix on every network. Jailed, each is one more way out of
   * the namespace, to that proxy only.
   */
  contextProxies?: readonly PolicyProxy[];
}

/** Where the browser reaches each proxy: jailed, the browser's own at JAIL_PROXY_PORT and the context proxies' after it. */
function proxyAddresses(proxy: PolicyProxy, how: GuardedLaunch, jailed: boolean): Map<PolicyProxy, string> {
  const all = [proxy, ...(how.contextProxies ?? [])];
  return new Map(all.map((p, i) => [p, jailed ? `http://127.0.0.1:${JAIL_PROXY_PORT + i}` : p.url]));
}

/** This process's environment without its unset names, as Playwright takes a browser's. */
const definedEnv = () => Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));

async function launch(ctx: RunContext, proxy: PolicyProxy, how: GuardedLaunch, addresses: Map<PolicyProxy, string>): Promise<Browser> {
  // Where the namespace works, the browser runs in one whose only ways out are this proxy, at JAIL_PROXY_PORT inside
  // (sandbox/net-jail.ts), and the context proxies at the ports after it. Playwright's executablePath is one file: a wrapper script in the proxy's private folder
  // execs the jail around the real browser.
  const jailed = netJailOn();
  const dir = path.dirname(proxy.socketPath);
  const forwards = (how.contextProxies ?? []).map((p, i) => ({ port: JAIL_PROXY_PORT + 1 + i, socket: p.socketPath }));
  const jail = { proxySocket: proxy.socketPath, proxyPort: JAIL_PROXY_PORT, ...(forwards.length ? { forwards } : {}) };
  const proxyServer = addresses.get(proxy)!;
  if (how.engine === 'firefox') {
    // Playwright drives Firefox over WebDriver BiDi, a WebSocket to the port Firefox prints: jailed, a way in carries
    // it. The runner listens on 127.0.0.1:P (startPortForward), Firefox is told to listen on the same P inside (the
    // wrapper replaces Playwright's --remote-debugging-port=0), and a forwarder inside joins the two through a Unix
    // socket of the proxy's folder. Firefox has no `<-loopback>` bypass over BiDi: its prefs send loopback through
    // the proxy too (lib/firefox.ts).
    const firefox = runnerFirefox(ctx);
    const bidiSocket = path.join(dir, 'bidi.sock');
    const inward = jailed ? await startPortForward(bidiSocket) : null;
    try {
      const executablePath = inward
        ? await writeJailedExecutable(dir, 'firefox', firefox, { ...jail, inward: [{ socket: bidiSocket, port: inward.port }] }, [
            '--remote-debugging-port=0',
            `--remote-debugging-port=${inward.port}`,
          ])
        : firefox;
      const browser = await bidiFirefox.launch({
        channel: FIREFOX_BIDI.channel,
        executablePath,
        firefoxUserPrefs: GUARDED_FIREFOX_PREFS,
        headless: true,
        timeout: BROWSER_LAUNCH_TIMEOUT_MS,
        proxy: { server: proxyServer },
        ...(how.home ? { env: { ...definedEnv(), HOME: how.home } } : {}),
      });
      if (inward) browser.once('disconnected', () => void inward.close());
      return browser;
    } catch (error) {
      await inward?.close();
      throw error;
    }
  }
  // Playwright talks to Chromium over pipes (fds 3 and 4), which pass through the jail.
  const executablePath = jailed ? await writeJailedExecutable(dir, 'chromium', ctx.chromiumPath, jail) : ctx.chromiumPath;
  return chromium.launch({
    executablePath,
    args: playwrightChromiumArgs(runnerChromium().args),
    chromiumSandbox: runnerChromium().sandbox,
    headless: true,
    timeout: BROWSER_LAUNCH_TIMEOUT_MS,
    proxy: { server: proxyServer, bypass: '<-loopback>' },
  });
}

/**
 * A context's `proxy` option for a proxy the browser reaches at `server`. Chromium sends loopback through a context's
 * proxy as through its own (Playwright adds `<-loopback>`); Firefox takes no bypass rule over BiDi, its prefs do the
 * same (lib/firefox.ts).
 */
export function contextProxyOf(server: string, engine: 'chromium' | 'firefox'): { server: string; bypass?: string } {
  return engine === 'firefox' ? { server } : { server, bypass: '<-loopback>' };
}

/**
 * A browser of the attempt's, launched or connected to, held for it: every context it opens starts logged in
 * (whichever runner or helper opens it: browser.newPage opens one too), and an abort of the run closes it so that
 * pending page calls fail at once. Throws when the run was aborted already (the browser is closed then).
 */
export async function holdForAttempt(browser: Browser, guard: TargetGuard, ctx: RunContext): Promise<{ close(): Promise<void> }> {
  const session = loginOf(guard);
  if (session) {
    const newContext = browser.newContext.bind(browser);
    browser.newContext = (options = {}) => newContext({ ...loginContextOptions(session), ...options });
  }
  // Aborted while the browser was starting: nobody would close it otherwise.
  if (ctx.signal.aborted) {
    await browser.close().catch(() => undefined);
    throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new RunAbortedError();
  }
  const onAbort = () => void browser.close().catch(() => undefined);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  return {
    async close() {
      ctx.signal.removeEventListener('abort', onAbort);
      await browser.close().catch(() => undefined);
    },
  };
}

/**
 * Debian Chromium (or Debian's Firefox, when asked) behind the policy proxy (every request, loopback included, is
 * checked; shaped when a network is named); closed when the run is aborted so that pending page calls fail at once.
 * Either browser runs in a network namespace whose only way out is that proxy where the kernel allows it (`netJailOn`).
 */
export async function launchGuardedBrowser(guard: TargetGuard, ctx: RunContext, how: GuardedLaunch = {}): Promise<GuardedBrowser> {
  const proxy = await startPolicyProxy(guard, how.network ? { network: how.network } : {});
  const addresses = proxyAddresses(proxy, how, netJailOn());
  let browser: Browser;
  try {
    browser = await launch(ctx, proxy, how, addresses);
  } catch (error) {
    await proxy.close();
    throw error;
  }
  const held = await holdForAttempt(browser, guard, ctx).catch(async (error: unknown) => {
    await proxy.close();
    throw error;
  });
  return {
    browser,
    proxy,
    contextProxy(p) {
      const server = addresses.get(p);
      if (!server) throw new Error('contextProxy: a proxy the browser was not launched with');
      return contextProxyOf(server, how.engine ?? 'chromium');
    },
    async close() {
      await held.close();
      await proxy.close();
    },
  };
}
