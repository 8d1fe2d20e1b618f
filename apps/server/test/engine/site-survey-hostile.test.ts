import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Runner, RunContext, TestKind } from '@fullstop/engine';
import { SITE_SURVEY_MODULE, SiteSurvey, SURVEY_FILE, SURVEY_KIND } from '@fullstop/engine/survey';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAttemptJson } from '@fullstop/engine/attempt-file';
import { writeStarterSuite } from '../../src/features/suites/suite-proposal.ts';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';

// The site survey's runner on a page that lies about itself from its own scripts (issue 37): what it measured is
// the page as it is, and the spec proposed from it carries what the page said in comments and strings only. The
// data calls it makes are kept as what they ask, never a value: no query value, body value, cookie or header.
// One page, one crawl: a few seconds of Chromium.

/** The page's scripts redefine what an in-page measure would read; it also logs an error made to end a comment. */
const HOSTILE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hostile page</title></head><body>
<main><h1>Hostile heading</h1>
<form action="/a"><label>Q <input name="q"></label></form><form action="/b"></form>
<img src="/gone\u2028.png" alt="gone">
<a href="/#top">Top</a> <a href="javascript:globalThis.pwned=1">Run</a>
</main>
<script>
Object.defineProperty(document, 'forms', { get: () => ({ length: "0\\u2028;globalThis.pwned=1//" }) });
Object.defineProperty(document, 'title', { get: () => ({ pwned: true }), set: () => {} });
Object.defineProperty(document, 'images', { get: () => ({ length: "1\\u2029globalThis.pwned=1//" }) });
console.error("widget failed\\u2028globalThis.pwned=1//");
document.cookie = 'sid=COOKIE-VALUE-9';
fetch('/api/items?token=QUERY-SECRET-7&page=2');
fetch('/api/stats');
fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'HEADER-SECRET-5' }, body: JSON.stringify({ email: 'a@b.c', password: 'BODY-SECRET-3' }) });
</script>
</body></html>`;

describe('the site survey on a page that lies about itself', () => {
  let url: string;
  const server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HOSTILE_PAGE);
    else if (req.url?.startsWith('/api/')) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  let runDir: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    runDir = await mkdtemp(path.join(tmpdir(), 'fullstop-survey-hostile-'));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    if (runDir) await rm(runDir, { recursive: true, force: true });
  });

  it('measures the page as it is, and the proposed spec holds no code of the page', async () => {
    const { runners } = (await import(pathToFileURL(SITE_SURVEY_MODULE).href)) as { runners: Partial<Record<TestKind, Runner>> };
    const logs: string[] = [];
    const ctx: RunContext = {
      runDir,
      signal: new AbortController().signal,
      chromiumPath: process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH,
      workers: 1,
      log: (message, data) => logs.push(data ? `${message} ${JSON.stringify(data)}` : message),
    };
    const result = await runners[SURVEY_KIND]!.run(
      { name: 'Site survey', group: 'Proposal', kind: SURVEY_KIND, options: { maxPages: 1, crawlSeconds: 30, exclude: [] } },
      { baseUrl: url, allowedOrigins: [], allowPrivateAddresses: true },
      ctx,
    );
    expect(result.error, logs.join('\n')).toBeUndefined();

    // survey.json as the server reads it: through the attempt-file reader and the survey's schema.
    const survey = await readAttemptJson(path.join(runDir, SURVEY_FILE), SiteSurvey);
    expect(survey.pages).toHaveLength(1);
    const [home] = survey.pages;
    expect(home).toMatchObject({ path: '/', status: 200, html: true, title: 'Hostile page', heading: 'Hostile heading', forms: 2, images: 1, main: true });
    expect(home!.consoleErrors).toContain('widget failed\u2028globalThis.pwned=1//');
    expect(home!.broken.some((b) => b.includes('/gone'))).toBe(true);
    // Links as Node reads them: http(s) only, without their fragment.
    expect(home!.links).toEqual(['/']);
    // Its data calls: what each asked and how it answered, never a value it sent.
    expect(home!.calls.map(({ ms: _ms, ...c }) => c)).toEqual([
      { method: 'GET', path: '/api/items', query: ['token', 'page'], status: 200 },
      { method: 'GET', path: '/api/stats', query: [], status: 200 },
      { method: 'POST', path: '/api/login', query: [], json: { email: 'string', password: 'string' }, status: 200 },
    ]);
    for (const c of home!.calls) expect(c.ms).toBeGreaterThanOrEqual(0);
    const written = await readFile(path.join(runDir, SURVEY_FILE), 'utf8');
    for (const secret of ['COOKIE-VALUE-9', 'QUERY-SECRET-7', 'HEADER-SECRET-5', 'BODY-SECRET-3', 'a@b.c']) expect(written).not.toContain(secret);

    // The spec: "pwned" is in comments only, never an identifier of its code.
    const suite = writeStarterSuite(survey, { visual: false, clientName: 'Hostile', date: '2026-11-26' });
    const spec = suite.files.get('specs/pages/home.spec.ts')!.toString('utf8');
    expect(spec).toContain('pwned');
    const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, spec);
    const identifiers: string[] = [];
    for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
      if (token === ts.SyntaxKind.Identifier) identifiers.push(scanner.getTokenText());
    }
    expect(identifiers).not.toContain('pwned');
    expect(identifiers).not.toContain('globalThis');
    // Its console error and broken image turn their checks off, each with what the survey saw, as a string.
    expect(spec).toMatch(/await expectPageLoadsCleanly\(page, "\/", \{\n {4}off: \{\n {6}consoleErrors: "console errors on load when the survey ran \(2026-11-26\): \\"widget failed globalThis\.pwned=1\/\/\\"( and \d+ more)?\. Reported to you in the proposal/);
    expect(spec).toMatch(/\n {6}brokenLinks: "broken links or images when the survey ran \(2026-11-26\): \\"[^\n]*\/gone[^\n]*",\n {4}},\n {2}}\);/);
    // The load test asks for the page and its one GET call without a query.
    const manifest = JSON.parse(suite.files.get('suite.json')!.toString('utf8')) as { groups: { tests: { kind: string; options: { requests: unknown } }[] }[] };
    expect(manifest.groups.flatMap((g) => g.tests).find((t) => t.kind === 'load')?.options.requests).toEqual([{ path: '/' }, { path: '/api/stats' }]);
  }, 180_000);
});
