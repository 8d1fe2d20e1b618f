import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuiteProposal } from '@fullstop/contracts';
import { buildTestApp, createTestClient, type TestClient } from '../helpers/app.ts';
import { startStarterSite, type StarterSite } from '../fixtures/starter-site.ts';
import { importSuite, OPERATOR_TOKEN, operator, waitForRunEnd } from './helpers.ts';

// A re-crawl proposes a patch of the current suite (decision 0102), end to end on the starter site: a first proposal
// made current, then an operator's version on top of it (a hand-written test with a file of its own, a proposed spec
// edited, the proposed Lighthouse and visual tests taken out), the site changed (a page added, one gone), a second
// proposal. Real crawls and a real trial run; 3 pages a crawl, and no Lighthouse, visual, load test or passive scan in
// the trial run, so that it stays short. 8.5 min at a load average of 6-16 from other sessions with the load test and
// the scan in the trial run: the two proposals 276 s (each survey looks twice at its 3 pages), the trial run of 10 tests
// 235 s.

const RUN_TIMEOUT_MS = 15 * 60_000;
const PAGES = 3;
const ADDED = '/careers';

interface Manifest {
  groups: { name: string; tests: { name: string; kind: string; proposed?: { page?: string } }[] }[];
}

describe('a re-crawl proposes a patch of the current suite', () => {
  let app: FastifyInstance;
  let site: StarterSite;
  let client: TestClient;

  const propose = async (body: Record<string, unknown>): Promise<SuiteProposal> => {
    const started = await app.inject({ method: 'POST', url: `/operator/clients/${client.clientId}/suites/propose`, headers: operator, payload: body });
    expect(started.statusCode, started.body).toBe(202);
    let state = started.json<SuiteProposal>();
    while (state.status === 'crawling' || state.status === 'writing') {
      await new Promise((r) => setTimeout(r, 250));
      state = (await app.inject({ url: `/operator/clients/${client.clientId}/suites/proposals/${state.id}`, headers: operator })).json<SuiteProposal>();
    }
    expect(state.status, state.message).toBe('done');
    return state;
  };
  const filesOf = async (version: number): Promise<Map<string, string>> => {
    const list = (await app.inject({ url: `/operator/clients/${client.clientId}/suites/${version}/files`, headers: operator })).json<{ files: { path: string }[] }>().files;
    const files = new Map<string, string>();
    for (const f of list) {
      const res = await app.inject({ url: `/operator/clients/${client.clientId}/suites/${version}/file?path=${encodeURIComponent(f.path)}`, headers: operator });
      files.set(f.path, res.json<{ content: string }>().content);
    }
    return files;
  };

  beforeAll(async () => {
    site = await startStarterSite();
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true } });
    await app.engine.startWorkers(2);
    client = await createTestClient(app, { website: site.url });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await site?.close();
  });

  it('keeps the hand-written test and every file of it, adds the new page’s tests, removes the gone page’s with the evidence; its trial run passes', async () => {
    const started = performance.now();
    // v1: the first proposal, a whole suite, made current.
    const first = await propose({ maxPages: PAGES, makeCurrent: true });
    expect(first).toMatchObject({ version: 1, current: true, patch: null });
    const v1 = await filesOf(1);
    const pagesOf = (files: Map<string, string>) => [...new Set((JSON.parse(files.get('suite.json')!) as Manifest).groups.flatMap((g) => g.tests.flatMap((t) => (t.proposed?.page ? [t.proposed.page] : []))))];
    const tested = pagesOf(v1);
    expect(tested).toHaveLength(PAGES);
    // The page that will be gone: the last one tested; the one an operator edits: another that is not the home page.
    const gonePage = tested.at(-1)!;
    const editedPage = tested.find((p) => p !== '/' && p !== gonePage)!;

    // v2: an operator adds a hand-written test with a file of its own, edits a proposed page's spec, and takes the
    // proposed Lighthouse and visual tests out (so the patch proposes none for the new page either), and the load test
    // and the passive scan (site-wide: a patch neither adds nor removes them; out, the trial run takes a minute, not four).
    const manifest = JSON.parse(v1.get('suite.json')!) as Manifest & Record<string, unknown>;
    const kept = (kind: string) => !['lighthouse', 'visual', 'load', 'security-scan'].includes(kind);
    manifest.groups = manifest.groups.map((g) => ({ ...g, tests: g.tests.filter((t) => kept(t.kind)) })).filter((g) => g.tests.length > 0);
    manifest.groups.push({ name: 'Health', tests: [{ name: 'Health', kind: 'api', options: { requests: [{ name: 'home', path: '/', expect: { status: 200 } }] } } as never] });
    const edited = [...v1.keys()].find((f) => f.startsWith('specs/pages/') && v1.get(f)!.includes(`"${editedPage}"`))!;
    const v2Files = Object.fromEntries(v1);
    v2Files['suite.json'] = `${JSON.stringify(manifest, null, 2)}\n`;
    v2Files['docs/health.md'] = '# Health\n\nWritten by hand: the home page answers.\n';
    v2Files[edited] = `${v1.get(edited)}// Edited by hand: checked with the client on 2026-11-29.\n`;
    const imported = await importSuite(app, client.clientId, v2Files);
    expect(imported.statusCode, imported.body).toBe(201);
    const v2 = await filesOf(2);

    // The site changes: a page added (linked first after Home), a page gone.
    site.addPage(ADDED);
    site.removePage(gonePage);
    const second = await propose({ maxPages: PAGES });
    expect(second).toMatchObject({ version: 3, current: false });
    expect(second.patch).not.toBeNull();
    const patch = second.patch!;
    expect(patch.base).toBe(2);
    expect(new Set(patch.added.map((a) => a.page))).toEqual(new Set([ADDED]));
    expect(patch.added.map((a) => a.kind)).toEqual(['browser', 'accessibility']);
    expect(patch.removed.map((r) => r.kind)).toEqual(['browser', 'accessibility']);
    for (const r of patch.removed) {
      expect(r.page).toBe(gonePage);
      expect(r.evidence).toMatch(new RegExp(`^${gonePage.replace(/[/.]/g, '\\$&')} answered 404 twice, at \\d\\d:\\d\\d:\\d\\d and \\d\\d:\\d\\d:\\d\\d UTC$`));
    }
    expect(second.message).toContain(`Adds 2 tests for ${ADDED}, removes 2 tests of ${gonePage} (${patch.removed[0]!.evidence}); keeps ${patch.kept} tests as they are.`);

    // Every file of v2 is in v3 as it was, but the gone page's spec, the helper's list and suite.json.
    const v3 = await filesOf(3);
    const goneSpec = [...v2.keys()].find((f) => f.startsWith('specs/pages/') && v2.get(f)!.includes(`expectPageLoadsCleanly(page, "${gonePage}"`))!;
    for (const [path, content] of v2) {
      if (path === goneSpec) expect(v3.has(path), path).toBe(false);
      else if (path !== 'suite.json' && path !== 'specs/page-checks.ts') expect(v3.get(path), path).toBe(content);
    }
    expect(v3.get(edited)).toBe(v2.get(edited));
    expect(v3.get('docs/health.md')).toBe(v2Files['docs/health.md']);
    // The hand-written test, as it was; the gone page's tests gone; the new page's there.
    const tests = (JSON.parse(v3.get('suite.json')!) as Manifest).groups.flatMap((g) => g.tests);
    const v2Tests = (JSON.parse(v2.get('suite.json')!) as Manifest).groups.flatMap((g) => g.tests);
    expect(tests.find((t) => t.name === 'Health')).toEqual(v2Tests.find((t) => t.name === 'Health'));
    expect(tests.filter((t) => t.proposed?.page === gonePage)).toEqual([]);
    expect(tests.filter((t) => t.proposed?.page === ADDED).map((t) => t.name)).toEqual(patch.added.map((a) => a.name));
    expect(tests).toHaveLength(patch.kept + patch.added.length);
    expect(v3.get('specs/page-checks.ts')).toContain(`"${ADDED}"`);
    expect(v3.get('specs/page-checks.ts')).not.toContain(`"${gonePage}"`);
    const proposedMs = performance.now() - started;

    // Its trial run passes on the changed site.
    const tried = await app.inject({ method: 'POST', url: `/operator/clients/${client.clientId}/suites/3/try`, headers: operator });
    expect(tried.statusCode, tried.body).toBe(200);
    const run = (await waitForRunEnd(app, client.apiKey, tried.json<{ runId: string }>().runId, RUN_TIMEOUT_MS)) as { tests: { testName: string; status: string }[] };
    expect(run.tests.filter((t) => t.status !== 'passed').map((t) => `${t.testName}: ${t.status}`)).toEqual([]);
    expect(run.tests).toHaveLength(tests.length);
    console.log(`starter update: two proposals and an import in ${Math.round(proposedMs / 1000)} s, the trial run of ${run.tests.length} tests ${Math.round((performance.now() - started - proposedMs) / 1000)} s`);
  }, RUN_TIMEOUT_MS);
});
