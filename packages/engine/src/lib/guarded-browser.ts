import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserType } from 'playwright-core';
import type { Network } from '../policy/network-profiles.ts';
import { startPolicyProxy, type PolicyProxy } from '../policy/policy-proxy.ts';
import type { TargetGuard } from '../policy/target-guard.ts';
import type { RunContext } from '../types.ts';
import { RunAbortedError } from '../errors.ts';
import { playwrightChromiumArgs, runnerChromium } from './chromium.ts';
import { DEFAULT_FIREFOX_PATH, FIREFOX_BIDI, GUARDED_FIREFOX_PREFS } from './firefox.ts';
import { loginContextOptions, loginOf } from './login-session.ts';

export const BROWSER_LAUNCH_TIMEOUT_MS = 30_000;

export interface GuardedBrowser {
  browser: Browser;
  proxy: PolicyProxy;
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
}

/** This process's environment without its unset names, as Playwright takes a browser's. */
const definedEnv = () => Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));

function launch(ctx: RunContext, proxyUrl: string, how: GuardedLaunch): Promise<Browser> {
  if (how.engine === 'firefox') {
    // Firefox has no `<-loopback>` bypass over BiDi: its prefs send loopback through the proxy too (lib/firefox.ts).
    return bidiFirefox.launch({
      channel: FIREFOX_BIDI.channel,
      executablePath: ctx.firefoxPath ?? DEFAULT_FIREFOX_PATH,
      firefoxUserPrefs: GUARDED_FIREFOX_PREFS,
      headless: true,
      timeout: BROWSER_LAUNCH_TIMEOUT_MS,
      proxy: { server: proxyUrl },
      ...(how.home ? { env: { ...definedEnv(), HOME: how.home } } : {}),
    });
  }
  return chromium.launch({
    executablePath: ctx.chromiumPath,
    args: playwrightChromiumArgs(runnerChromium().args),
    chromiumSandbox: runnerChromium().sandbox,
    headless: true,
    timeout: BROWSER_LAUNCH_TIMEOUT_MS,
    proxy: { server: proxyUrl, bypass: '<-loopback>' },
  });
}

/**
 * Debian Chromium (or Debian's Firefox, when asked) behind the policy proxy (every request, loopback included, is
 * checked; shaped when a network is named); closed when the run is aborted so that pending page calls fail at once.
 */
export async function launchGuardedBrowser(guard: TargetGuard, ctx: RunContext, how: GuardedLaunch = {}): Promise<GuardedBrowser> {
  const proxy = await startPolicyProxy(guard, how.network ? { network: how.network } : {});
  let browser: Browser;
  try {
    browser = await launch(ctx, proxy.url, how);
  } catch (error) {
    await proxy.close();
    throw error;
  }
  const session = loginOf(guard);
  if (session) {
    // Every context of the run starts logged in, whichever runner or helper opens it (browser.newPage opens one too).
    const newContext = browser.newContext.bind(browser);
    browser.newContext = (options = {}) => newContext({ ...loginContextOptions(session), ...options });
  }
  const onAbort = () => void browser.close().catch(() => undefined);
  // Aborted while the browser was starting: nobody would close it otherwise.
  if (ctx.signal.aborted) {
    await browser.close().catch(() => undefined);
    await proxy.close();
    throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new RunAbortedError();
  }
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  return {
    browser,
    proxy,
    async close() {
      ctx.signal.removeEventListener('abort', onAbort);
      await browser.close().catch(() => undefined);
      await proxy.close();
    },
  };
}
