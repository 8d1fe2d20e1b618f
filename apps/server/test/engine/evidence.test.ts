import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EvidenceItem, EvidenceListResponse } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEvidenceToken } from '../../src/features/evidence/evidence-token.ts';
import { redactUrl } from '../../src/lib/log-redaction.ts';
import { createTestClient, type TestClient } from '../helpers/app.ts';
import { TINY_PNG } from './fixtures/fake-evidence.ts';
import { buildEngineApp, clientWithSuite, key, operator } from './helpers.ts';

describe('failure evidence: traces and screenshots of a run test', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;
  let runId: string;
  let checkoutId: string;
  let hostileId: string;
  const evidenceUrl = (runTestId: string) => `/test/runs/${runId}/tests/${runTestId}/evidence`;
  const list = async (c: TestClient, runTestId = checkoutId) => app.inject({ url: evidenceUrl(runTestId), headers: key(c) });
  const link = async (c: TestClient, evidenceId: string, runTestId = checkoutId) =>
    app.inject({ method: 'POST', url: `${evidenceUrl(runTestId)}/${evidenceId}/link`, headers: key(c) });
  const fileOf = (url: string) => (url.startsWith('/trace/') ? decodeURIComponent(new URL(url, 'http://x').searchParams.get('trace')!) : url);
  const byKind = (items: EvidenceItem[], kind: string, caseName: string | null) => items.find((e) => e.kind === kind && e.caseName === caseName)!;

  beforeAll(async () => {
    app = await buildEngineApp(2);
    a = await clientWithSuite(app, {
      Frontend: [
        { name: 'checkout', kind: 'browser', options: { outcome: 'fail', evidence: 'files' } },
        { name: 'hostile', kind: 'browser', options: { outcome: 'fail', evidence: 'escape' } },
      ],
    });
    b = await createTestClient(app);
    const run = await app.inject({ url: '/test/run/all?wait=true&timeout=60', headers: key(a) });
    expect(run.statusCode, run.body).toBe(200);
    runId = run.json().runId;
    const detail = await app.inject({ url: `/test/runs/${runId}`, headers: key(a) });
    const tests = detail.json().tests as { runTestId: string; testName: string }[];
    checkoutId = tests.find((t) => t.testName === 'checkout')!.runTestId;
    hostileId = tests.find((t) => t.testName === 'hostile')!.runTestId;
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists a failed test’s trace and screenshots, each with its case and that case’s error', async () => {
    const res = await list(a);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as EvidenceListResponse;
    expect(body).toMatchObject({ runId, runTestId: checkoutId, testName: 'checkout', status: 'failed' });
    expect(body.evidence).toHaveLength(3);
    expect(byKind(body.evidence, 'trace', 'second case')).toMatchObject({
      label: 'Trace: second case',
      caseError: 'expected <b>true</b>',
      attempt: 1,
      contentType: 'application/zip',
    });
    expect(byKind(body.evidence, 'trace', 'second case').sizeBytes).toBeGreaterThan(100);
    expect(byKind(body.evidence, 'screenshot', 'second case')).toMatchObject({
      label: 'Screenshot: second case',
      contentType: 'image/png',
      sizeBytes: TINY_PNG.length,
    });
    expect(byKind(body.evidence, 'screenshot', null)).toMatchObject({ label: 'Overview', caseError: null });
    // Nothing in the answer says where the files lie.
    expect(res.body).not.toContain('test-results');
  });

  it('links a trace to the trace viewer and a screenshot to the image; the link serves the file privately', async () => {
    const { evidence } = (await list(a)).json() as EvidenceListResponse;
    const trace = await link(a, byKind(evidence, 'trace', 'second case').evidenceId);
    expect(trace.statusCode, trace.body).toBe(200);
    expect(trace.headers['cache-control']).toBe('no-store');
    const { url, expiresIn } = trace.json();
    expect(url).toMatch(/^\/trace\/viewer\/index\.html\?trace=%2Fevidence%2Ffile%2F[\w.-]+$/);
    expect(expiresIn).toBe(300);

    const file = await app.inject({ url: fileOf(url) });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // The way the viewer asks for it: a relative trace address goes through its server's trace/file.
    const viaViewer = await app.inject({ url: `/trace/trace/file?path=${encodeURIComponent(fileOf(url))}` });
    expect(viaViewer.statusCode).toBe(200);
    expect(viaViewer.rawPayload.equals(file.rawPayload)).toBe(true);

    const shot = await link(a, byKind(evidence, 'screenshot', 'second case').evidenceId);
    const image = await app.inject({ url: shot.json().url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    expect(image.rawPayload.equals(TINY_PNG)).toBe(true);
  });

  it('answers another client 404 for the list, a link and the file, so ids are not confirmed', async () => {
    const { evidence } = (await list(a)).json() as EvidenceListResponse;
    const id = evidence[0]!.evidenceId;
    const listed = await list(b);
    expect(listed.statusCode).toBe(404);
    expect(listed.json().message).toBe('Run test not found');
    expect((await link(b, id)).statusCode).toBe(404);
    // A genuine token bound to the other client does not open this client's file.
    const token = signEvidenceToken(app.keys, { clientId: b.clientId, runId, runTestId: checkoutId, path: 'attempt-1/browser/test-results/second-case-chromium/trace.zip', kind: 'trace' });
    expect((await app.inject({ url: `/evidence/file/${token}` })).statusCode).toBe(404);
    // The same run test under another run, and a made-up one, are not found either.
    expect((await app.inject({ url: `/test/runs/${checkoutId}/tests/${checkoutId}/evidence`, headers: key(a) })).statusCode).toBe(404);
    expect((await link(a, 'no-such-evidence')).statusCode).toBe(404);
    expect((await app.inject({ url: evidenceUrl(checkoutId) })).statusCode).toBe(401);
  });

  it('lets operators list and link any client’s evidence through the operator routes', async () => {
    const base = `/operator/clients/${a.clientId}/runs/${runId}/tests/${checkoutId}/evidence`;
    const res = await app.inject({ url: base, headers: operator });
    expect(res.statusCode).toBe(200);
    const { evidence } = res.json() as EvidenceListResponse;
    expect(evidence).toHaveLength(3);
    const linked = await app.inject({ method: 'POST', url: `${base}/${evidence[0]!.evidenceId}/link`, headers: operator });
    expect(linked.statusCode).toBe(200);
    expect((await app.inject({ url: fileOf(linked.json().url) })).statusCode).toBe(200);
    expect((await app.inject({ url: `/operator/clients/${b.clientId}/runs/${runId}/tests/${checkoutId}/evidence`, headers: operator })).statusCode).toBe(404);
    expect((await app.inject({ url: base, headers: key(a) })).statusCode).toBe(403);
    // The client route needs a client: an operator names one through its own route.
    expect((await app.inject({ url: evidenceUrl(checkoutId), headers: operator })).statusCode).toBe(403);
  });

  it('refuses an expired or tampered link with 401 and says to open it again', async () => {
    const claims = { clientId: a.clientId, runId, runTestId: checkoutId, path: 'attempt-1/browser/test-results/second-case-chromium/trace.zip', kind: 'trace' as const };
    const fresh = signEvidenceToken(app.keys, claims);
    expect((await app.inject({ url: `/evidence/file/${fresh}` })).statusCode).toBe(200);
    const expired = signEvidenceToken(app.keys, claims, Date.now() - 301_000);
    const tampered = `${fresh.slice(0, -2)}${fresh.endsWith('AA') ? 'BB' : 'AA'}`;
    const otherClaims = `${Buffer.from(JSON.stringify({ ...claims, p: 'attempt-1/browser/results.json' })).toString('base64url')}.${fresh.split('.').slice(1).join('.')}`;
    for (const token of [expired, tampered, otherClaims, 'not-a-token']) {
      for (const url of [`/evidence/file/${token}`, `/trace/trace/file?path=${encodeURIComponent(`/evidence/file/${token}`)}`]) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(401);
        expect(res.json()).toMatchObject({ code: 'INVALID_TOKEN', message: 'This evidence link is invalid or has expired: open the evidence again from the portal' });
      }
    }
    // The viewer's file route reads nothing but evidence links.
    for (const p of ['/etc/passwd', '/report/fetch/all', `/evidence/file/${fresh}/../x`]) {
      expect((await app.inject({ url: `/trace/trace/file?path=${encodeURIComponent(p)}` })).statusCode, p).toBe(404);
    }
  });

  it('never serves a file outside the run test’s folder, by `..`, by an absolute path or through a symlink', async () => {
    // The file the hostile test's artifacts point at exists: only the folder check keeps it out.
    writeFileSync(path.join(app.paths.runs, a.clientId, 'secret.png'), TINY_PNG);
    const res = await list(a, hostileId);
    expect(res.statusCode).toBe(200);
    expect(res.json().evidence).toEqual([]);
    for (const p of ['attempt-1/../../../secret.png', 'attempt-1/link.png', '../secret.png', path.join(app.paths.runs, a.clientId, 'secret.png')]) {
      const token = signEvidenceToken(app.keys, { clientId: a.clientId, runId, runTestId: hostileId, path: p, kind: 'screenshot' });
      const file = await app.inject({ url: `/evidence/file/${token}` });
      expect(file.statusCode, p).toBe(404);
      expect(file.json().message).toBe('Evidence not found');
    }
  });

  it('serves Playwright’s trace viewer under its own policy, and nothing but its files', async () => {
    const page = await app.inject({ url: '/trace/viewer/index.html' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self' 'sha256-[\w+/=]+'/);
    for (const directive of ["default-src 'none'", "worker-src 'self'", "connect-src 'self'", "frame-src 'self' data:", "img-src 'self' data: blob:", "style-src 'self' 'unsafe-inline'", "font-src 'self'"]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/https?:|\*/);
    const worker = await app.inject({ url: '/trace/viewer/sw.bundle.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(worker.headers['content-security-policy']).toBe(csp);
    for (const url of ['/trace/viewer/nope.js', '/trace/viewer/..%2F..%2Fpackage.json', '/trace/viewer/assets/..%2Findex.html', '/evidence/nothing']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('application/json');
    }
  });

  it('keeps evidence tokens out of the request log', () => {
    expect(redactUrl('/evidence/file/abc.123.def')).toBe('/evidence/file/[redacted]');
    expect(redactUrl('/trace/viewer/index.html?trace=%2Fevidence%2Ffile%2Fabc')).toBe('/trace/viewer/index.html?trace=[redacted]');
    expect(redactUrl('/trace/trace/file?path=%2Fevidence%2Ffile%2Fabc')).toBe('/trace/trace/file?path=[redacted]');
  });
});
