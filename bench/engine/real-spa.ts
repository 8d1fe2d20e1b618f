/**
 * Truth on a real single-page app (issue 38; figures, never pass/fail): the site survey of an open-source SPA we did
 * not write, on an idle machine and with two busy loops (`node -e 'for(;;){}'`, one per core of this machine), and
 * how many of its verdicts differ from one survey to the next. The goal is none: what a starter suite proposes must
 * depend on the site, not on the machine's load.
 *
 * The app: Swagger UI (swagger-ui-dist 5.21, the copy @fastify/swagger-ui vendors in node_modules: nothing is
 * installed or downloaded), served from a temporary folder with an OpenAPI document of three tags and eight
 * operations, answered 300 ms late (its views render after their data, as issue 38's app did). Deep linking is on,
 * so its views are hash routes (`/#/pet`, `/#/store/getInventory`): pages of their own for the survey.
 *
 * Each survey (the engine's runner, in this process, through the policy proxy) is compared with the first on:
 * - the page list the starter suite would test (proposed-pages.ts `pagesToTest`) and its top pages (`topPages`);
 * - each page's verdicts: status, HTML, the main landmark, console errors or broken resources seen (they turn a
 *   smoke check off), axe's serious and critical rules (left out of its accessibility test), and what its visual
 *   test would mask (changing-elements.ts: masks, full page or screen, unstable).
 * Per survey: wall time and CPU-seconds (this process and the Chromium it reaps; the busy loops are not counted).
 *
 *   npm run bench:real-spa      (BENCH_ROUNDS=2 idle and 2 busy, BENCH_PAGES=5, BENCH_SPEC_DELAY_MS=300)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Runner, RunContext, TestKind } from '@fullstop/engine';
import { pagesToTest, SITE_SURVEY_MODULE, SiteSurvey, SURVEY_FILE, SURVEY_KIND, type SurveyedPage, topPages } from '@fullstop/engine/survey';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PAGES = Number(process.env.BENCH_PAGES ?? 5);
const SPEC_DELAY_MS = Number(process.env.BENCH_SPEC_DELAY_MS ?? 300);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
/** The server's crawl budget for this many pages (apps/server/src/features/suites/proposal-service.ts, crawlSecondsFor). */
const CRAWL_SECONDS = Math.min(60 + 10 * PAGES, 600);
const SWAGGER_UI = path.join(import.meta.dirname, '..', '..', 'node_modules', '@fastify', 'swagger-ui', 'static');

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
};
`;

const op = (summary: string, tag: string, id: string, extra: Record<string, unknown> = {}) => ({ summary, tags: [tag], operationId: id, responses: { 200: { description: 'OK' } }, ...extra });
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0', description: 'A sample pet store, served to the survey 300 ms late.' },
  tags: [{ name: 'pet', description: 'Everything about your pets' }, { name: 'store', description: 'Access to the store orders' }, { name: 'user', description: 'Operations about users' }],
  paths: {
    '/pet': { post: op('Add a new pet to the store', 'pet', 'addPet'), put: op('Update an existing pet', 'pet', 'updatePet') },
    '/pet/findByStatus': { get: op('Finds pets by status', 'pet', 'findPetsByStatus', { parameters: [{ name: 'status', in: 'query', schema: { type: 'string' } }] }) },
    '/pet/{petId}': { get: op('Find a pet by its id', 'pet', 'getPetById', { parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }] }) },
    '/store/inventory': { get: op('Returns the inventory by status', 'store', 'getInventory') },
    '/store/order': { post: op('Place an order for a pet', 'store', 'placeOrder') },
    '/user/login': { get: op('Logs a user in', 'user', 'loginUser') },
    '/user/{username}': { get: op('Get a user by user name', 'user', 'getUserByName', { parameters: [{ name: 'username', in: 'path', required: true, schema: { type: 'string' } }] }) },
  },
};

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml', '.json': 'application/json' };

/** Swagger UI's files from a temporary folder, its document late. */
async function serveSwaggerUi(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  await cp(SWAGGER_UI, dir, { recursive: true });
  await writeFile(path.join(dir, 'swagger-initializer.js'), INITIALIZER);
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (pathname === '/openapi.json') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(SPEC)), SPEC_DELAY_MS);
      return;
    }
    const file = path.join(dir, pathname === '/' ? 'index.html' : path.normalize(pathname).replace(/^[/\\]+/, ''));
    if (!file.startsWith(dir)) return void res.writeHead(404).end();
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body),
      () => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** CPU-seconds of this process and the children it has reaped (the survey's Chromium once closed): /proc/self/stat. */
async function ownCpuSeconds(): Promise<number> {
  const text = await readFile('/proc/self/stat', 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return fields.slice(11, 15).map(Number).reduce((a, b) => a + b, 0) / 100;
}

const busyLoops = (): ChildProcess[] => [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));

/** What the starter suite would be made of, page by page: what a survey's verdicts are. */
function verdicts(survey: SiteSurvey) {
  const { pages, leftOut } = pagesToTest(survey);
  const serious = (p: SurveyedPage) => [...new Set(p.axe.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id))].sort();
  return {
    leftOut: leftOut.map((l) => `${l.path} (${l.reason})`),
    pages: pages.map((p) => p.path),
    top: topPages(pages).map((p) => p.path),
    byPage: new Map(
      pages.map((p) => [
        p.path,
        JSON.stringify({
          status: p.status,
          main: p.main,
          consoleErrors: p.consoleErrors.length > 0,
          broken: p.broken.length > 0,
          axe: serious(p),
          look: p.look ? { masks: p.look.masks.map((m) => m.selector).sort(), fullPage: p.look.fullPage, unstable: !!p.look.unstable } : null,
        }),
      ]),
    ),
  };
}

// The survey's runners module, as a runner process loads it (its in-page code is typed for the DOM, which the bench is not).
const { runners } = (await import(pathToFileURL(SITE_SURVEY_MODULE).href)) as { runners: Partial<Record<TestKind, Runner>> };
const siteSurveyRunner = runners[SURVEY_KIND]!;

const root = await mkdtemp(path.join(tmpdir(), 'fullstop-bench-real-spa-'));
const app = await serveSwaggerUi(path.join(root, 'site'));
try {
  const bundle = await readFile(path.join(SWAGGER_UI, 'swagger-ui-bundle.js'), 'utf8');
  console.log(`## The site survey of Swagger UI ${/"(5\.\d{2}\.\d+)"/.exec(bundle)?.[1] ?? '5'} (its document ${SPEC_DELAY_MS} ms late), ${PAGES} pages at most, ${ROUNDS} idle and ${ROUNDS} busy`);
  console.log(`load average at start: ${loadavg().map((x) => x.toFixed(2)).join(' ')} (other sessions' work included)`);
  const runs: { load: 'idle' | 'busy'; wallS: number; cpuS: number; survey: SiteSurvey }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const load of ['idle', 'busy'] as const) {
      const loops = load === 'busy' ? busyLoops() : [];
      try {
        if (loops.length) await new Promise((r) => setTimeout(r, 300));
        const runDir = await mkdtemp(path.join(root, `survey-${round}-${load}-`));
        const logs: string[] = [];
        const ctx: RunContext = { runDir, signal: new AbortController().signal, chromiumPath: CHROMIUM_PATH, workers: 1, log: (m, d) => logs.push(d ? `${m} ${JSON.stringify(d)}` : m) };
        const cpu0 = await ownCpuSeconds();
        const started = performance.now();
        const result = await siteSurveyRunner.run({ name: 'Site survey', group: 'Bench', kind: SURVEY_KIND, options: { maxPages: PAGES, crawlSeconds: CRAWL_SECONDS, exclude: [] } }, { baseUrl: app.url, allowedOrigins: [], allowPrivateAddresses: true }, ctx);
        const wallS = (performance.now() - started) / 1000;
        // Read before the loops end: their CPU joins this process's only once they are reaped.
        const cpuS = (await ownCpuSeconds()) - cpu0;
        if (result.error) throw new Error(`the survey failed: ${result.error}\n${logs.join('\n')}`);
        const survey = SiteSurvey.parse(JSON.parse(await readFile(path.join(runDir, SURVEY_FILE), 'utf8')));
        runs.push({ load, wallS, cpuS, survey });
        const v = verdicts(survey);
        console.log(`round ${round} ${load}: ${wallS.toFixed(1)} s wall, ${cpuS.toFixed(1)} CPU-s, ${v.pages.length} pages (${v.pages.join(' ')}); top ${v.top.join(' ')}; left out: ${v.leftOut.join(', ') || 'none'}`);
        for (const line of logs) console.log(`    ${line}`);
      } finally {
        // Reaped before the next survey reads its CPU: a loop's time joins this process's when it is reaped.
        await Promise.all(loops.map((p) => new Promise((resolve) => (p.exitCode !== null || p.signalCode !== null ? resolve(null) : (p.once('exit', resolve), p.kill())))));
      }
    }
  }

  const first = verdicts(runs[0]!.survey);
  console.log('\n| survey | CPU | wall (s) | CPU-s | pages | page list differs | top pages differ | page verdicts differing |');
  console.log('|---|---|---|---|---|---|---|---|');
  let differing = 0;
  for (const [i, run] of runs.entries()) {
    const v = verdicts(run.survey);
    const listDiffers = JSON.stringify(v.pages) !== JSON.stringify(first.pages);
    const topDiffers = JSON.stringify(v.top) !== JSON.stringify(first.top);
    const pages = [...new Set([...first.pages, ...v.pages])];
    const changed = pages.filter((p) => first.byPage.get(p) !== v.byPage.get(p));
    differing += (listDiffers ? 1 : 0) + (topDiffers ? 1 : 0) + changed.length;
    console.log(`| ${i + 1} | ${run.load} | ${run.wallS.toFixed(1)} | ${run.cpuS.toFixed(1)} | ${v.pages.length} | ${listDiffers ? 'yes' : 'no'} | ${topDiffers ? 'yes' : 'no'} | ${changed.length} |`);
    for (const p of changed) console.log(`    ${p}: ${first.byPage.get(p) ?? '(not in the first)'} -> ${v.byPage.get(p) ?? '(not here)'}`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  for (const load of ['idle', 'busy'] as const) {
    const of = runs.filter((r) => r.load === load);
    console.log(`${load}: wall median ${median(of.map((r) => r.wallS)).toFixed(1)} s, CPU median ${median(of.map((r) => r.cpuS)).toFixed(1)} CPU-s`);
  }
  console.log(`\nDifferences from the first survey (page lists, top pages and page verdicts): ${differing} (goal 0)`);
  console.log(`What the first survey proposes to mask: ${first.top.map((p) => `${p} ${JSON.parse(first.byPage.get(p)!).look ? JSON.stringify(JSON.parse(first.byPage.get(p)!).look) : 'not looked at'}`).join('; ')}`);
  console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  await app.close();
  await rm(root, { recursive: true, force: true });
}
