import { chromium, type Browser } from 'playwright-core';
import { startPolicyProxy, type PolicyProxy } from '../policy/policy-proxy.ts';
import type { TargetGuard } from '../policy/target-guard.ts';
import type { RunContext } from '../types.ts';
import { RunAbortedError } from '../errors.ts';
import { runnerChromium } from './chromium.ts';
import { loginContextOptions, loginOf } from './login-session.ts';

export const BROWSER_LAUNCH_TIMEOUT_MS = 30_000;

export interface GuardedBrowser {
  browser: Browser;
  proxy: PolicyProxy;
  close(): Promise<void>;
}

/**
 * Debian Chromium behind the policy proxy (every request, loopback included, is checked); closed when the run is
 * aborted so that pending page calls fail at once.
 */
export async function launchGuardedBrowser(guard: TargetGuard, ctx: RunContext): Promise<GuardedBrowser> {
  const proxy = await startPolicyProxy(guard);
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: ctx.chromiumPath,
      args: runnerChromium().args,
      chromiumSandbox: runnerChromium().sandbox,
      headless: true,
      timeout: BROWSER_LAUNCH_TIMEOUT_MS,
      proxy: { server: proxy.url, bypass: '<-loopback>' },
    });
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
  // Aborted while Chromium was starting: nobody would close it otherwise.
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
