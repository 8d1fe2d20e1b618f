import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuiteProposal } from '@fullstop/contracts';
import { buildTestApp, createTestClient } from '../helpers/app.ts';
import { CLI_BIN, type CliResult } from '../helpers/cli.ts';
import { MEMBER_PAGES, PUBLIC_PAGES, SITE_EMAIL, SITE_PASSWORD, startStarterSite, titleOf, type StarterSite } from '../fixtures/starter-site.ts';
import { importSuite, key, OPERATOR_TOKEN, operator, waitForRunEnd } from './helpers.ts';

// A starter suite from a crawl (docs/starter-suite.md), end to end on a site of our own: 12 public pages with a
// form, and 3 behind a login. Real crawl, real runners, real runs.
//
// The login test's crawls (a client of its own) start in beforeAll and go on while the first test crawls and runs: a
// crawl runs in a runner process beside the engine's workers, not in them, and leaves most of a core free (about 0.7
// of one), so they take little from the rest. The test that breaks pages waits for them first: they never see a
// broken page.

const RUN_TIMEOUT_MS = 15 * 60_000;

interface Proposed {
  proposalId: string;
  version: number;
  current: boolean;
  loggedIn: boolean;
  tests: { name: string; kind: string; group: string }[];
  leftOut: { path: string; reason: string }[];
  notes: string[];
}

interface RunDetail {
  status: string;
  tests: { testName: string; status: string; kind: string }[];
}

/** A page in its tests' names: its title (the site's " | Starter site" left out) and its path, "Post 3 (blog - post-3)". */
const nameOf = (path: string) => `${titleOf(path)} (${path === '/' ? 'home' : path.slice(1).split('/').join(' - ')})`;
/** "Page Post 3 (blog - post-3) ...": the tests named after one page. */
const pageTests = (path: string) => (name: string) => name.startsWith(`Page ${nameOf(path)} `);

describe('a starter suite proposed from a crawl', () => {
  let app: FastifyInstance;
  let server: string;
  let site: StarterSite;
  let clientId: string;
  let proposed: Proposed;
  let loginCrawls: Promise<void> | undefined;

  const cli = (args: string[], input = ''): Promise<CliResult> =>
    new Promise((resolve) => {
      const child = execFile(process.execPath, [CLI_BIN, '--server', server, '--token', OPERATOR_TOKEN, ...args], { timeout: 10 * 60_000 }, (err, stdout, stderr) =>
        resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 }),
      );
      child.stdin!.end(input);
    });

  const tryVersion = async (version: number): Promise<RunDetail> => {
    const tried = await app.inject({ method: 'POST', url: `/operator/clients/${clientId}/suites/${version}/try`, headers: operator });
    expect(tried.statusCode, tried.body).toBe(200);
    const { apiKey } = (await app.inject({ method: 'POST', url: `/operator/clients/${clientId}/reveal-api-key`, headers: operator })).json<{ apiKey: string }>();
    return (await waitForRunEnd(app, apiKey, tried.json<{ runId: string }>().runId, RUN_TIMEOUT_MS)) as RunDetail;
  };

  const propose = async (id: string, body: Record<string, unknown> = {}): Promise<SuiteProposal> => {
    const started = await app.inject({ method: 'POST', url: `/operator/clients/${id}/suites/propose`, headers: operator, payload: body });
    expect(started.statusCode, started.body).toBe(202);
    let state = started.json<SuiteProposal>();
    while (state.status === 'crawling' || state.status === 'writing') {
      await new Promise((r) => setTimeout(r, 250));
      state = (await app.inject({ url: `/operator/clients/${id}/suites/proposals/${state.id}`, headers: operator })).json<SuiteProposal>();
    }
    return state;
  };

  /** The login test, its assertions included: two proposals for a client whose current suite logs in. */
  const followTheLogin = async () => {
    const member = await createTestClient(app, { website: site.url });
    const login = { type: 'form', url: '/login', fields: [{ selector: '#email', value: SITE_EMAIL }, { selector: '#password', value: '{{secret:password}}' }], submit: 'button[type=submit]', success: { url: '**/account' } };
    const imported = await importSuite(app, member.clientId, {
      'suite.json': JSON.stringify({ version: 1, login, groups: [{ name: 'API', tests: [{ name: 'Home answers', kind: 'api', options: { requests: [{ name: 'home', path: '/', expect: { status: 200 } }] } }] }] }),
    });
    expect(imported.statusCode, imported.body).toBe(201);

    // From the CLI, within a page limit of 1 (the site has 12 public pages: a limit not followed proposes them all).
    const result = await cli(['suite', 'propose', '--client', member.clientId, '--pages', '1', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const withoutSecret = JSON.parse(result.stdout) as Proposed;
    expect(withoutSecret).toMatchObject({ version: 2, loggedIn: false });
    expect(withoutSecret.tests.filter((t) => t.kind === 'browser').length).toBeLessThanOrEqual(1);
    expect(withoutSecret.notes.join('\n')).toContain("The suite's login was not followed: its secrets are not all set (password)");
    expect(site.outside.hits).toBe(0);

    const set = await app.inject({ method: 'PUT', url: `/operator/clients/${member.clientId}/secrets/password`, headers: operator, payload: { value: SITE_PASSWORD } });
    expect(set.statusCode).toBe(200);
    site.requested.length = 0;
    const loggedIn = await propose(member.clientId, { maxPages: 30, makeCurrent: true });
    expect(loggedIn.status, loggedIn.message).toBe('done');
    expect(loggedIn).toMatchObject({ loggedIn: true, current: true, version: 3 });
    const names = loggedIn.tests.map((t) => t.name);
    for (const path of MEMBER_PAGES) expect(names).toContain(`Page ${nameOf(path)} loads cleanly`);
    expect(site.requested).not.toContain('/logout');
    // The proposed suite logs in as the current one did; the secret's value is in none of its files.
    const suiteJson = (await app.inject({ url: `/operator/clients/${member.clientId}/suites/3/file?path=suite.json`, headers: operator })).json<{ content: string }>().content;
    expect(JSON.parse(suiteJson).login).toMatchObject(login);
    expect(suiteJson).not.toContain(SITE_PASSWORD);
    const versions = (await app.inject({ url: `/operator/clients/${member.clientId}/suites`, headers: operator })).json<{ versions: { version: number; current: boolean; importedBy: string }[] }>();
    expect(versions.versions.find((v) => v.current)?.version).toBe(3);
    expect(versions.versions[0]!.importedBy).toContain('crawl proposal');
  };

  beforeAll(async () => {
    site = await startStarterSite();
    // Two workers, started by the server itself as ENGINE_WORKERS says: with them its warm runner (a runner process
    // forked and loaded while the previous test runs), as a deployed server has. The light lane (0.5, a deployed
    // server's default) takes the light tests (the paced load test, the security checks) beside the heavier ones.
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true, ENGINE_WORKERS: 2, ENGINE_LIGHT_LANE: 0.5 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    loginCrawls = followTheLogin();
    // Its failure is this file's login test's, reported there.
    loginCrawls.catch(() => undefined);
  }, 60_000);
  afterAll(async () => {
    await loginCrawls?.catch(() => undefined);
    await app?.close();
    await site?.close();
  });

  it('from `client create` to a first full report: every proposed test passes on the unchanged site', async () => {
    const started = performance.now();
    const created = await cli(['client', 'create', '--name', 'Starter Site', '--website', site.url, '--email', 'owner@starter.test', '--password', 'a long password 1', '--json']);
    expect(created.code, created.stderr).toBe(0);
    clientId = JSON.parse(created.stdout).clientId;

    const result = await cli(['suite', 'propose', '--client', clientId, '--json']);
    expect(result.code, result.stderr).toBe(0);
    proposed = JSON.parse(result.stdout) as Proposed;
    const proposedMs = performance.now() - started;
    expect(proposed).toMatchObject({ version: 1, current: false, loggedIn: false });
    const names = proposed.tests.map((t) => t.name);

    // Per page found: a smoke test and an accessibility test, named after it.
    for (const path of PUBLIC_PAGES) {
      expect(names, path).toContain(`Page ${nameOf(path)} loads cleanly`);
      expect(names, path).toContain(`Page ${nameOf(path)} is accessible`);
    }
    const byKind = (kind: string) => proposed.tests.filter((t) => t.kind === kind).map((t) => t.name);
    expect(byKind('browser')).toHaveLength(PUBLIC_PAGES.length);
    expect(byKind('accessibility')).toHaveLength(PUBLIC_PAGES.length);
    // Lighthouse on the 3 most linked pages, the home page first; a load test; the security checks and a passive scan.
    expect(byKind('lighthouse')).toHaveLength(3);
    expect(byKind('lighthouse')[0]).toBe('Page Home (home) Lighthouse');
    expect(byKind('load')).toEqual(['Home page under light load']);
    expect(byKind('security-checks')).toEqual(['Security checks']);
    expect(byKind('security-scan')).toEqual(['Passive security scan']);
    // Visual tests of the top pages, unless this server refuses the kind (then the proposal says so).
    const visualServed = !proposed.notes.some((n) => n.startsWith('No visual tests'));
    if (!visualServed) expect(byKind('visual')).toEqual([]);
    else expect(byKind('visual')).toHaveLength(3);

    // Within the target policy: the other origin every page links to was never reached; no page behind the login.
    expect(site.outside.hits).toBe(0);
    for (const path of MEMBER_PAGES) expect(names).not.toContain(`Page ${nameOf(path)} loads cleanly`);

    // What the operator reviews: plain suite JSON and readable Playwright.
    const file = (path: string) => app.inject({ url: `/operator/clients/${clientId}/suites/1/file?path=${encodeURIComponent(path)}`, headers: operator }).then((r) => r.json<{ content: string }>().content);
    const manifest = JSON.parse(await file('suite.json'));
    const load = manifest.groups.flatMap((g: { tests: { kind: string; thresholds?: { maxP95Ms: number } }[] }) => g.tests).find((t: { kind: string }) => t.kind === 'load');
    expect(load.thresholds.maxP95Ms).toBeGreaterThanOrEqual(500);
    // The load test asks for the home page and the data call it makes, at a light pace.
    expect(load.options).toEqual({ requests: [{ path: '/' }, { path: '/api/latest' }], connections: 5, rate: 10, durationSeconds: 10 });
    expect(proposed.notes.join('\n')).not.toContain('document only');
    expect(await file('specs/pages/pricing.spec.ts')).toContain("test(\"Page Pricing (/pricing) loads cleanly\", async ({ page }) => {\n  await expectPageLoadsCleanly(page, \"/pricing\");");
    // The home page says how long ago it was updated, another number on every load: its visual test masks that line.
    if (visualServed) {
      const home = manifest.groups.flatMap((g: { tests: { name: string; options: { mask?: string[] } }[] }) => g.tests).find((t: { name: string }) => t.name === 'Page Home (home) looks the same');
      expect(home.options.mask).toEqual([expect.stringMatching(/^\.updated-ago/)]);
    }

    const run = await tryVersion(1);
    const firstReportMs = performance.now() - started;
    const failed = run.tests.filter((t) => t.status !== 'passed').map((t) => `${t.testName}: ${t.status}`);
    expect(failed).toEqual([]);
    expect(run.tests).toHaveLength(proposed.tests.length);
    console.log(`starter suite: proposed in ${Math.round(proposedMs / 1000)} s; first full report (${run.tests.length} tests) ${Math.round(firstReportMs / 1000)} s after client create`);
  }, RUN_TIMEOUT_MS);

  it('refuses a page limit over 100, from the CLI and the API', async () => {
    const tooMany = await cli(['suite', 'propose', '--client', clientId, '--pages', '101']);
    expect(tooMany.code).not.toBe(0);
    expect(tooMany.stderr).toContain('--pages must be a whole number from 1 to 100');
    const refused = await app.inject({ method: 'POST', url: `/operator/clients/${clientId}/suites/propose`, headers: operator, payload: { maxPages: 101 } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('maxPages must be at most 100');
  });

  it('breaking one page (a 500, a console error, a missing image) fails exactly that page’s tests', async () => {
    expect(proposed, 'the first test proposed the suite').toBeDefined();
    // The page tests of the three pages to break and of three others, as an operator's version 2: Lighthouse, visual,
    // load and scan tests of the top pages and the site passed in the first run, and no broken page is among them;
    // every other page's tests passed there too.
    const manifest = JSON.parse((await app.inject({ url: `/operator/clients/${clientId}/suites/1/file?path=suite.json`, headers: operator })).json<{ content: string }>().content) as {
      groups: { name: string; tests: { kind: string; name: string }[] }[];
    };
    const files: Record<string, string> = {};
    for (const f of (await app.inject({ url: `/operator/clients/${clientId}/suites/1/files`, headers: operator })).json<{ files: { path: string }[] }>().files) {
      files[f.path] = (await app.inject({ url: `/operator/clients/${clientId}/suites/1/file?path=${encodeURIComponent(f.path)}`, headers: operator })).json<{ content: string }>().content;
    }
    const broken = ['/blog/post-3', '/docs/page-2', '/blog/post-2'];
    const brokenPages = broken.map(pageTests);
    const others = ['/', '/blog/post-1', '/docs/page-1'].map(pageTests);
    // The smoke tests of the six pages; the accessibility tests of the three others and of the page that answers 500
    // (what the other two broken pages' accessibility tests do is asserted nowhere: not run).
    const kept = (t: { kind: string; name: string }) =>
      (t.kind === 'browser' && [...brokenPages, ...others].some((ofPage) => ofPage(t.name))) || (t.kind === 'accessibility' && [pageTests('/blog/post-3'), ...others].some((ofPage) => ofPage(t.name)));
    manifest.groups = manifest.groups.map((g) => ({ ...g, tests: g.tests.filter(kept) })).filter((g) => g.tests.length > 0);
    const tests = manifest.groups.flatMap((g) => g.tests);
    expect(tests).toHaveLength(6 + 4);
    files['suite.json'] = JSON.stringify(manifest);
    const imported = await importSuite(app, clientId, files);
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json<{ version: number }>().version).toBe(2);

    // The login test's crawls are over before any page breaks.
    await loginCrawls?.catch(() => undefined);
    site.breakPage('/blog/post-3', '500');
    site.breakPage('/docs/page-2', 'console-error');
    site.breakPage('/blog/post-2', 'missing-image');
    try {
      const run = await tryVersion(2);
      expect(run.tests.map((t) => t.testName).sort()).toEqual(tests.map((t) => t.name).sort());
      const failed = run.tests.filter((t) => t.status !== 'passed').map((t) => t.testName);
      // Each broken page's smoke test fails; nothing of the other pages does.
      for (const path of broken) expect(failed).toContain(`Page ${nameOf(path)} loads cleanly`);
      expect(failed.filter((name) => !brokenPages.some((ofPage) => ofPage(name)))).toEqual([]);
      // A page that answers 500 is not accessible either.
      expect(failed).toContain('Page Post 3 (blog - post-3) is accessible');
    } finally {
      site.repair();
    }
  }, RUN_TIMEOUT_MS);

  it('follows the suite’s login where its secrets are set, and never loads the logout link', async () => {
    // Started in beforeAll (its assertions run there and fail this test): here once they have all passed.
    await (loginCrawls ??= followTheLogin());
  }, RUN_TIMEOUT_MS);

  it('is for operators only; a proposal is found under its own client only', async () => {
    const other = await createTestClient(app, { website: site.url });
    const asClient = await app.inject({ method: 'POST', url: `/operator/clients/${other.clientId}/suites/propose`, headers: key(other), payload: {} });
    expect(asClient.statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: `/operator/clients/${other.clientId}/suites/propose`, payload: {} })).statusCode).toBe(401);
    const unknown = await app.inject({ method: 'POST', url: '/operator/clients/no-such-client/suites/propose', headers: operator, payload: {} });
    expect(unknown.statusCode).toBe(404);
    const mine = await app.inject({ url: `/operator/clients/${clientId}/suites/proposals/${proposed.proposalId}`, headers: operator });
    expect(mine.statusCode).toBe(200);
    const elsewhere = await app.inject({ url: `/operator/clients/${other.clientId}/suites/proposals/${proposed.proposalId}`, headers: operator });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().message).toBe('Proposal not found');
  });
});
