import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BugStatus } from '@fullstop/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bugEvents, bugs } from '../src/db/schema/index.ts';
import { listAttempts, listBugExports } from '../src/features/integrations/repository.ts';
import { bearer, buildTestApp, createTestClient, login, operatorBearer, type TestClient } from './helpers/app.ts';

// Bug export: fake GitHub and Jira APIs and a webhook receiver on 127.0.0.1, each checking what a real one would.

interface Call {
  method: string;
  path: string;
  body: unknown;
}

const GITHUB_TOKEN = 'ghp_goodtoken1234567890';
const JIRA_TOKEN = 'jira-good-token-abcdef';
const JIRA_AUTH = `Basic ${Buffer.from(`qa@acme.test:${JIRA_TOKEN}`).toString('base64')}`;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** GitHub: repo acme/shop only, issues numbered from 1; closing state set by the test. */
function fakeGithub() {
  const calls: Call[] = [];
  const issues = new Map<number, { state: string; title: string; body: string }>();
  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const body = raw ? JSON.parse(raw) : null;
    const path = req.url ?? '';
    if (req.headers.authorization !== `Bearer ${GITHUB_TOKEN}`) return send(res, 401, { message: 'Bad credentials' });
    calls.push({ method: req.method!, path, body });
    if (!path.startsWith('/repos/acme/shop')) return send(res, 404, { message: 'Not Found' });
    const rest = path.slice('/repos/acme/shop'.length);
    if (req.method === 'GET' && rest === '') return send(res, 200, { full_name: 'acme/shop' });
    if (req.method === 'POST' && rest === '/issues') {
      const n = issues.size + 1;
      issues.set(n, { state: 'open', title: body.title, body: body.body });
      return send(res, 201, { number: n, html_url: `https://github.test/acme/shop/issues/${n}` });
    }
    const m = /^\/issues\/(\d+)(\/comments)?$/.exec(rest);
    const issue = m ? issues.get(Number(m[1])) : undefined;
    if (!m || !issue) return send(res, 404, { message: 'Not Found' });
    if (m[2] && req.method === 'POST') return send(res, 201, { id: 1 });
    if (req.method === 'PATCH') {
      issue.state = body.state;
      return send(res, 200, { state: issue.state });
    }
    return send(res, 200, { number: Number(m[1]), state: issue.state });
  });
  return { server, calls, issues };
}

/** Jira Cloud: project ACME only. */
function fakeJira() {
  const calls: Call[] = [];
  const issues = new Map<string, { category: string }>();
  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const body = raw ? JSON.parse(raw) : null;
    const path = req.url ?? '';
    if (req.headers.authorization !== JIRA_AUTH) return send(res, 401, { errorMessages: ['unauthorized'] });
    calls.push({ method: req.method!, path, body });
    if (req.method === 'GET' && path === '/rest/api/3/project/ACME') return send(res, 200, { key: 'ACME' });
    if (req.method === 'POST' && path === '/rest/api/3/issue' && body.fields.project.key === 'ACME') {
      const key = `ACME-${issues.size + 7}`;
      issues.set(key, { category: 'new' });
      return send(res, 201, { id: '1000', key });
    }
    const m = /^\/rest\/api\/3\/issue\/([A-Z]+-\d+)(\/comment|\?fields=status)?$/.exec(path);
    const issue = m ? issues.get(m[1]!) : undefined;
    if (!m || !issue) return send(res, 404, { errorMessages: ['not found'] });
    if (m[2] === '/comment') return send(res, 201, { id: '1' });
    return send(res, 200, { key: m[1], fields: { status: { name: issue.category === 'done' ? 'Done' : 'To Do', statusCategory: { key: issue.category } } } });
  });
  return { server, calls, issues };
}

/** A receiver that verifies the signature like docs/bug-export.md says, answering the queued statuses (then 200). */
function webhookReceiver() {
  const received: { payload: Record<string, unknown>; verified: boolean; status: number }[] = [];
  const answers: number[] = [];
  const state = { secret: '' };
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const timestamp = String(req.headers['x-fullstop-timestamp']);
    const expected = `sha256=${createHmac('sha256', state.secret).update(`${timestamp}.${body}`).digest('hex')}`;
    const given = String(req.headers['x-fullstop-signature']);
    const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
    const verified = fresh && given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
    const status = verified ? (answers.shift() ?? 200) : 401;
    received.push({ payload: JSON.parse(body), verified, status });
    res.writeHead(status).end();
  });
  return { server, received, answers, state };
}

describe('bug export to the client’s tracker', () => {
  const github = fakeGithub();
  const jira = fakeJira();
  const hook = webhookReceiver();
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;
  let authA: { authorization: string };
  let authB: { authorization: string };
  let jiraUrl: string;
  let hookUrl: string;
  let bugCount = 0;

  const addBug = async (status: BugStatus, clientId = a.clientId) => {
    bugCount += 1;
    const [row] = await app.db
      .insert(bugs)
      .values({ clientId, number: bugCount, title: `Checkout fails ${bugCount}`, severity: 'high', status, url: 'https://shop.test/checkout', steps: ['Open the cart', 'Pay'], expected: 'Paid', actual: 'Error 500' })
      .returning();
    return row!;
  };
  const setStatus = async (bugId: string, from: BugStatus, to: BugStatus) => {
    await app.db.update(bugs).set({ status: to }).where(eq(bugs.id, bugId));
    await app.bugChanges.emit({ bugId, clientId: a.clientId, kind: 'status', from, to });
    await app.integrations.drain();
  };

  beforeAll(async () => {
    const githubUrl = await listen(github.server);
    jiraUrl = await listen(jira.server);
    hookUrl = `${await listen(hook.server)}/hooks/fullstop`;
    app = await buildTestApp({ env: { ENGINE_ALLOW_PRIVATE_TARGETS: true, GITHUB_API_URL: githubUrl, INTEGRATIONS_RETRY_DELAY: 0, PUBLIC_URL: 'https://portal.test' } });
    a = await createTestClient(app);
    b = await createTestClient(app);
    authA = bearer((await login(app, a.email, a.password)).accessToken);
    authB = bearer((await login(app, b.email, b.password)).accessToken);
  });
  afterAll(async () => {
    await app?.close();
    for (const s of [github.server, jira.server, hook.server]) s.close();
  });

  it('refuses bad settings with a clear message', async () => {
    const put = (kind: string, payload: object) => app.inject({ method: 'PUT', url: `/integrations/${kind}`, headers: authA, payload });
    let res = await put('webhook', { url: 'ftp://hooks.acme.test/x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/url must be an http\(s\) URL/);
    res = await put('github', { owner: 'acme', repo: 'shop', token: 'ghp_wrong' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'token', message: expect.stringMatching(/GitHub refused the token/) });
    res = await put('github', { owner: 'acme', repo: 'nope', token: GITHUB_TOKEN });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/no repository acme\/nope/);
    res = await put('jira', { siteUrl: jiraUrl, projectKey: 'NOPE', email: 'qa@acme.test', token: JIRA_TOKEN });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/no project NOPE/);
    expect((await app.inject({ method: 'GET', url: '/integrations', headers: authA })).json().integrations).toEqual([]);
  });

  it('refuses a loopback tracker unless private targets are allowed', async () => {
    const strict = await buildTestApp();
    try {
      const c = await createTestClient(strict);
      const auth = bearer((await login(strict, c.email, c.password)).accessToken);
      const res = await strict.inject({ method: 'PUT', url: '/integrations/webhook', headers: auth, payload: { url: hookUrl } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/refused/);
    } finally {
      await strict.close();
    }
  });

  it('connects each kind; secrets never come back; the webhook secret is shown once', async () => {
    const gh = await app.inject({ method: 'PUT', url: '/integrations/github', headers: authA, payload: { owner: 'acme', repo: 'shop', token: GITHUB_TOKEN } });
    expect(gh.statusCode).toBe(200);
    const jr = await app.inject({ method: 'PUT', url: '/integrations/jira', headers: authA, payload: { siteUrl: jiraUrl, projectKey: 'ACME', email: 'qa@acme.test', token: JIRA_TOKEN } });
    expect(jr.statusCode).toBe(200);
    const wh = await app.inject({ method: 'PUT', url: '/integrations/webhook', headers: authA, payload: { url: hookUrl } });
    expect(wh.statusCode).toBe(200);
    hook.state.secret = wh.json().secret;
    expect(hook.state.secret).toMatch(/^whsec_/);
    // Replacing keeps the secret (not shown again).
    const again = await app.inject({ method: 'PUT', url: '/integrations/webhook', headers: authA, payload: { url: hookUrl } });
    expect(again.json().secret).toBeUndefined();

    const list = await app.inject({ method: 'GET', url: '/integrations', headers: authA });
    expect(list.json().integrations.map((i: { kind: string }) => i.kind)).toEqual(['github', 'jira', 'webhook']);
    const ops = await app.inject({ method: 'GET', url: `/operator/clients/${a.clientId}/integrations`, headers: operatorBearer(app) });
    expect(ops.statusCode).toBe(200);
    for (const body of [gh.body, jr.body, again.body, list.body, ops.body]) {
      expect(body).not.toContain(GITHUB_TOKEN);
      expect(body).not.toContain(JIRA_TOKEN);
      expect(body).not.toContain(hook.state.secret);
    }
    expect(list.json().integrations[0].secretHint).toBe(`••••${GITHUB_TOKEN.slice(-4)}`);

    const test = await app.inject({ method: 'POST', url: '/integrations/webhook/test', headers: authA });
    expect(test.json()).toMatchObject({ delivered: true, statusCode: 200 });
    expect(hook.received.at(-1)).toMatchObject({ verified: true, payload: { event: 'test' } });
  });

  it('client B can neither read nor change A’s connections; an API key only reads', async () => {
    expect((await app.inject({ method: 'GET', url: '/integrations', headers: authB })).json().integrations).toEqual([]);
    expect((await app.inject({ method: 'DELETE', url: '/integrations/github', headers: authB })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/integrations/github/test', headers: authB })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/integrations/deliveries', headers: authB })).json().deliveries).toEqual([]);
    const key = { 'x-api-key': a.apiKey };
    expect((await app.inject({ method: 'GET', url: '/integrations', headers: key })).json().integrations).toHaveLength(3);
    expect((await app.inject({ method: 'DELETE', url: '/integrations/github', headers: key })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/integrations', headers: authA })).json().integrations).toHaveLength(3);
  });

  it('an accepted bug becomes a GitHub and a Jira issue, and verified closes the GitHub one', async () => {
    const bug = await addBug('open');
    await setStatus(bug.id, 'open', 'accepted');
    const created = github.calls.find((c) => c.method === 'POST' && c.path === '/repos/acme/shop/issues');
    expect(created?.body).toMatchObject({ title: `BUG-${bug.number}: ${bug.title}` });
    expect((created?.body as { body: string }).body).toContain(`https://portal.test/dashboard/bugs/${bug.id}`);
    expect((created?.body as { body: string }).body).toContain('Severity: high');
    expect(jira.calls.some((c) => c.method === 'POST' && c.path === '/rest/api/3/issue')).toBe(true);
    expect(await listBugExports(app.db, bug.id)).toEqual(
      expect.arrayContaining([
        { target: 'github', reference: '#1', url: 'https://github.test/acme/shop/issues/1' },
        { target: 'jira', reference: 'ACME-7', url: `${jiraUrl}/browse/ACME-7` },
      ]),
    );
    expect(hook.received.at(-1)).toMatchObject({ verified: true, payload: { event: 'bug.status-changed', bug: { id: bug.id, status: 'accepted' } } });

    await setStatus(bug.id, 'accepted', 'verified');
    expect(github.issues.get(1)?.state).toBe('closed');
    expect(github.calls.some((c) => c.method === 'POST' && c.path === '/repos/acme/shop/issues/1/comments')).toBe(true);
    expect(jira.calls.some((c) => c.method === 'POST' && c.path === '/rest/api/3/issue/ACME-7/comment')).toBe(true);
  });

  it('a GitHub issue closed by the client’s team moves the bug to fixed on sync', async () => {
    const bug = await addBug('open');
    await setStatus(bug.id, 'open', 'accepted');
    const [exp] = (await listBugExports(app.db, bug.id)).filter((e) => e.target === 'github');
    github.issues.get(Number(exp!.reference.slice(1)))!.state = 'closed';
    const res = await app.inject({ method: 'POST', url: '/integrations/sync', headers: authA });
    expect(res.json()).toMatchObject({ updated: 1, errors: [] });
    const [row] = await app.db.select().from(bugs).where(eq(bugs.id, bug.id));
    expect(row!.status).toBe('fixed');
    const events = await app.db.select().from(bugEvents).where(eq(bugEvents.bugId, bug.id));
    expect(events).toEqual([expect.objectContaining({ fromStatus: 'accepted', toStatus: 'fixed', by: 'GitHub' })]);
    // The webhook hears of it; GitHub is not told back what it said.
    await app.integrations.drain();
    expect(hook.received.at(-1)).toMatchObject({ payload: { bug: { id: bug.id, status: 'fixed' } } });
    expect(github.calls.filter((c) => c.path === `/repos/acme/shop/issues/${exp!.reference.slice(1)}/comments`)).toHaveLength(0);
  });

  it('a Jira issue moved to a done status moves the bug to fixed on sync', async () => {
    const bug = await addBug('open');
    await setStatus(bug.id, 'open', 'accepted');
    const [exp] = (await listBugExports(app.db, bug.id)).filter((e) => e.target === 'jira');
    jira.issues.get(exp!.reference)!.category = 'done';
    expect((await app.inject({ method: 'POST', url: '/integrations/sync', headers: authA })).json()).toMatchObject({ updated: 1 });
    const events = await app.db.select().from(bugEvents).where(eq(bugEvents.bugId, bug.id));
    expect(events).toEqual([expect.objectContaining({ toStatus: 'fixed', by: 'Jira' })]);
    await app.integrations.drain();
  });

  it('a webhook answering 500 then 200 is delivered on the retry, both attempts recorded', async () => {
    const bug = await addBug('accepted');
    hook.answers.push(500);
    await app.bugChanges.emit({ bugId: bug.id, clientId: a.clientId, kind: 'comment', from: 'accepted', to: 'accepted' });
    await app.integrations.drain();
    const list = (await app.inject({ method: 'GET', url: '/integrations/deliveries', headers: authA })).json().deliveries;
    const delivery = list.find((d: { bugId: string; event: string }) => d.bugId === bug.id && d.event === 'bug.commented');
    expect(delivery).toMatchObject({ kind: 'webhook', status: 'delivered', statusCode: 200, attempts: 2, bugNumber: bug.number });
    expect((await listAttempts(app.db, delivery.id)).map((t) => t.statusCode)).toEqual([500, 200]);
    expect(hook.received.slice(-2).map((r) => r.status)).toEqual([500, 200]);
    expect(hook.received.slice(-2).every((r) => r.verified)).toBe(true);
  });

  it('a draft bug is never sent', async () => {
    const bug = await addBug('draft');
    const before = hook.received.length;
    await app.bugChanges.emit({ bugId: bug.id, clientId: a.clientId, kind: 'comment', from: 'draft', to: 'draft' });
    await app.integrations.drain();
    expect(hook.received.length).toBe(before);
  });
});
