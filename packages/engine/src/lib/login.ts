import { LoginFailedError, ValidationError } from '../errors.ts';
import { createTargetGuard } from '../policy/target-guard.ts';
import { type LoginDeclaration, SECRET_REFERENCE, secretNamesOf } from '../suite/login-declaration.ts';
import type { RunContext, RunTarget } from '../types.ts';
import { launchGuardedBrowser } from './guarded-browser.ts';
import type { LoginSession, SessionCookie } from './login-session.ts';

/** Session values shorter than this are not masked (a cookie "1" would blank every digit 1 of a report). */
const MIN_SESSION_MASK_CHARS = 6;

/** The secrets' values for a run, by name: they travel in the run request, never in env vars or files. */
export type RunSecrets = Record<string, string>;

/** `value` with every `{{secret:name}}` replaced by the secret's value. */
export function fillSecrets(value: string, secrets: RunSecrets): string {
  return value.replace(SECRET_REFERENCE, (_, name: string) => secrets[name] ?? '');
}

/** Refuses a declaration naming a secret the client has not set, saying which and how to set it. */
export function checkSecrets(login: LoginDeclaration, secrets: RunSecrets): void {
  const missing = secretNamesOf(login).filter((n) => !(n in secrets));
  if (missing.length) {
    const names = missing.map((n) => `"${n}"`).join(', ');
    throw new ValidationError({
      field: 'login',
      reason: `the suite's login needs the secret${missing.length > 1 ? 's' : ''} ${names}, not set for this client (an operator sets ${missing.length > 1 ? 'them' : 'it'} with "fullstop secrets set")`,
    });
  }
}

/**
 * Logs in once for an attempt: a header or cookie login fills in its secrets; a form login opens the login page
 * in a guarded Chromium, fills the fields, submits and waits for the success condition, then keeps the cookies
 * and local storage the site set. Nothing here is logged: the values are the secrets.
 */
export async function resolveLogin(
  login: LoginDeclaration,
  secrets: RunSecrets,
  target: RunTarget,
  ctx: Pick<RunContext, 'signal' | 'chromiumPath' | 'network' | 'runDir' | 'workers' | 'log'>,
): Promise<LoginSession> {
  checkSecrets(login, secrets);
  const secretValues = Object.values(secrets).filter((v) => v.length > 0);
  if (login.type === 'header') {
    const headers = Object.fromEntries(Object.entries(login.headers).map(([k, v]) => [k, fillSecrets(v, secrets)]));
    return { headers, cookies: [], origins: [], masks: masksOf(secretValues, Object.values(headers)) };
  }
  const guard = createTargetGuard(target, ctx.network);
  if (login.type === 'cookie') {
    const host = guard.baseUrl.hostname;
    const cookies: SessionCookie[] = Object.entries(login.cookies).map(([name, v]) => ({
      name,
      value: fillSecrets(v, secrets),
      domain: host,
      path: '/',
      expires: -1,
      httpOnly: true,
      secure: guard.baseUrl.protocol === 'https:',
      sameSite: 'Lax',
    }));
    return { headers: {}, cookies, origins: [], masks: masksOf(secretValues, cookies.map((c) => c.value)) };
  }
  const loginUrl = (await guard.check(login.url)).href;
  const browser = await launchGuardedBrowser(guard, { ...ctx, signal: ctx.signal } as RunContext);
  try {
    const context = await browser.browser.newContext();
    const page = await context.newPage();
    const deadline = performance.now() + login.timeoutMs;
    const left = () => Math.max(1, deadline - performance.now());
    try {
      await page.goto(loginUrl, { waitUntil: 'load', timeout: left() });
      for (const field of login.fields) await page.locator(field.selector).first().fill(fillSecrets(field.value, secrets), { timeout: left() });
      await page.locator(login.submit).first().click({ timeout: left() });
      if (login.success.url) {
        await page.waitForURL(urlPattern(login.success.url), { timeout: left() });
      }
      if (login.success.selector) await page.locator(login.success.selector).first().waitFor({ state: 'visible', timeout: left() });
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const reached = page.url();
      const want = [login.success.url && `the address to match ${login.success.url}`, login.success.selector && `${login.success.selector} to appear`].filter(Boolean).join(' and ');
      // Playwright's message names selectors and URLs, never typed values; still, only its first line is kept.
      const why = ((error as Error).message ?? '').split('\n')[0]!.slice(0, 300);
      throw new LoginFailedError(`the login at ${loginUrl} did not succeed: expected ${want}; the page was at ${reached} (${why})`);
    }
    const state = await context.storageState();
    const cookies = state.cookies as SessionCookie[];
    const localValues = state.origins.flatMap((o) => o.localStorage.map((e) => e.value));
    return { headers: {}, cookies, origins: state.origins, masks: masksOf(secretValues, [...cookies.map((c) => c.value), ...localValues]) };
  } finally {
    await browser.close();
  }
}

/** A success URL written `/like this/i` is a regular expression; anything else is a Playwright URL glob. */
export function urlPattern(text: string): string | RegExp {
  const m = /^\/(.+)\/([dgimsuy]*)$/.exec(text);
  if (!m) return text;
  try {
    return new RegExp(m[1]!, m[2]);
  } catch {
    return text;
  }
}

function masksOf(secretValues: string[], sessionValues: string[]): string[] {
  return [...new Set([...secretValues, ...sessionValues.filter((v) => v.length >= MIN_SESSION_MASK_CHARS)])];
}
