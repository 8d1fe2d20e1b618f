import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { offeredFormats, writeReports } from './index.ts';
import { toJunit } from './junit-reporter.ts';
import type { RunReport } from './types.ts';

const report = (over: Partial<RunReport> = {}): RunReport => ({
  clientName: 'Acme <script>',
  testName: 'checkout',
  group: 'Frontend',
  kind: 'browser',
  runId: 'r1',
  status: 'failed',
  totals: { totalTests: 2, passedTests: 1, failedTests: 1, skippedTests: 0 },
  durationMs: 1234,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.234Z',
  target: 'https://acme.test',
  summary: {
    kind: 'browser',
    cases: [
      { name: 'pays', status: 'passed', durationMs: 10 },
      { name: 'refunds & "voids"', status: 'failed', durationMs: 20, error: 'expected <b>1</b>\nat line 3' },
    ],
  },
  error: null,
  artifacts: [{ path: 'attempt-1/trace.zip', kind: 'trace', contentType: 'application/zip' }],
  attempts: [{ attempt: 1, status: 'failed', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.234Z', error: null, logPath: 'attempt-1.log' }],
  ...over,
});

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('reporters', () => {
  it('writes JUnit with escaped names and the first line of each failure', () => {
    const xml = toJunit(report());
    expect(xml).toContain('<testsuite name="checkout" tests="2" failures="1" errors="0" skipped="0" time="1.234"');
    expect(xml).toContain('name="refunds &amp; &quot;voids&quot;"');
    expect(xml).toContain('<failure message="expected &lt;b&gt;1&lt;/b&gt;">');
  });

  it('writes json, html, xml and a zip holding the run folder, for a browser run', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'reporters-'));
    await mkdir(path.join(dir, 'attempt-1'), { recursive: true });
    await writeFile(path.join(dir, 'attempt-1', 'trace.zip'), 'trace');
    await writeFile(path.join(dir, 'attempt-1.log'), 'started <ok>\n');
    const outDir = path.join(dir, 'reports');
    await mkdir(outDir);
    const written = await writeReports(report(), { runDir: dir, outDir });
    expect(Object.keys(written)).toEqual(['json', 'html', 'xml', 'zip']);
    const html = await readFile(written.html!, 'utf8');
    expect(html).toContain('Acme &lt;script&gt;');
    expect(html).toContain('started &lt;ok&gt;');
    expect(html).not.toMatch(/<script|src=|href="http/);
    const zip = await readFile(written.zip!);
    const text = zip.toString('latin1');
    for (const name of ['artifacts/attempt-1/trace.zip', 'artifacts/attempt-1.log', 'report.json', 'report.html', 'junit.xml']) expect(text).toContain(name);
    expect(text).not.toContain('artifacts/reports/');
  });

  it('leaves JUnit out for kinds without cases', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'reporters-'));
    const written = await writeReports(report({ kind: 'load', summary: null }), { runDir: dir, outDir: dir });
    expect(Object.keys(written)).toEqual(['json', 'html', 'zip']);
  });

  it('offers the pdf beside the formats written when pdfs are on and there is an html to print it from', () => {
    const written = { json: 'a', html: 'b', xml: 'c', zip: 'd' };
    expect(offeredFormats(written, { pdf: true })).toEqual(['json', 'html', 'pdf', 'xml', 'zip']);
    expect(offeredFormats(written, { pdf: false })).toEqual(['json', 'html', 'xml', 'zip']);
    expect(offeredFormats({ json: 'a', zip: 'd' }, { pdf: true })).toEqual(['json', 'zip']);
  });
});
