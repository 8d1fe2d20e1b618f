import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlertDelivery, AlertWebhookPayload } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { like } from 'drizzle-orm';
import { engineFalsePositives, loginFailures, testFlakyMarks } from '../src/db/schema/index.ts';
import { listAlertAttempts } from '../src/features/alerts/repository.ts';
import { FAKE_RUNNERS_MODULE, fakeRunners } from './engine/fixtures/fake-runners.ts';
import { clientWithSuite, importSuite, manifest, OPERATOR_TOKEN, operator, runAndWait, type SuiteTest } from './engine/helpers.ts';
import { confirmationTokenFor } from './helpers/alerts.ts';
import { mailsTo } from './helpers/auth.ts';
import { bearer, buildTestApp, createTestClient, login, signedInClient, type TestClient, useApp } from './helpers/app.ts';
import { teamUser } from './helpers/team.ts';

// Alerts against local receivers: a generic webhook that verifies the HMAC signature and rejects replays, a Slack
// and a Teams incoming webhook, and the mail outbox. Runs are real runs of the fake runners.

const PUBLIC_URL = 'https://portal.fullstop.test';
const REPLAY_WINDOW_S = 300;

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  verified: boolean;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** What a receiver does (docs/alerts.md): HMAC of "<timestamp>.<body>", compared in constant time, recent timestamps only. */
function verify(secret: string, headers: IncomingMessage['headers'], body: string): boolean {
  const ts = Number(headers['x-fullstop-timestamp']);
  if (!Number.isInteger(ts) || Math.abs(Date.now() / 1000 - ts) > REPLAY_WINDOW_S) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`);
  const given = Buffer.from(String(headers['x-fullstop-signature'] ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** One server for every channel: /hook/<name> records; `answers[name]` is a queue of statuses (default 200). */
function receiver() {
  const received: Received[] = [];
  const secrets = new Map<string, string>();
  const answers = new Map<string, number[]>();
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const name = (req.url ?? '').replace(/^\/hook\//, '');
    const secret = secrets.get(name);
    received.push({ path: name, headers: req.headers, body, verified: secret ? verify(secret, req.headers, body) : false });
    const status = answers.get(name)?.shift() ?? 200;
    res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'boom');
  });
  const at = (name: string) => received.filter((r) => r.path === name);
  return { server, received, secrets, answers, at };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const browser = (name: string, outcome: 'pass' | 'fail'): SuiteTest => ({ name, kind: 'browser', options: { outcome } });
const scan = (name: string, findings: { ruleId: string; name: string; risk: string }[]): SuiteTest => ({ name, kind: 'security-scan', options: { findings } });

describe('alerts', () => {
  let app: FastifyInstance;
  let base: string;
  const r = receiver();

  beforeAll(async () => {
    app = await buildTestApp({
      runners: fakeRunners,
      runnersModule: FAKE_RUNNERS_MODULE,
      env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true, INTEGRATIONS_RETRY_DELAY: 0, INTEGRATIONS_MAX_ATTEMPTS: 3, PUBLIC_URL },
    });
    await app.engine.startWorkers(1);
    base = await listen(r.server);
  });
  afterAll(async () => {
    await app?.close();
    r.server.close();
  });

  async function tokenOf(c: TestClient): Promise<string> {
    return (await login(app, c.email, c.password)).accessToken;
  }

  /** A signed webhook channel at /hook/<name>, its secret known to the receiver. */
  async function webhookChannel(c: TestClient, name: string, rules?: string[]) {
    const res = await app.inject({ method: 'POST', url: '/alerts/channels', headers: bearer(await tokenOf(c)), payload: { kind: 'webhook', name, target: `${base}/hook/${name}`, ...(rules ? { rules } : {}) } });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<{ channel: { id: string; secretHint: string }; secret: string }>();
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.channel.secretHint).toBe(`••••${body.secret.slice(-4)}`);
    r.secrets.set(name, body.secret);
    return body.channel;
  }

  const payloads = (name: string) => r.at(name).map((x) => JSON.parse(x.body) as AlertWebhookPayload);

  async function runAndAlert(c: TestClient) {
    const run = await runAndWait(app, c);
    await app.alerts.tick();
    return run as { runId: string; status: string };
  }

  it('tells a test starting to fail once, not on every failing run, then its recovery; each run is evaluated once', async () => {
    const c = await clientWithSuite(app, { Frontend: [browser('checkout', 'fail'), browser('home', 'pass')] });
    await webhookChannel(c, 'first');
    const run1 = await runAndAlert(c);
    expect(run1.status).toBe('failed');
    const run2 = await runAndAlert(c);
    // Evaluating again, twice at once, raises nothing new.
    await Promise.all([app.alerts.evaluatePending(), app.alerts.evaluatePending(), app.alerts.tick()]);
    expect((await importSuite(app, c.clientId, { 'suite.json': manifest({ Frontend: [browser('checkout', 'pass'), browser('home', 'pass')] }) })).statusCode).toBe(201);
    const run3 = await runAndAlert(c);
    expect(run3.status).toBe('passed');

    const got = payloads('first');
    // A run's alerts go out in any order.
    const order = [run1.runId, run2.runId, run3.runId];
    const sorted = got.map((p) => [p.rule, p.subject, p.runId] as const).sort((x, y) => order.indexOf(x[2]!) - order.indexOf(y[2]!) || x[0].localeCompare(y[0]));
    expect(sorted).toEqual([
      ['run-failed', 'run', run1.runId],
      ['test-failing', 'checkout', run1.runId],
      ['run-failed', 'run', run2.runId],
      ['test-recovered', 'checkout', run3.runId],
    ]);
    expect(r.at('first').every((x) => x.verified)).toBe(true);
    expect(got.find((p) => p.rule === 'test-failing')).toMatchObject({ event: 'alert', title: 'checkout started failing', runUrl: `${PUBLIC_URL}/dashboard/history/${run1.runId}` });

    const deliveries = (await app.inject({ url: '/alerts/deliveries', headers: bearer(await tokenOf(c)) })).json<{ deliveries: AlertDelivery[] }>().deliveries;
    expect(deliveries).toHaveLength(4);
    expect(deliveries.every((d) => d.status === 'delivered' && d.statusCode === 200 && d.attempts === 1 && d.error === null)).toBe(true);
  });

  it('keeps silent about a test marked flaky', async () => {
    const c = await clientWithSuite(app, { Frontend: [browser('wobbly', 'fail')] });
    await webhookChannel(c, 'flaky');
    await app.db.insert(testFlakyMarks).values({ clientId: c.clientId, testName: 'wobbly', note: 'known flaky' });
    await runAndAlert(c);
    expect(r.at('flaky')).toEqual([]);
  });

  it('tells a new High or Medium security alert, not one the previous scan already had, a Low one or a false positive', async () => {
    const sqli = { ruleId: '40018', name: 'SQL Injection', risk: 'High' };
    const csp = { ruleId: '10038', name: 'Content Security Policy (CSP) Header Not Set', risk: 'Medium' };
    const low = { ruleId: '10036', name: 'Server Leaks Version Information', risk: 'Low' };
    const dismissed = { ruleId: '10020', name: 'Missing Anti-clickjacking Header', risk: 'Medium' };
    const c = await clientWithSuite(app, { Security: [scan('zap', [sqli, low, dismissed])] });
    await webhookChannel(c, 'security', ['security-alert']);
    // A rule the team marked a false positive is not news.
    await app.db.insert(engineFalsePositives).values({ clientId: c.clientId, ruleId: '10020', url: '' });
    const run1 = await runAndAlert(c);
    expect((await importSuite(app, c.clientId, { 'suite.json': manifest({ Security: [scan('zap', [sqli, csp, low, dismissed])] }) })).statusCode).toBe(201);
    const run2 = await runAndAlert(c);
    expect(payloads('security').map((p) => [p.subject, p.title, p.runId])).toEqual([
      ['zap 40018', 'New High security alert: SQL Injection', run1.runId],
      ['zap 10038', 'New Medium security alert: Content Security Policy (CSP) Header Not Set', run2.runId],
    ]);
  });

  it('tells a load test missing its threshold the first time only', async () => {
    const c = await clientWithSuite(app, { Performance: [{ name: 'home load', kind: 'load', options: { thresholdMet: false } }] });
    await webhookChannel(c, 'load', ['load-threshold']);
    await runAndAlert(c);
    await runAndAlert(c);
    expect(payloads('load').map((p) => p.title)).toEqual(['home load missed its load threshold']);
  });

  it('retries a delivery the receiver answered 500, and records both attempts', async () => {
    const c = await clientWithSuite(app, { Frontend: [browser('search', 'fail')] });
    await webhookChannel(c, 'retry', ['test-failing']);
    r.answers.set('retry', [500]);
    await runAndAlert(c);
    expect(r.at('retry').map((x) => x.verified)).toEqual([true, true]);
    // A retry is the same alert: the receiver drops a duplicate by its id.
    const [first, second] = payloads('retry');
    expect(first!.alertId).toEqual(expect.any(String));
    expect(second!.alertId).toBe(first!.alertId);
    const [delivery] = (await app.inject({ url: '/alerts/deliveries', headers: bearer(await tokenOf(c)) })).json<{ deliveries: AlertDelivery[] }>().deliveries;
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, statusCode: 200, error: null, rule: 'test-failing' });
    expect((await listAlertAttempts(app.db, delivery!.id)).map((a) => [a.statusCode, a.error])).toEqual([
      [500, 'answered HTTP 500'],
      [200, null],
    ]);
    // The console shows the same.
    const seen = await app.inject({ url: `/operator/clients/${c.clientId}/alert-deliveries`, headers: operator });
    expect(seen.json().deliveries[0]).toMatchObject({ id: delivery!.id, attempts: 2, status: 'delivered' });
  });

  it('gives up after the last attempt and says why', async () => {
    const c = await clientWithSuite(app, { Frontend: [browser('cart', 'fail')] });
    await webhookChannel(c, 'down', ['test-failing']);
    r.answers.set('down', [503, 503, 503]);
    await runAndAlert(c);
    const [delivery] = (await app.inject({ url: '/alerts/deliveries', headers: bearer(await tokenOf(c)) })).json<{ deliveries: AlertDelivery[] }>().deliveries;
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, statusCode: 503, error: 'answered HTTP 503' });
  });

  it('posts Slack and Teams messages with the site’s strings escaped, and e-mails with a link to the run', async () => {
    const hostile = 'Pay <!channel> *now* [x](http://evil.test) & more';
    // A finding's name comes from the scanned site.
    const c = await clientWithSuite(app, { Security: [scan('zap', [{ ruleId: '90001', name: hostile, risk: 'High' }])] });
    const token = await tokenOf(c);
    for (const [kind, target] of [
      ['slack', `${base}/hook/slack`],
      ['teams', `${base}/hook/teams`],
      ['email', 'qa-team@acme.test'],
      ['email', 'never-confirmed@acme.test'],
    ]) {
      const res = await app.inject({ method: 'POST', url: '/alerts/channels', headers: bearer(token), payload: { kind, name: `${kind} channel`, target, rules: ['security-alert'] } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().secret).toBeUndefined();
    }
    // Only the address whose owner opened the mailed link gets alerts.
    expect((await app.inject({ method: 'POST', url: '/alerts/confirm', payload: { token: await confirmationTokenFor(app, 'qa-team@acme.test') } })).statusCode).toBe(200);
    const run = await runAndAlert(c);
    expect((await mailsTo(app, 'never-confirmed@acme.test')).map((m) => /Subject: (.*)/.exec(m)?.[1])).toEqual(['Confirm this address for Fullstop QA alerts']);

    const slack = JSON.parse(r.at('slack')[0]!.body);
    expect(slack.text).toBe('[Fullstop QA] New High security alert: Pay &lt;!channel&gt; *now* [x](http://evil.test) &amp; more');
    expect(slack.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: `New High security alert: ${hostile}`, emoji: false } });
    expect(slack.blocks[1].text.type).toBe('plain_text');
    expect(slack.blocks[2].text).toEqual({ type: 'mrkdwn', text: `<${PUBLIC_URL}/dashboard/history/${run.runId}|Open the run in Fullstop QA>` });

    const teams = JSON.parse(r.at('teams')[0]!.body);
    expect(teams).toMatchObject({ '@type': 'MessageCard', '@context': 'https://schema.org/extensions' });
    expect(teams.title).not.toContain('<!channel>');
    expect(teams.title).toContain('&lt;\\!channel&gt;');
    expect(teams.title).toContain('\\*now\\*');
    expect(teams.title).toContain('\\[x\\]\\(http://evil\\.test\\)');
    expect(teams.potentialAction[0].targets[0].uri).toBe(`${PUBLIC_URL}/dashboard/history/${run.runId}`);

    // Headers unfolded, quoted-printable soft breaks joined.
    const mail = (await mailsTo(app, 'qa-team@acme.test')).find((m) => !m.includes('Confirm this address'))!.replace(/\r?\n(?=[ \t])/g, '').replace(/=\r?\n/g, '');
    expect(mail).toContain(`Subject: [Fullstop QA] New High security alert: ${hostile}`);
    expect(mail).toContain(`${PUBLIC_URL}/dashboard/history/${run.runId}`);
  });

  it('sends a test alert on demand and lists it with its answer', async () => {
    const c = await createTestClient(app);
    const token = await tokenOf(c);
    const channel = await webhookChannel(c, 'ping');
    const res = await app.inject({ method: 'POST', url: `/alerts/channels/${channel.id}/test`, headers: bearer(token) });
    expect(res.json()).toEqual({ delivered: true, statusCode: 200, message: 'Your webhook answered HTTP 200' });
    expect(payloads('ping')[0]).toMatchObject({ event: 'test', rule: 'test', title: 'Test alert' });
    expect(r.at('ping')[0]!.verified).toBe(true);
    r.answers.set('ping', [500]);
    // One test per channel a minute (ALERT_TEST_INTERVAL): the next one says when to try again.
    const soon = await app.inject({ method: 'POST', url: `/alerts/channels/${channel.id}/test`, headers: bearer(token) });
    expect(soon.statusCode).toBe(429);
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);
    await app.db.delete(loginFailures).where(like(loginFailures.key, `alert-message:${channel.id}%`));
    const failed = await app.inject({ method: 'POST', url: `/alerts/channels/${channel.id}/test`, headers: bearer(token) });
    expect(failed.json()).toEqual({ delivered: false, statusCode: 500, message: 'Your webhook answered HTTP 500' });
    const deliveries = (await app.inject({ url: '/alerts/deliveries', headers: bearer(token) })).json<{ deliveries: AlertDelivery[] }>().deliveries;
    expect(deliveries.map((d) => [d.rule, d.status, d.statusCode])).toEqual([
      ['test', 'failed', 500],
      ['test', 'delivered', 200],
    ]);
  });

  it('lets members manage channels but not viewers or API keys; another client sees none of them', async () => {
    const a = await createTestClient(app);
    const b = await createTestClient(app);
    const channel = await webhookChannel(a, 'mine');
    const viewer = (await teamUser(app, a.clientId, 'viewer')).accessToken;
    const member = (await teamUser(app, a.clientId, 'member')).accessToken;
    const denied = await app.inject({ method: 'POST', url: '/alerts/channels', headers: bearer(viewer), payload: { kind: 'email', name: 'x', target: 'x@acme.test' } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toContain('manage alerts');
    expect((await app.inject({ method: 'POST', url: '/alerts/channels', headers: { 'x-api-key': a.apiKey }, payload: { kind: 'email', name: 'x', target: 'x@acme.test' } })).statusCode).toBe(403);
    expect((await app.inject({ url: '/alerts/channels', headers: bearer(viewer) })).json().channels).toHaveLength(1);
    const renamed = await app.inject({ method: 'PATCH', url: `/alerts/channels/${channel.id}`, headers: bearer(member), payload: { name: 'Ops room', rules: ['test-recovered', 'run-failed'], enabled: false } });
    expect(renamed.json().channel).toMatchObject({ name: 'Ops room', rules: ['run-failed', 'test-recovered'], enabled: false });

    const tokenB = await tokenOf(b);
    expect((await app.inject({ url: '/alerts/channels', headers: bearer(tokenB) })).json().channels).toEqual([]);
    expect((await app.inject({ url: '/alerts/deliveries', headers: bearer(tokenB) })).json().deliveries).toEqual([]);
    for (const [method, url] of [
      ['PATCH', `/alerts/channels/${channel.id}`],
      ['DELETE', `/alerts/channels/${channel.id}`],
      ['POST', `/alerts/channels/${channel.id}/test`],
    ] as const) {
      const res = await app.inject({ method, url, headers: bearer(tokenB), ...(method === 'PATCH' ? { payload: { name: 'stolen' } } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().message).toBe('Alert channel not found');
    }
    const ops = await app.inject({ url: `/operator/clients/${a.clientId}/alert-channels`, headers: operator });
    expect(ops.json().channels.map((x: { name: string }) => x.name)).toEqual(['Ops room']);
    expect(JSON.stringify(ops.json())).not.toContain(r.secrets.get('mine'));
    expect((await app.inject({ url: `/operator/clients/${a.clientId}/alert-channels`, headers: bearer(tokenB) })).statusCode).toBe(403);

    expect((await app.inject({ method: 'DELETE', url: `/alerts/channels/${channel.id}`, headers: bearer(member) })).statusCode).toBe(200);
    expect((await app.inject({ url: '/alerts/channels', headers: bearer(await tokenOf(a)) })).json().channels).toEqual([]);
  });

  it('refuses a bad target for its kind', async () => {
    const c = await createTestClient(app);
    const token = await tokenOf(c);
    const bad = async (kind: string, target: string) => app.inject({ method: 'POST', url: '/alerts/channels', headers: bearer(token), payload: { kind, name: 'n', target } });
    expect((await bad('email', 'not an address')).json()).toMatchObject({ field: 'target' });
    expect((await bad('slack', 'ftp://hooks.slack.test/x')).json()).toMatchObject({ field: 'target' });
    expect((await bad('webhook', 'https://user:pw@hooks.test/x')).json()).toMatchObject({ field: 'target' });
  });
});

describe('alerts: the target policy', () => {
  const fixture = useApp();

  it('refuses loopback and private webhook targets unless private targets are allowed', async () => {
    const { app } = fixture;
    const { token } = await signedInClient(app);
    for (const target of ['http://127.0.0.1:9/hook', 'http://localhost/hook', 'http://10.0.0.5/hook', 'http://[::1]/hook']) {
      const res = await app.inject({ method: 'POST', url: '/alerts/channels', headers: bearer(token), payload: { kind: 'webhook', name: 'n', target } });
      expect(res.statusCode, target).toBe(400);
      expect(res.json()).toMatchObject({ field: 'target' });
      expect(res.json().message).toMatch(/^target is refused/);
    }
  });
});
