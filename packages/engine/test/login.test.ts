import { execFileSync } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MASK } from '../src/lib/mask-secrets.ts';
import { runInSandbox } from '../src/sandbox/index.ts';
import type { LoginDeclaration } from '../src/suite/login-declaration.ts';
import type { RunnerResult, TestDefinition, TestKind } from '../src/types.ts';
import { ACCOUNT_HEADING, LOGIN_SECRETS, startLoginServer } from './fixtures/login-server.ts';
import { serverForSuite, suiteCopyForSuite } from './fixtures/suite-server.ts';
import { CHROMIUM_PATH, localTarget, makeContext } from './helpers.ts';

const FORM_LOGIN: LoginDeclaration = {
  type: 'form',
  url: '/login',
  fields: [
    { selector: '#email', value: 'alice@example.com' },
    { selector: '#password', value: '{{secret:password}}' },
  ],
  submit: '#submit',
  success: { url: '**/account', selector: 'h1:has-text("Welcome back")' },
  timeoutMs: 30_000,
};
const HEADER_LOGIN: LoginDeclaration = { type: 'header', headers: { Authorization: 'Bearer {{secret:token}}' } };
const COOKIE_LOGIN: LoginDeclaration = { type: 'cookie', cookies: { session: '{{ secret:session }}' } };

/** Every form in which a secret could sit in a file: as is, URL-encoded, in base64. */
function leakForms(): string[] {
  return Object.values(LOGIN_SECRETS).flatMap((v) => [v, encodeURIComponent(v), Buffer.from(v).toString('base64')]);
}

/** The text of every file of the run folder, each zip's entries unzipped (traces), zips inlined in HTML decoded. */
async function everyFileText(dir: string): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  const unzip = async (file: string, label: string) => {
    const text = execFileSync('unzip', ['-p', file], { maxBuffer: 512 * 1024 * 1024 }).toString('latin1');
    out.push({ file: `${label} (unzipped)`, text });
  };
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const buf = await readFile(file);
    out.push({ file, text: buf.toString('latin1') });
    if (buf.subarray(0, 2).toString() === 'PK') await unzip(file, file);
    for (const m of buf.toString('latin1').matchAll(/data:application\/zip;base64,([A-Za-z0-9+/=]+)/g)) {
      const inner = path.join(dir, '..', `inline-${out.length}.zip`);
      await writeFile(inner, Buffer.from(m[1]!, 'base64'));
      await unzip(inner, `${file} inline zip`);
      await rm(inner);
    }
  }
  return out;
}

async function expectNoSecret(dir: string): Promise<{ file: string; text: string }[]> {
  const files = await everyFileText(dir);
  expect(files.length).toBeGreaterThan(0);
  for (const { file, text } of files) {
    for (const form of leakForms()) expect(text.includes(form), `${form} in ${file}`).toBe(false);
  }
  return files;
}

describe('tests behind a login', () => {
  const server = serverForSuite(startLoginServer);
  const suite = suiteCopyForSuite('login-suite');

  /** One attempt in its runner process, as the server runs it: the secrets travel in the run request. */
  async function runLoggedIn(kind: TestKind, options: Record<string, unknown>, login: LoginDeclaration, secrets: Record<string, string> = LOGIN_SECRETS) {
    const ctx = await makeContext();
    const logs: string[] = [];
    const test: TestDefinition = { name: `${kind} logged in`, group: 'Login', kind, options, login, suiteDir: suite.dir };
    const result: RunnerResult = await runInSandbox({
      test,
      target: localTarget(server.url),
      ctx: { runDir: ctx.runDir, chromiumPath: CHROMIUM_PATH, workers: 1, signal: ctx.signal, log: (m, d) => logs.push(`${m} ${d ? JSON.stringify(d) : ''}`) },
      limits: { timeSeconds: 180, memoryMb: 2048 },
      attemptKey: `login-${kind}-${process.pid}-${Math.random().toString(36).slice(2)}`,
      secrets,
    });
    await writeFile(path.join(ctx.runDir, 'attempt.log'), logs.join('\n'));
    await writeFile(path.join(ctx.runDir, 'result.json'), JSON.stringify(result));
    return { result, runDir: ctx.runDir, logs };
  }

  it('runs api tests after a form login, with the session the form set', async () => {
    const before = server.loggedIn.get('/api/me') ?? 0;
    const { result, runDir, logs } = await runLoggedIn('api', { requests: [{ path: '/api/me', expect: { status: 200, json: { user: 'alice' } } }] }, FORM_LOGIN);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('passed');
    expect(server.loggedIn.get('/api/me')).toBe(before + 1);
    expect(logs.join('\n')).toContain('logged in');
    await expectNoSecret(runDir);
  });

  it('runs accessibility and security checks on the page behind the form login', async () => {
    const before = server.loggedIn.get('/account') ?? 0;
    const a11y = await runLoggedIn('accessibility', { pages: ['/account'] }, FORM_LOGIN);
    expect(a11y.result.error).toBeUndefined();
    expect(a11y.result.summary.kind).toBe('accessibility');
    // The form login lands on the account page once; axe's visit is the second one the site answered logged in
    // (a visitor without the session is sent to /login instead).
    const afterA11y = server.loggedIn.get('/account') ?? 0;
    expect(afterA11y).toBe(before + 2);
    await expectNoSecret(a11y.runDir);

    const checks = await runLoggedIn('security-checks', { pages: ['/account'], requireHttps: false, protectedPaths: ['/account'] }, FORM_LOGIN);
    expect(checks.result.error).toBeUndefined();
    // The site answered its account page to the checks' requests as logged in.
    expect(server.loggedIn.get('/account') ?? 0).toBeGreaterThanOrEqual(afterA11y + 2);
    const cases = checks.result.summary.kind === 'security-checks' ? checks.result.summary.cases : [];
    // Anonymous-access checks stay anonymous: the account page still refuses a visitor without the login.
    expect(cases.find((c) => c.name === '/account refuses anonymous access')?.status).toBe('passed');
    await expectNoSecret(checks.runDir);
  });

  it('runs a Playwright suite with a header login, and masks the token in its trace', async () => {
    const { result, runDir } = await runLoggedIn('browser', { specs: ['account.spec.ts', 'failing.spec.ts'], retries: 0 }, HEADER_LOGIN);
    expect(result.error).toBeUndefined();
    expect(result.totals).toMatchObject({ totalTests: 2, passedTests: 1, failedTests: 1 });
    const cases = result.summary.kind === 'browser' ? result.summary.cases : [];
    expect(cases.find((c) => c.name.includes('greets'))?.status).toBe('passed');
    const failed = cases.find((c) => c.name.includes('does not exist'));
    // It failed on the account page's content, after the heading was found: the page behind the login was reached.
    expect(failed?.error).toContain('Platinum');
    expect(failed?.trace).toBeTruthy();
    const files = await expectNoSecret(runDir);
    const trace = files.find((f) => f.file.startsWith(path.join(runDir, failed!.trace!)) && f.file.endsWith('(unzipped)'));
    expect(trace, 'the trace was unzipped').toBeDefined();
    expect(trace!.text.includes(ACCOUNT_HEADING), 'the trace shows the account page').toBe(true);
    // The trace recorded the Authorization header the context sent; what remains is the mask.
    expect(trace!.text.includes(`{"name":"Authorization","value":"${Buffer.from(MASK).toString('latin1')}"}`), 'the header is masked').toBe(true);
  });

  it('runs a Playwright suite after a form login: its tests start with the session cookie', async () => {
    const before = server.loggedIn.get('/account') ?? 0;
    const { result, runDir } = await runLoggedIn('browser', { specs: 'account.spec.ts', retries: 0 }, FORM_LOGIN);
    expect(result.error).toBeUndefined();
    expect(result.totals).toMatchObject({ totalTests: 1, passedTests: 1 });
    // The login's landing and the spec's own visit.
    expect(server.loggedIn.get('/account')).toBe(before + 2);
    const config = await readFile(path.join(runDir, 'browser', 'playwright.config.mjs'), 'utf8');
    // The session the form set reached the config as a cookie, and was masked with the rest.
    expect(config).toContain(`"name": "sid"`);
    expect(config).toContain(`"value": "${MASK}"`);
    await expectNoSecret(runDir);
  });

  it('runs api tests with a cookie login', async () => {
    const { result, runDir } = await runLoggedIn('api', { requests: [{ path: '/api/me', expect: { status: 200, json: { plan: 'gold' } } }] }, COOKIE_LOGIN);
    expect(result.status).toBe('passed');
    await expectNoSecret(runDir);
  });

  it('runs a load test logged in: every request the site counted carries the token', async () => {
    const before = server.loggedIn.get('/api/me') ?? 0;
    const { result, runDir } = await runLoggedIn('load', { requests: [{ path: '/api/me' }], connections: 2, durationSeconds: 1 }, HEADER_LOGIN);
    expect(result.error).toBeUndefined();
    const served = (server.loggedIn.get('/api/me') ?? 0) - before;
    expect(served).toBeGreaterThan(0);
    // No 401: each request the load test sent was answered as the logged-in user.
    const load = result.summary.kind === 'load' ? result.summary.load : undefined;
    expect(load?.successfulRequests).toBeGreaterThan(0);
    expect(load?.failedRequestsCount).toBe(0);
    await expectNoSecret(runDir);
  });

  it('runs Lighthouse logged in with a cookie login', async () => {
    const agents = server.loggedInAgents.length;
    const { result, runDir } = await runLoggedIn('lighthouse', { pages: ['/account'] }, COOKIE_LOGIN);
    expect(result.error).toBeUndefined();
    // Lighthouse's Chrome asked for the account page with the session cookie, and got it.
    expect(server.loggedInAgents.slice(agents).some((ua) => ua.includes('Chrome'))).toBe(true);
    await expectNoSecret(runDir);
  });

  it('runs the security scan logged in: wapiti sends the token with its requests', async () => {
    const agents = server.loggedInAgents.length;
    // A parameter to attack: a scan with nothing to attack is not a pass (decision 0095).
    const { result, runDir } = await runLoggedIn('security-scan', { pages: ['/account?tab=orders'], crawl: false, modules: ['redirect'], depth: 0, maxScanSeconds: 20 }, HEADER_LOGIN);
    expect(result.error).toBeUndefined();
    // wapiti's own User-Agent (Firefox 45) on requests the site answered logged in.
    expect(server.loggedInAgents.slice(agents).some((ua) => ua.includes('Firefox/45.0'))).toBe(true);
    await expectNoSecret(runDir);
  });

  it('ends as a login error, without the password, when the form login fails', async () => {
    const { result, runDir } = await runLoggedIn('api', { requests: [{ path: '/api/me' }] }, { ...FORM_LOGIN, timeoutMs: 5000 }, { ...LOGIN_SECRETS, password: 'wrong password 123' });
    expect(result.status).toBe('error');
    expect(result.errorCode).toBe('login_failed');
    expect(result.error).toContain('did not succeed');
    expect(result.error).toContain('/login');
    expect(result.error).not.toContain('wrong password 123');
    await expectNoSecret(runDir);
  });

  it('refuses to run when a secret the login names is not set, naming it', async () => {
    const { result } = await runLoggedIn('api', { requests: [{ path: '/api/me' }] }, HEADER_LOGIN, {});
    expect(result.status).toBe('error');
    expect(result.errorCode).toBe('validation_error');
    expect(result.error).toContain('"token"');
    expect(result.error).toContain('fullstop secrets set');
  });
});
