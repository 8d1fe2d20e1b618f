import { buffer } from 'node:stream/consumers';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { auditEvents } from '../src/db/schema/index.ts';
import { bearer, createTestClient, createTestOperator, login, type TestClient } from './helpers/app.ts';
import { buildEngineApp, key, manifest, operator, waitForRunEnd } from './engine/helpers.ts';

/** A multipart form: fields, then files (each part's filename is the file's path, as a folder upload sends it). */
function form(fields: Record<string, string>, files: { field: string; name: string; content: string | Buffer }[]) {
  const boundary = `----fullstop${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(Buffer.from(f.content), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function zipOf(entries: Record<string, string | Buffer>, compress = false): Promise<Buffer> {
  const archive = new ZipFile();
  for (const [name, content] of Object.entries(entries)) archive.addBuffer(Buffer.from(content), name, { compress, mtime: new Date('2024-01-01T00:00:00Z') });
  archive.end();
  return buffer(archive.outputStream);
}

const v1Suite = manifest({ Frontend: [{ name: 'alpha', kind: 'browser', options: { outcome: 'pass', specs: ['specs/home.spec.ts'] } }] });
const v2Suite = manifest({ Frontend: [{ name: 'beta', kind: 'browser', options: { outcome: 'pass', specs: ['specs/home.spec.ts'] } }] });
const homeV1 = "import { test } from '@playwright/test';\ntest('home', async () => {\n  // opens the home page\n});\n";
const homeV2 = "import { test } from '@playwright/test';\ntest('home', async () => {\n  // opens the pricing page\n});\n";

describe('the console’s Suites page', () => {
  let app: FastifyInstance;
  let c: TestClient;
  let other: TestClient;
  let ops: { authorization: string };
  const base = () => `/operator/clients/${c.clientId}/suites`;
  const get = (url: string, headers: Record<string, string> = ops) => app.inject({ url, headers });
  const upload = (fields: Record<string, string>, files: Parameters<typeof form>[1], clientId = c.clientId) => {
    const body = form(fields, files);
    return app.inject({ method: 'POST', url: `/operator/clients/${clientId}/suites`, headers: { ...ops, ...body.headers }, payload: body.payload });
  };
  const fetchAll = async () => (await app.inject({ url: '/test/fetch/all', headers: key(c) })).json();

  beforeAll(async () => {
    app = await buildEngineApp(1);
    c = await createTestClient(app);
    other = await createTestClient(app);
    const op = await createTestOperator(app);
    ops = bearer((await login(app, op.email, op.password)).accessToken);
    // Version 1 comes from the CLI's route: it becomes current, as it always did.
    const v1 = await app.inject({
      method: 'POST',
      url: `/operator/clients/${c.clientId}/suite`,
      headers: operator,
      payload: {
        files: [
          { path: 'suite.json', content: v1Suite },
          { path: 'specs/home.spec.ts', content: homeV1 },
          { path: 'assets/logo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]).toString('base64'), encoding: 'base64' },
        ],
      },
    });
    expect(v1.statusCode, v1.body).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  it('imports a folder for trial: version 2 is listed, version 1 still runs', async () => {
    const res = await upload({ makeCurrent: 'false' }, [
      { field: 'files', name: 'my-suite/suite.json', content: v2Suite },
      { field: 'files', name: 'my-suite/specs/home.spec.ts', content: homeV2 },
      { field: 'files', name: 'my-suite/.DS_Store', content: 'junk' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ version: 2, tests: 1, current: false, groups: { Frontend: ['beta'] } });
    const list = await get(base());
    expect(list.statusCode).toBe(200);
    expect(list.json().versions).toEqual([
      expect.objectContaining({ version: 2, fileCount: 2, tests: 1, current: false, importedBy: expect.stringContaining('@example.test') }),
      expect.objectContaining({ version: 1, fileCount: 3, tests: 1, current: true }),
    ]);
    expect(await fetchAll()).toEqual({ Frontend: ['alpha'] });
  });

  it('lists a version’s files and shows one as text, a binary one as a note', async () => {
    const files = await get(`${base()}/2/files`);
    expect(files.json()).toEqual({
      version: 2,
      files: [
        { path: 'specs/home.spec.ts', size: Buffer.byteLength(homeV2) },
        { path: 'suite.json', size: Buffer.byteLength(v2Suite) },
      ],
    });
    const spec = await get(`${base()}/2/file?path=${encodeURIComponent('specs/home.spec.ts')}`);
    expect(spec.json()).toMatchObject({ path: 'specs/home.spec.ts', binary: false, truncated: false, content: homeV2 });
    const logo = await get(`${base()}/1/file?path=assets/logo.png`);
    expect(logo.json()).toMatchObject({ binary: true, content: null, note: expect.stringContaining('binary') });
    expect((await get(`${base()}/2/file?path=nope.ts`)).statusCode).toBe(404);
    expect((await get(`${base()}/9/files`)).statusCode).toBe(404);
  });

  it('refuses paths outside the suite folder, however they are written', async () => {
    for (const p of ['../../../etc/passwd', '/etc/passwd', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '%252e%252e%252fsuite.json', 'specs/../../x', '..\\..\\x', 'specs%00.ts']) {
      const res = await get(`${base()}/2/file?path=${p}`);
      expect(res.statusCode, p).toBe(400);
      expect(res.json().field).toBe('path');
    }
  });

  it('diffs two versions: the changed lines of each changed, added or removed file', async () => {
    const res = await get(`${base()}/diff?from=1&to=2`);
    expect(res.statusCode, res.body).toBe(200);
    const diff = res.json() as { files: { path: string; status: string; binary: boolean; patch: string | null }[]; unchanged: number };
    expect(diff.files.map((f) => [f.path, f.status])).toEqual([
      ['assets/logo.png', 'removed'],
      ['specs/home.spec.ts', 'changed'],
      ['suite.json', 'changed'],
    ]);
    const spec = diff.files.find((f) => f.path === 'specs/home.spec.ts')!;
    expect(spec.patch).toContain('-  // opens the home page');
    expect(spec.patch).toContain('+  // opens the pricing page');
    expect(diff.files[0]!.binary).toBe(true);
    expect((await get(`${base()}/diff?from=1&to=7`)).statusCode).toBe(404);
  });

  it('tries version 2 in a run while version 1 stays current, then makes it current', async () => {
    const tried = await app.inject({ method: 'POST', url: `${base()}/2/try`, headers: ops });
    expect(tried.statusCode, tried.body).toBe(200);
    const run = await waitForRunEnd(app, c.apiKey, tried.json().runId);
    expect(run.tests.map((t: { testName: string }) => t.testName)).toEqual(['beta']);
    expect(await fetchAll()).toEqual({ Frontend: ['alpha'] });
    // "Run all" still runs the current version.
    const runAll = await app.inject({ url: '/test/run/all?wait=true&timeout=60', headers: key(c) });
    expect(runAll.json().tests.map((t: { testName: string }) => t.testName)).toEqual(['alpha']);

    const made = await app.inject({ method: 'POST', url: `${base()}/2/current`, headers: ops });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ version: 2, previous: 1 });
    expect(await fetchAll()).toEqual({ Frontend: ['beta'] });
    const after = await app.inject({ url: '/test/run/all?wait=true&timeout=60', headers: key(c) });
    expect(after.json().tests.map((t: { testName: string }) => t.testName)).toEqual(['beta']);
    expect((await get(base())).json().versions.map((v: { current: boolean }) => v.current)).toEqual([true, false]);

    const types = (await app.db.select().from(auditEvents)).filter((e) => e.clientId === c.clientId).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['suite.imported', 'suite.tried', 'suite.current']));
  }, 60_000);

  it('imports a zip with one top folder and makes it current', async () => {
    const zip = await zipOf({ 'suite-v3/suite.json': v1Suite, 'suite-v3/specs/home.spec.ts': homeV1, '__MACOSX/suite-v3/._suite.json': 'x' });
    const res = await upload({ makeCurrent: 'true' }, [{ field: 'zip', name: 'suite-v3.zip', content: zip }]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ version: 3, current: true });
    expect(await fetchAll()).toEqual({ Frontend: ['alpha'] });
    expect((await get(`${base()}/3/files`)).json().files.map((f: { path: string }) => f.path)).toEqual(['specs/home.spec.ts', 'suite.json']);
  });

  it('refuses a bad suite with 400 naming file, field and reason, and stores nothing', async () => {
    const before = (await get(base())).json().versions.length;
    const bad = await upload({ makeCurrent: 'true' }, [
      { field: 'files', name: 'x/suite.json', content: manifest({ G: [{ name: 'home', kind: 'radar' }] }) },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([{ file: 'suite.json', field: 'groups.0.tests.0.kind', reason: expect.stringMatching(/^must be one of/) }]);

    const missingSpec = await upload({ makeCurrent: 'false' }, [{ field: 'files', name: 'suite.json', content: v1Suite }]);
    expect(missingSpec.statusCode).toBe(400);
    expect(missingSpec.json().issues[0]).toMatchObject({ file: 'suite.json', field: 'groups.0.tests.0.options.specs.0' });

    const traversal = Buffer.from(await zipOf({ 'suite.json': v1Suite, 'xx/evil.ts': 'x' }));
    traversal.set(Buffer.from('../'), traversal.indexOf('xx/evil.ts'));
    traversal.set(Buffer.from('../'), traversal.lastIndexOf('xx/evil.ts'));
    const refused = await upload({}, [{ field: 'zip', name: 'evil.zip', content: traversal }]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues[0].file).toBe('(zip)');

    const bomb = await zipOf({ 'suite.json': v1Suite, 'specs/home.spec.ts': Buffer.alloc(6 * 1024 * 1024) }, true);
    expect(bomb.length).toBeLessThan(100_000);
    const tooBig = await upload({}, [{ field: 'zip', name: 'bomb.zip', content: bomb }]);
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().issues[0].reason).toMatch(/at most \d+ bytes/);

    const notZip = await upload({}, [{ field: 'zip', name: 'a.zip', content: 'not a zip' }]);
    expect(notZip.statusCode).toBe(400);
    const nothing = await upload({ makeCurrent: 'true' }, []);
    expect(nothing.statusCode, nothing.body).toBe(400);

    expect((await get(base())).json().versions.length).toBe(before);
  });

  it('refuses client tokens and keys, and other clients’ versions stay apart', async () => {
    const session = await login(app, c.email, c.password);
    for (const headers of [bearer(session.accessToken), key(c)]) {
      expect((await get(base(), headers)).statusCode).toBe(403);
      expect((await get(`${base()}/1/files`, headers)).statusCode).toBe(403);
      expect((await app.inject({ method: 'POST', url: `${base()}/1/try`, headers })).statusCode).toBe(403);
      expect((await app.inject({ method: 'POST', url: `${base()}/1/current`, headers })).statusCode).toBe(403);
    }
    expect((await get(`/operator/clients/${other.clientId}/suites/1/files`)).statusCode).toBe(404);
    expect((await get(`/operator/clients/${other.clientId}/suites`)).json()).toEqual({ versions: [] });
    expect((await get('/operator/clients/no-such-client/suites', operator)).statusCode).toBe(404);
  });
});
