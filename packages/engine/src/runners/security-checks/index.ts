import { RunAbortedError } from '../../errors.ts';
import { defineRunner } from '../../lib/define-runner.ts';
import { guardedRequest } from '../../lib/http.ts';
import { errorMessage, totalsFromCases, writeJsonArtifact } from '../../lib/result.ts';
import { crawlSite } from '../../lib/site-crawl.ts';
import type { TargetGuard } from '../../policy/target-guard.ts';
import type { Artifact, CaseResult, RunContext } from '../../types.ts';
import { expectedActual } from '../expected-actual.ts';
import { headerChecks } from './header-checks.ts';
import { securityChecksInput, type SecurityChecksOptions } from './options.ts';
import { facts } from './facts.ts';

type Check = Omit<CaseResult, 'durationMs'>;

async function timed(name: string, ctx: RunContext, body: () => Promise<Check | Check[]>): Promise<CaseResult[]> {
  const started = performance.now();
  try {
    const result = await body();
    const durationMs = performance.now() - started;
    return (Array.isArray(result) ? result : [result]).map((c) => ({ ...c, durationMs }));
  } catch (error) {
    if (ctx.signal.aborted) throw new RunAbortedError();
    return [{ name, status: 'failed', durationMs: performance.now() - started, error: errorMessage(error) }];
  }
}

async function tlsCheck(guard: TargetGuard, options: SecurityChecksOptions, ctx: RunContext): Promise<Check> {
  const name = 'The website is served over HTTPS with a valid certificate';
  if (guard.baseUrl.protocol !== 'https:') {
    return options.requireHttps
      ? { name, status: 'failed', error: `${guard.baseUrl.origin} is plain http`, ...expectedActual('https with a valid certificate', 'plain http') }
      : { name, status: 'skipped', error: 'plain http allowed by requireHttps: false' };
  }
  // fetch verifies the certificate chain and host name; a failure throws with the reason.
  await guardedRequest(guard, guard.baseUrl.href, { signal: ctx.signal, followRedirects: false });
  return { name, status: 'passed', ...expectedActual('https with a valid certificate', 'https, certificate valid') };
}

async function loginCheck(guard: TargetGuard, login: NonNullable<SecurityChecksOptions['login']>, ctx: RunContext): Promise<Check> {
  const name = `Login ${login.path} rejects wrong credentials`;
  const isJson = typeof login.badCredentials !== 'string';
  const response = await guardedRequest(guard, login.path, {
    method: login.method,
    headers: { 'content-type': isJson ? 'application/json' : 'application/x-www-form-urlencoded' },
    body: isJson ? JSON.stringify(login.badCredentials) : (login.badCredentials as string),
    followRedirects: false,
    signal: ctx.signal,
    anonymous: true,
  });
  const words = expectedActual(`status ${login.rejectStatus.join(' or ')}`, `status ${response.status}`);
  if (login.rejectStatus.includes(response.status)) return { name, status: 'passed', ...words };
  return { name, status: 'failed', error: `answered ${response.status} to wrong credentials, expected ${login.rejectStatus.join(', ')}`, ...words };
}

async function protectedCheck(guard: TargetGuard, path: string, ctx: RunContext): Promise<Check> {
  const name = `${path} refuses anonymous access`;
  const response = await guardedRequest(guard, path, { signal: ctx.signal, followRedirects: false, anonymous: true });
  const expected = 'status 401 or 403, or a redirect to another page (a login)';
  if (response.status === 401 || response.status === 403) return { name, status: 'passed', ...expectedActual(expected, `status ${response.status}`) };
  const location = response.headers.get('location');
  const target = location ? new URL(location, response.url).pathname : null;
  if (response.status >= 300 && response.status < 400 && target !== null && target !== new URL(response.url).pathname) {
    // The path only: a redirect's query may carry a token.
    return { name, status: 'passed', ...expectedActual(expected, `status ${response.status}, redirect to ${target}`) };
  }
  return { name, status: 'failed', error: `answered ${response.status} without credentials`, ...expectedActual(expected, `status ${response.status}`) };
}

/** Pass/fail checks of a website's security basics: the spec's security report. */
export const securityChecksRunner = defineRunner({
  facts,
  schema: securityChecksInput,
  async execute({ options }, { ctx, guard }) {
    for (const p of [...options.pages, ...options.protectedPaths, ...(options.login ? [options.login.path] : [])]) await guard.check(p);
    const cases: CaseResult[] = [];
    const artifacts: Artifact[] = [];
    cases.push(...(await timed('The website is served over HTTPS with a valid certificate', ctx, () => tlsCheck(guard, options, ctx))));
    let pages = options.pages;
    if (options.crawl !== false) {
      const crawl = await crawlSite(guard, ctx, options.pages, { ...options, fetch: false });
      if (crawl.artifact) artifacts.push(crawl.artifact);
      // A page found is named by its path, as the listed ones are.
      pages = crawl.pages.map((url) => {
        const u = new URL(url);
        return u.origin === guard.baseUrl.origin ? `${u.pathname}${u.search}` : url;
      });
    }
    for (const page of pages) {
      cases.push(...(await timed(`${page}: page answers`, ctx, async () => headerChecks(page, await guardedRequest(guard, page, { signal: ctx.signal })))));
    }
    if (options.login) {
      const login = options.login;
      cases.push(...(await timed(`Login ${login.path} rejects wrong credentials`, ctx, () => loginCheck(guard, login, ctx))));
    }
    for (const path of options.protectedPaths) {
      cases.push(...(await timed(`${path} refuses anonymous access`, ctx, () => protectedCheck(guard, path, ctx))));
    }
    const totals = totalsFromCases(cases);
    artifacts.unshift(await writeJsonArtifact(ctx, 'security-checks/results.json', cases, 'Security checks'));
    return { status: totals.failedTests > 0 ? 'failed' : 'passed', totals, summary: { kind: 'security-checks', cases }, artifacts };
  },
});

/** The name the registry and the runner processes load a kind's runner by. */
export { securityChecksRunner as runner };
