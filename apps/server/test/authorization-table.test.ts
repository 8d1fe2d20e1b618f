import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { access, type Caller, CALLERS } from '../src/lib/access.ts';
import { entryOf } from '../src/features/auth/guard.ts';
import { bearer, buildTestApp, createTestClient, login, operatorBearer, signedInClient } from './helpers/app.ts';
import { teamUser } from './helpers/team.ts';

/** The authorization table (lib/access.ts, decision 0074): every route, every kind of caller, one app. */

const SECURITY_DOC = path.resolve(import.meta.dirname, '../../../docs/security.md');
const START = '<!-- access-table:start (generated: WRITE_ACCESS_TABLE=1 npx vitest run --project server apps/server/test/authorization-table.test.ts) -->';
const END = '<!-- access-table:end -->';
const COLUMNS: [Caller, string][] = [['anonymous', 'anyone'], ['api-key', 'API key'], ['viewer', 'viewer'], ['member', 'member'], ['owner', 'owner'], ['operator', 'operator']];

/** The table as docs/security.md lists it, from the routes the app registered. */
function renderTable(app: FastifyInstance): string {
  const rows = [...app.accessTable].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  const head = `| Route | ${COLUMNS.map(([, title]) => title).join(' | ')} |\n|---|${COLUMNS.map(() => ':-:').join('|')}|`;
  const lines = rows.map((r) => {
    const open = r.access.includes('anonymous');
    return `| \`${r.method} ${r.url.replace(/\|/g, '\\|')}\` | ${COLUMNS.map(([c]) => (open || r.access.includes(c) ? 'yes' : '')).join(' | ')} |`;
  });
  return [START, head, ...lines, END].join('\n');
}

/** `/a/:id/b` and `/a/{id}/b`, `/x/*` and `/x/{*}` alike. */
const routeKey = (method: string, url: string) => `${method.toUpperCase()} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}')}`;

type Who = Caller | 'other-owner';

describe('the authorization table', () => {
  let app: FastifyInstance;
  const headers = {} as Record<Who, Record<string, string>>;
  let clientId: string;
  let apiKey: string;
  let webDist = '';

  beforeAll(async () => {
    // A built web app of its own (one page), so its routes are in the table whether or not `npm run build` ran here.
    webDist = mkdtempSync(path.join(os.tmpdir(), 'fullstop-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Fullstop QA</title>');
    app = await buildTestApp({ env: { WEB_DIST_DIR: webDist } });
    const a = await createTestClient(app);
    clientId = a.clientId;
    apiKey = a.apiKey;
    headers.anonymous = {};
    headers['api-key'] = { 'x-api-key': a.apiKey };
    headers.viewer = bearer((await teamUser(app, a.clientId, 'viewer')).accessToken);
    headers.member = bearer((await teamUser(app, a.clientId, 'member')).accessToken);
    headers.owner = bearer((await login(app, a.email, a.password)).accessToken);
    headers.operator = operatorBearer(app);
    headers['other-owner'] = bearer((await signedInClient(app)).token);
  });
  afterAll(async () => {
    await app?.close();
    if (webDist) rmSync(webDist, { recursive: true, force: true });
  });

  it('docs/security.md lists every route with who may call it', () => {
    const expected = renderTable(app);
    const doc = readFileSync(SECURITY_DOC, 'utf8');
    const at = doc.indexOf('<!-- access-table:start');
    const end = doc.indexOf(END);
    if (process.env.WRITE_ACCESS_TABLE === '1' && at >= 0 && end > at) {
      writeFileSync(SECURITY_DOC, doc.slice(0, at) + expected + doc.slice(end + END.length));
      return;
    }
    expect(at, 'docs/security.md has the access table block').toBeGreaterThanOrEqual(0);
    expect(doc.slice(at, end + END.length), 'the table in docs/security.md is stale: run the command in its first line').toBe(expected);
  });

  it('a route without an entry, or with a wrong one, stops the start', async () => {
    const bare = Fastify();
    bare.addHook('onRoute', (route) => void entryOf(route));
    expect(() => bare.get('/new', async () => 'hi')).toThrow(/declares no access/);
    expect(() => bare.get('/typo', { config: { access: ['members' as Caller] } }, async () => 'hi')).toThrow(/unknown caller "members"/);
    expect(() => bare.post('/silent', { config: { access: access.clientWriters } }, async () => 'hi')).toThrow(/config\.action/);
    expect(() => bare.get('/ok', { config: { access: access.clientReaders } }, async () => 'hi')).not.toThrow();
    await bare.close();
  });

  it('every route of the OpenAPI document answers each kind of caller only as its entry allows', async () => {
    const table = new Map(app.accessTable.map((e) => [routeKey(e.method, e.url), e.access]));
    const doc = (await app.inject({ url: '/docs/json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    const refusals: string[] = [];
    let calls = 0;
    const filled = (p: string) =>
      p.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        if (name === 'id') return clientId;
        if (name === 'platform') return 'android';
        if (name === 'kind') return 'webhook';
        if (name === 'format') return 'html';
        return '00000000-0000-4000-8000-000000000000';
      });
    for (const [docPath, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        const key = routeKey(method, docPath);
        const allowed = table.get(key);
        expect(allowed, `${key} is in the OpenAPI document but not in the table`).toBeDefined();
        const open = allowed!.includes('anonymous');
        for (const who of [...CALLERS, 'other-owner'] as Who[]) {
          const kind: Caller = who === 'other-owner' ? 'owner' : who;
          const lets = open || allowed!.includes(kind);
          // A stream never ends by itself: only its refusals are checked.
          if (lets && key === 'GET /test/events') continue;
          const write = !['GET', 'DELETE'].includes(method.toUpperCase());
          const res = await app.inject({ method: method.toUpperCase() as 'GET', url: filled(docPath), headers: headers[who], ...(write ? { payload: {} } : {}) });
          calls += 1;
          const status = res.statusCode;
          const line = `${key} as ${who}: ${status} ${res.body.slice(0, 160)}`;
          if (status === 500) refusals.push(`${line} (a 500)`);
          else if (!lets && ![401, 403, 404].includes(status)) refusals.push(`${line} (not allowed: expected 401, 403 or 404)`);
          else if (who === 'other-owner' && !open && docPath.includes('{id}') && status < 300) refusals.push(`${line} (another client's id)`);
          else if (!lets && who !== 'anonymous' && status === 401) refusals.push(`${line} (a valid credential answered 401)`);
          // A new API key for the client (generateAPIKey): the API key caller goes on with it.
          if (key.includes('generateAPIKey') && status === 200) {
            const revealed = await app.inject({ method: 'POST', url: `/operator/clients/${clientId}/reveal-api-key`, headers: headers.operator });
            apiKey = revealed.json<{ apiKey: string }>().apiKey;
            headers['api-key'] = { 'x-api-key': apiKey };
          }
        }
      }
    }
    expect(refusals).toEqual([]);
    expect(calls).toBeGreaterThan(500);
  }, 120_000);

  it('a refused caller hears why, in the words the portal shows', async () => {
    const viewer = await app.inject({ method: 'POST', url: '/integrations/sync', headers: headers.viewer });
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json()).toEqual({ code: 'VIEWER_READ_ONLY', message: 'Viewers cannot sync trackers: ask an owner of your team for the member role' });
    const key = await app.inject({ method: 'DELETE', url: '/integrations/webhook', headers: headers['api-key'] });
    expect(key.statusCode).toBe(403);
    expect(key.json().message).toMatch(/^An API key cannot disconnect trackers/);
    const client = await app.inject({ url: '/operator/clients', headers: headers.owner });
    expect(client.json()).toEqual({ code: 'FORBIDDEN', message: 'Operators only' });
    const operator = await app.inject({ url: '/requests', headers: headers.operator });
    expect(operator.json().message).toBe('This call needs a client account or a client API key');
    const member = await app.inject({ method: 'POST', url: '/team/invitations', headers: headers.member, payload: {} });
    expect(member.statusCode).toBe(403);
    expect(member.json().message).toBe('Only an owner of your team can do this');
    // The check comes before the body is read: an anonymous caller's bad body is a 401, not a 400.
    const anonymous = await app.inject({ method: 'POST', url: '/requests', payload: 'not json', headers: { 'content-type': 'application/json' } });
    expect(anonymous.statusCode).toBe(401);
  });
});
