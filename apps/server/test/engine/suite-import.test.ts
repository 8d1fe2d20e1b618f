import { describe, expect, it } from 'vitest';
import { createTestClient } from '../helpers/app.ts';
import { importSuite, manifest, operator, useEngineApp } from './helpers.ts';

describe('suite import', () => {
  const fixture = useEngineApp(0, async (app) => ({ c: await createTestClient(app) }));

  const issuesOf = async (files: Record<string, string>) => {
    const res = await importSuite(fixture.app, fixture.c.clientId, files);
    expect(res.statusCode, res.body).toBe(422);
    return res.json() as { message: string; issues: { file: string; field: string; reason: string }[] };
  };

  it('names the file, the field and the reason of every problem', async () => {
    const body = await issuesOf({
      'suite.json': manifest({
        Frontend: [
          { name: 'home', kind: 'browser', options: { specs: ['specs/home.spec.ts'] } },
          { name: 'Home', kind: 'browser', options: { outcome: 'maybe' } },
          { name: 'radar', kind: 'radar' },
        ],
      }),
    });
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { file: 'suite.json', field: 'groups.0.tests.2.kind', reason: expect.stringMatching(/^must be one of browser, /) },
      ]),
    );
    // The shape problem stops validation before the per-test checks; fix it and see the rest.
    const second = await issuesOf({
      'suite.json': manifest({
        Frontend: [
          { name: 'home', kind: 'browser', options: { specs: ['specs/home.spec.ts'] } },
          { name: 'Home', kind: 'browser', options: { outcome: 'maybe' } },
        ],
      }),
    });
    expect(second.issues).toEqual([
      { file: 'suite.json', field: 'groups.0.tests.0.options.specs.0', reason: 'file "specs/home.spec.ts" is not in the suite' },
      { file: 'suite.json', field: 'groups.0.tests.1.name', reason: 'test name "Home" is already used at groups.0.tests.0; names are unique per client' },
      { file: 'suite.json', field: 'groups.0.tests.1.options.outcome', reason: 'must be pass or fail' },
    ]);
    expect(second.message).toContain('suite.json: groups.0.tests.1.options.outcome: must be pass or fail');
  });

  it('refuses a missing manifest, bad JSON, unsafe paths and a reserved name', async () => {
    expect((await issuesOf({ 'readme.md': 'hi' })).issues).toEqual([{ file: 'suite.json', field: '(file)', reason: 'the suite has no manifest' }]);
    expect((await issuesOf({ 'suite.json': '{ nope' })).issues[0]).toMatchObject({ file: 'suite.json', field: '(json)' });
    const reserved = await issuesOf({ 'suite.json': manifest({ G: [{ name: 'all', kind: 'api' }] }) });
    expect(reserved.issues[0]).toMatchObject({ field: 'groups.0.tests.0.name', reason: expect.stringContaining('reserved') });
    const unsafe = await importSuite(fixture.app, fixture.c.clientId, { '../suite.json': '{}' });
    expect(unsafe.statusCode).toBe(400);
    expect(unsafe.json().message).toMatch(/not a safe relative path/);
  });

  it('imports a visual test now that its shots are reviewed and approved in the console (decision 0082)', async () => {
    const other = await createTestClient(fixture.app);
    const res = await importSuite(fixture.app, other.clientId, {
      'suite.json': manifest({ Frontend: [{ name: 'home api', kind: 'api', options: { requests: [{ path: '/' }] } }, { name: 'home looks', kind: 'visual', options: { pages: ['/'] } }] }),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ tests: 2, groups: { Frontend: ['home api', 'home looks'] } });
  });

  it('imports a mobile UI test now that an operator sets the client\'s device provider (issue 28)', async () => {
    const other = await createTestClient(fixture.app);
    const res = await importSuite(fixture.app, other.clientId, {
      'suite.json': manifest({ Mobile: [{ name: 'app signs in', kind: 'mobile-ui', options: { specs: 'mobile/*.spec.ts', platform: 'android' } }] }),
      'mobile/sign-in.spec.ts': "import { $ } from '@wdio/globals';\n",
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ tests: 1, groups: { Mobile: ['app signs in'] } });
  });

  it('stores each import as a new version and lists the newest suite at once', async () => {
    const key = { 'x-api-key': fixture.c.apiKey };
    expect((await fixture.app.inject({ url: '/test/fetch/all', headers: key })).json()).toEqual({});
    const v1 = await importSuite(fixture.app, fixture.c.clientId, {
      'suite.json': manifest({ Frontend: [{ name: 'home', kind: 'browser', options: { specs: ['specs/home.spec.ts'] } }] }),
      'specs/home.spec.ts': "import { test } from '@playwright/test';\n",
    });
    expect(v1.statusCode).toBe(201);
    expect(v1.json()).toMatchObject({ version: 1, tests: 1, groups: { Frontend: ['home'] } });
    expect((await fixture.app.inject({ url: '/test/fetch/all', headers: key })).json()).toEqual({ Frontend: ['home'] });
    const v2 = await importSuite(fixture.app, fixture.c.clientId, { 'suite.json': manifest({ API: [{ name: 'health', kind: 'api' }] }) });
    expect(v2.json()).toMatchObject({ version: 2, groups: { API: ['health'] } });
    expect((await fixture.app.inject({ url: '/test/fetch/all', headers: key })).json()).toEqual({ API: ['health'] });
    const history = await fixture.app.inject({ url: `/operator/clients/${fixture.c.clientId}/suite`, headers: operator });
    expect(history.json().versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const unknown = await importSuite(fixture.app, 'no-such-client', { 'suite.json': '{}' });
    expect(unknown.statusCode).toBe(404);
  });
});
