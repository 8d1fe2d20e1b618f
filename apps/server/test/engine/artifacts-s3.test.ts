import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { type EvidenceListResponse, type RequestAttachment, RUN_REPORT_NAME } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../src/config/env.ts';
import { currentSuite } from '../../src/features/suites/suite-repository.ts';
import { bearer, buildTestApp, login, type TestClient } from '../helpers/app.ts';
import { startS3, type TestS3 } from '../helpers/s3.ts';
import { FAKE_RUNNERS_MODULE, fakeRunners } from './fixtures/fake-runners.ts';
import { clientWithSuite, key, OPERATOR_TOKEN } from './helpers.ts';

/** Every file under a local folder (none when it is gone). */
async function localFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** The process's artifacts in S3-compatible storage: what a worker wrote is read back from the bucket, not the disk. */
describe('artifacts in S3-compatible storage (ARTIFACT_STORE=s3, on s3rver)', () => {
  let s3: TestS3;
  let app: FastifyInstance;
  let a: TestClient;
  let runId: string;
  let checkoutId: string;

  beforeAll(async () => {
    s3 = await startS3();
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ...(s3.env as Partial<Env>) }, runners: fakeRunners, runnersModule: FAKE_RUNNERS_MODULE });
    await app.engine.startWorkers(2);
    a = await clientWithSuite(app, {
      Frontend: [
        { name: 'marketing pages', kind: 'browser', options: { outcome: 'pass' } },
        { name: 'checkout', kind: 'browser', options: { outcome: 'fail', evidence: 'files' } },
        { name: 'sign in', kind: 'browser', options: { outcome: 'pass', errorOnAttempts: [1], evidence: 'files' } },
      ],
    });
    const run = await app.inject({ url: '/test/run/all?wait=true&timeout=60', headers: key(a) });
    expect(run.statusCode, run.body).toBe(200);
    runId = run.json().runId;
    const detail = await app.inject({ url: `/test/runs/${runId}`, headers: key(a) });
    checkoutId = (detail.json().tests as { runTestId: string; testName: string }[]).find((t) => t.testName === 'checkout')!.runTestId;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  it('publishes each finished test’s folder to the bucket and keeps no copy on the local disk', async () => {
    expect(app.artifacts.kind).toBe('s3');
    const keys: string[] = [];
    for await (const o of app.artifacts.list(`runs/${a.clientId}/${runId}/`)) keys.push(o.key);
    expect(keys).toContain(`runs/${a.clientId}/${runId}/${checkoutId}/reports/report.html`);
    expect(keys).toContain(`runs/${a.clientId}/${runId}/reports/run-report.html`);
    expect(keys.some((k) => k.startsWith(`runs/${a.clientId}/${runId}/${checkoutId}/attempt-1/`))).toBe(true);
    expect(await localFiles(path.join(app.paths.runs, a.clientId, runId))).toEqual([]);
  });

  it('serves every report format, the run report and a test’s trace from the bucket, byte for byte', async () => {
    const all = await app.inject({ url: '/report/fetch/all', headers: key(a) });
    expect(all.statusCode, all.body).toBe(200);
    const formats = (all.json().Frontend.checkout.formats as { format: string }[]).map((f) => f.format);
    expect(formats).toEqual(expect.arrayContaining(['json', 'html', 'zip']));
    for (const format of formats) {
      const res = await app.inject({ url: `/report/fetch/checkout/${format}`, headers: key(a) });
      expect(res.statusCode, `${format}: ${res.body.slice(0, 200)}`).toBe(200);
      if (format !== 'html') {
        const file = format === 'xml' ? 'junit.xml' : `report.${format}`;
        const stored = await app.artifacts.get(`runs/${a.clientId}/${runId}/${checkoutId}/reports/${file}`);
        expect(res.rawPayload.equals(await buffer(stored!.body)), format).toBe(true);
        expect(res.headers['content-length']).toBe(String(stored!.size));
      }
    }
    const runReport = await app.inject({ url: `/report/fetch/${encodeURIComponent(RUN_REPORT_NAME)}/html`, headers: key(a) });
    expect(runReport.statusCode, runReport.body.slice(0, 200)).toBe(200);
    expect(runReport.body).toContain('checkout');

    const { evidence } = (await app.inject({ url: `/test/runs/${runId}/tests/${checkoutId}/evidence`, headers: key(a) })).json() as EvidenceListResponse;
    expect(evidence.map((e) => e.kind).sort()).toEqual(['screenshot', 'screenshot', 'trace']);
    const trace = evidence.find((e) => e.kind === 'trace')!;
    const link = await app.inject({ method: 'POST', url: `/test/runs/${runId}/tests/${checkoutId}/evidence/${trace.evidenceId}/link`, headers: key(a) });
    const file = decodeURIComponent(new URL(link.json().url as string, 'http://x').searchParams.get('trace')!);
    const served = await app.inject({ url: file });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.length).toBe(trace.sizeBytes);
  });

  it('keeps a retried test’s first attempt: its evidence is listed and served beside the retry’s', async () => {
    const detail = await app.inject({ url: `/test/runs/${runId}`, headers: key(a) });
    const signIn = (detail.json().tests as { runTestId: string; testName: string; status: string }[]).find((t) => t.testName === 'sign in')!;
    expect(signIn.status).toBe('passed');
    const { evidence } = (await app.inject({ url: `/test/runs/${runId}/tests/${signIn.runTestId}/evidence`, headers: key(a) })).json() as EvidenceListResponse;
    expect(new Set(evidence.map((e) => e.attempt))).toEqual(new Set([1, 2]));
    const first = evidence.find((e) => e.attempt === 1 && e.kind === 'screenshot')!;
    const link = await app.inject({ method: 'POST', url: `/test/runs/${runId}/tests/${signIn.runTestId}/evidence/${first.evidenceId}/link`, headers: key(a) });
    const served = await app.inject({ url: link.json().url as string });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.length).toBe(first.sizeBytes);
    const keys: string[] = [];
    for await (const o of app.artifacts.list(`runs/${a.clientId}/${runId}/${signIn.runTestId}/`)) keys.push(o.key.split('/').slice(4).join('/'));
    expect(keys).toEqual(expect.arrayContaining(['attempt-1.log', 'attempt-1.artifacts.json', 'attempt-2.log']));
  });

  it('keeps a request’s attachment in the bucket and serves it back', async () => {
    const session = await login(app, a.email, a.password);
    const created = await app.inject({ method: 'POST', url: '/requests', headers: bearer(session.accessToken), payload: { kind: 'question', title: 'Where is my trace?', details: 'See the file' } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const content = Buffer.from('a,b\n1,2\n');
    const boundary = '----fullstops3test';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="data.csv"\r\nContent-Type: text/csv\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const up = await app.inject({ method: 'POST', url: `/requests/${id}/attachments`, headers: { ...bearer(session.accessToken), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(up.statusCode, up.body).toBe(201);
    const attachment = up.json<RequestAttachment>();
    expect(await app.artifacts.stat(`requests/${id}/${attachment.id}`)).toMatchObject({ size: content.length });
    const down = await app.inject({ url: `/requests/${id}/attachments/${attachment.id}`, headers: bearer(session.accessToken) });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.rawPayload.equals(content)).toBe(true);
    // The checked file went to the bucket: nothing is left in the scratch folder.
    expect(await localFiles(app.paths.incoming)).toEqual([]);
  });

  it('keeps each suite version in the bucket, so a process that never saw the import runs it and shows its files', async () => {
    const suite = (await currentSuite(app.db, a.clientId))!;
    const keys: string[] = [];
    for await (const o of app.artifacts.list(`suites/${a.clientId}/`)) keys.push(o.key);
    expect(keys).toContain(`suites/${a.clientId}/${path.basename(suite.dir)}/suite.json`);
    // As on another machine: the folder the import wrote is not here.
    await rm(suite.dir, { recursive: true, force: true });
    const run = await app.inject({ url: '/test/run/all?wait=true&timeout=60', headers: key(a) });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().message).not.toMatch(/error/i);
    const copy = path.join(app.paths.dataDir, 'work', 'suites', a.clientId, path.basename(suite.dir), 'suite.json');
    expect(JSON.parse(await readFile(copy, 'utf8'))).toMatchObject({ version: 1 });
    const file = await app.inject({ url: `/operator/clients/${a.clientId}/suites/${suite.version}/file?path=suite.json`, headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.json().content).toContain('checkout');
  });
});
