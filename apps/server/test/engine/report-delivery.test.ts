import { RUN_REPORT_GROUP, RUN_REPORT_NAME } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { reportBrowserOpen } from '../../src/features/reports/report-pdf.ts';
import { contentDisposition, htmlForReader } from '../../src/features/reports/report-service.ts';
import { createTestClient, type TestClient } from '../helpers/app.ts';
import { buildEngineApp, importSuite, key, manifest, runAndWait } from './helpers.ts';

/** What a client receives when they open a report: named downloads, a pdf, the run report, their own times. */
describe('report delivery', () => {
  let app: FastifyInstance;
  let ours: TestClient;
  let theirs: TestClient;
  let day: string;
  /** The Run all's run, and its test "Public API". */
  let run: { runId: string; tests: { testName: string; runTestId: string }[] };
  /** Every Chromium this process launches: the runs themselves launch theirs in runner processes. */
  let launches: MockInstance<typeof chromium.launch>;
  /** The pdfs kept in the store, by key. */
  const storedPdfs = async () => {
    const keys: string[] = [];
    for await (const o of app.engine.deps.artifacts.list(`runs/${ours.clientId}/`)) if (o.key.endsWith('.pdf')) keys.push(o.key);
    return keys.sort();
  };
  /** The pdfs put in the store since the spy was set. */
  const pdfPuts = (put: MockInstance) => put.mock.calls.map((c) => String(c[0])).filter((k) => k.endsWith('.pdf'));
  const fetchUrl = (name: string, format: string) => `/report/fetch/${encodeURIComponent(name)}/${format}`;
  const linkUrl = (name: string, format: string, query = '') => `/report/link/${encodeURIComponent(name)}/${format}${query}`;

  async function view(name: string, format: string, query = '') {
    const link = await app.inject({ method: 'POST', url: linkUrl(name, format, query), headers: key(ours) });
    expect(link.statusCode, link.body).toBe(200);
    // The link carries a token: no cache may keep it.
    expect(link.headers['cache-control']).toBe('no-store');
    return app.inject({ url: link.json<{ url: string }>().url });
  }

  beforeAll(async () => {
    app = await buildEngineApp();
    // The API tests leave pdfs off; these are the tests of the pdf.
    app.engine.deps.config.reportPdf = true;
    launches = vi.spyOn(chromium, 'launch');
    await app.engine.startWorkers(2);
    ours = await createTestClient(app, { name: 'Fullstop', website: 'https://fullstop.example' });
    theirs = await createTestClient(app, { name: 'Other Co' });
    const imported = await importSuite(app, ours.clientId, {
      'suite.json': manifest({
        Frontend: [{ name: 'Marketing pages', kind: 'browser', options: { outcome: 'fail' } }],
        Backend: [{ name: 'Public API', kind: 'api' }],
      }),
    });
    expect(imported.statusCode, imported.body).toBe(201);
    run = await runAndWait(app, ours, 'all', 90_000);
    // The worker writes the run report once the run has ended: listed when whole.
    for (let tries = 0; ; tries++) {
      const list = await app.inject({ url: '/report/fetch/all', headers: key(ours) });
      const entry = list.statusCode === 200 ? list.json()[RUN_REPORT_GROUP]?.[RUN_REPORT_NAME] : undefined;
      if (entry) {
        day = entry.lastUpdated.slice(0, 10);
        break;
      }
      if (tries > 150) throw new Error('the run report was never listed');
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    vi.restoreAllMocks();
  });

  it('writes every report of a finished run without a browser: no Chromium launched, no pdf stored yet', async () => {
    expect(launches).not.toHaveBeenCalled();
    expect(reportBrowserOpen()).toBe(false);
    expect(await storedPdfs()).toEqual([]);
    const zip = await app.inject({ url: fetchUrl('Marketing pages', 'zip'), headers: key(ours) });
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.toString('latin1')).not.toContain('report.pdf');
  });

  it('lists the run report of the latest Run all under Full runs, as html and pdf', async () => {
    const res = await app.inject({ url: '/report/fetch/all', headers: key(ours) });
    expect(res.statusCode).toBe(200);
    const groups = res.json();
    expect(Object.keys(groups).sort()).toEqual(['Backend', 'Frontend', RUN_REPORT_GROUP].sort());
    expect(groups[RUN_REPORT_GROUP][RUN_REPORT_NAME].formats.map((f: { format: string }) => f.format).sort()).toEqual(['html', 'pdf']);
    expect(groups.Frontend['Marketing pages'].formats.map((f: { format: string }) => f.format)).toContain('pdf');

    const html = await app.inject({ url: fetchUrl(RUN_REPORT_NAME, 'html'), headers: key(ours) });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('Marketing pages');
    expect(html.body).toContain('Public API');
    // The first download prints the pdf with this process's report browser and keeps it beside the html.
    const put = vi.spyOn(app.engine.deps.artifacts, 'put');
    const pdf = await app.inject({ url: fetchUrl(RUN_REPORT_NAME, 'pdf'), headers: key(ours) });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.headers['content-length']).toBe(String(pdf.rawPayload.length));
    expect(pdf.headers['content-security-policy']).toContain('sandbox');
    expect(pdf.headers['content-disposition']).toBe(
      `attachment; filename="fullstop-run-all-tests-${day}.pdf"; filename*=UTF-8''fullstop-run-all-tests-${day}.pdf`,
    );
    const stored = await storedPdfs();
    expect(stored).toEqual([expect.stringMatching(new RegExp(`^runs/${ours.clientId}/[^/]+/reports/run-report\\.pdf$`))]);
    expect(launches).toHaveBeenCalledTimes(1);
    expect(reportBrowserOpen()).toBe(true);
    // The second is the stored file: nothing printed, nothing put.
    const again = await app.inject({ url: fetchUrl(RUN_REPORT_NAME, 'pdf'), headers: key(ours) });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(pdf.rawPayload)).toBe(true);
    expect(pdfPuts(put)).toEqual(stored);
    expect(launches).toHaveBeenCalledTimes(1);
    put.mockRestore();
  });

  it('prints a pdf once when two first downloads come together, with the one report browser', async () => {
    const put = vi.spyOn(app.engine.deps.artifacts, 'put');
    const [a, b] = await Promise.all([
      app.inject({ url: fetchUrl('Marketing pages', 'pdf'), headers: key(ours) }),
      app.inject({ url: fetchUrl('Marketing pages', 'pdf'), headers: key(ours) }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
    expect(pdfPuts(put)).toEqual([expect.stringMatching(/\/reports\/report\.pdf$/)]);
    expect(launches).toHaveBeenCalledTimes(1);
    put.mockRestore();
  });

  it('answers 503 with a clear message when the pdf cannot be printed, and keeps nothing half-written', async () => {
    const before = await storedPdfs();
    const { config } = app.engine.deps;
    const chromiumPath = config.chromiumPath;
    // No Chromium where the settings say: the launch fails, as any print that fails or times out does.
    config.chromiumPath = '/nonexistent/chromium';
    try {
      const res = await app.inject({ url: fetchUrl('Public API', 'pdf'), headers: key(ours) });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.json()).toEqual({ code: 'REPORT_PDF_UNAVAILABLE', message: expect.stringMatching(/could not be printed.*try again/i) });
      // The portal downloads through a link: asking for one prints first, so the reader is told why in words.
      const link = await app.inject({ method: 'POST', url: linkUrl('Public API', 'pdf'), headers: key(ours) });
      expect(link.statusCode).toBe(503);
      expect(link.json()).toMatchObject({ code: 'REPORT_PDF_UNAVAILABLE' });
      expect(await storedPdfs()).toEqual(before);
    } finally {
      config.chromiumPath = chromiumPath;
    }
    // Printed and kept on the next try, here through the run's own view link (History), which serves it the same way.
    const api = run.tests.find((t) => t.testName === 'Public API')!;
    const link = await app.inject({ method: 'POST', url: `/test/history/${run.runId}/tests/${api.runTestId}/report/pdf/link`, headers: key(ours) });
    expect(link.statusCode, link.body).toBe(200);
    const res = await app.inject({ url: link.json<{ url: string }>().url });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="fullstop-public-api-[0-9-]+\.pdf"/);
    expect(await storedPdfs()).toEqual([...before, `runs/${ours.clientId}/${run.runId}/${api.runTestId}/reports/report.pdf`].sort());
  });

  it('downloads zip, JUnit xml and pdf under <client>-<test>-<date>, and shows html and json inline', async () => {
    for (const format of ['zip', 'xml', 'pdf']) {
      const res = await app.inject({ url: fetchUrl('Marketing pages', format), headers: key(ours) });
      expect(res.statusCode, format).toBe(200);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="fullstop-marketing-pages-${day}.${format}"; filename*=UTF-8''fullstop-marketing-pages-${day}.${format}`,
      );
    }
    const pdf = await app.inject({ url: fetchUrl('Marketing pages', 'pdf'), headers: key(ours) });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((pdf.rawPayload.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length).toBeGreaterThanOrEqual(1);

    // A name beyond ASCII: plain letters in filename, the real ones in filename*.
    const named = { clientName: 'Café Crème', reportName: 'Public API', writtenAt: new Date('2026-11-22T23:30:00Z'), format: 'zip' as const };
    expect(contentDisposition('attachment', named)).toBe(
      `attachment; filename="cafe-creme-public-api-2026-11-22.zip"; filename*=UTF-8''caf%C3%A9-cr%C3%A8me-public-api-2026-11-22.zip`,
    );

    const json = await view('Marketing pages', 'json');
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.headers['content-disposition']).toMatch(/^inline; filename="fullstop-marketing-pages-[0-9-]+\.json"/);
    expect(json.body).toContain('\n  "clientName": "Fullstop"');
    const html = await view('Marketing pages', 'html');
    expect(html.headers['content-disposition']).toMatch(/^inline; /);
    // Downloads through a view link too: the portal's buttons use those.
    const xml = await view('Marketing pages', 'xml');
    expect(xml.headers['content-disposition']).toMatch(/^attachment; filename="fullstop-marketing-pages-[0-9-]+\.xml"/);
    expect(xml.body).toMatch(/^<\?xml/);
  });

  it('shows times in the reader’s locale and time zone, and falls back to en-GB and UTC for unknown ones', async () => {
    const de = await view('Marketing pages', 'html', '?locale=de-DE&timeZone=Europe/Berlin');
    const times = [...de.body.matchAll(/<time datetime="[^"]+">([^<]+)<\/time>/g)].map((t) => t[1]);
    expect(times.length).toBeGreaterThan(0);
    // de-DE with a short month: "23. Nov. 2026, 11:42 MEZ"; the date itself depends on the hour in Berlin.
    expect(times[0]).toMatch(/^\d{1,2}\. \S+ \d{4}, \d{2}:\d{2} (MEZ|MESZ)$/);

    const run = await view(RUN_REPORT_NAME, 'html', '?locale=de-DE&timeZone=Europe/Berlin');
    expect(run.body).toMatch(/<time datetime="[^"]+">\d{1,2}\. \S+ \d{4}, \d{2}:\d{2} (MEZ|MESZ)<\/time>/);

    for (const query of ['?locale=not_a-locale!!&timeZone=Mars/Olympus', '?locale=&timeZone=', '']) {
      const res = await view('Marketing pages', 'html', query);
      expect(res.statusCode, query).toBe(200);
      expect(res.body, query).toMatch(/<time datetime="[^"]+">\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC<\/time>/);
    }
    const tooLong = await app.inject({ method: 'POST', url: linkUrl('Marketing pages', 'html', `?locale=${'a'.repeat(101)}`), headers: key(ours) });
    expect(tooLong.statusCode).toBe(400);
  });

  it('turns each trace placeholder into a link to the run in the portal, once the run is known', () => {
    const placeholder = '<span class="trace-link" data-trace="attempt-1/trace.zip">Open trace in the portal</span>';
    expect(htmlForReader(placeholder, 'run-1', undefined)).toBe('<a class="trace-link" href="/dashboard/history/run-1">Open trace in the portal</a>');
    expect(htmlForReader(placeholder, null, undefined)).toBe(placeholder);
  });

  it('names the formats it knows when asked for another', async () => {
    const res = await app.inject({ url: fetchUrl('Marketing pages', 'docx'), headers: key(ours) });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Unknown report format "docx": use json, html, pdf, zip or xml');
  });

  it('another client can neither fetch, link nor view our reports, the run report included', async () => {
    for (const name of ['Marketing pages', RUN_REPORT_NAME]) {
      for (const format of ['html', 'pdf']) {
        expect((await app.inject({ url: fetchUrl(name, format), headers: key(theirs) })).statusCode, `${name} ${format}`).toBe(404);
        expect((await app.inject({ method: 'POST', url: linkUrl(name, format), headers: key(theirs) })).statusCode).toBe(404);
      }
    }
    expect((await app.inject({ url: '/report/fetch/all', headers: key(theirs) })).statusCode).toBe(404);
  });

  it('refuses a suite that names a test "Run all tests", whose report name is taken', async () => {
    const res = await importSuite(app, theirs.clientId, {
      'suite.json': manifest({ Frontend: [{ name: 'run all Tests', kind: 'browser' }] }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().issues).toEqual([
      {
        file: 'suite.json',
        field: 'groups.0.tests.0.name',
        reason: '"Run all tests" is reserved: it names the report of a whole run on the Reports page',
      },
    ]);
  });
});
