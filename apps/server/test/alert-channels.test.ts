import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlertChannel } from '@fullstop/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertChannels } from '../src/db/schema/index.ts';
import { openApiKey } from '../src/lib/api-keys.ts';
import { confirmationTokenFor } from './helpers/alerts.ts';
import { mailsTo } from './helpers/auth.ts';
import { bearer, buildTestApp, createTestClient, login, operatorBearer, type TestClient } from './helpers/app.ts';
import { teamUser } from './helpers/team.ts';

// Decision 0076 for alert channels: Slack and Teams URLs are credentials (sealed, shown as a hint), an e-mail
// address receives nothing before its owner confirms it, test sends are rate-limited, channels are capped.

const MAX_CHANNELS = 4;
const MESSAGES_PER_HOUR = 3;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe('alert channels: credentials, confirmation, limits', () => {
  let app: FastifyInstance;
  let base: string;
  const received: { path: string; body: string }[] = [];
  const server: Server = createServer(async (req, res) => {
    received.push({ path: req.url ?? '', body: await readBody(req) });
    res.writeHead(200).end('ok');
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    app = await buildTestApp({ env: { ENGINE_ALLOW_PRIVATE_TARGETS: true, ALERT_CHANNELS_MAX: MAX_CHANNELS, ALERT_MESSAGES_PER_HOUR: MESSAGES_PER_HOUR } });
  });
  afterAll(async () => {
    await app?.close();
    server.close();
  });

  const owner = async (c: TestClient) => bearer((await login(app, c.email, c.password)).accessToken);
  type Headers = Record<string, string>;
  const create = (headers: Headers, payload: object) => app.inject({ method: 'POST', url: '/alerts/channels', headers, payload });
  const list = async (headers: Headers) => (await app.inject({ url: '/alerts/channels', headers })).json<{ channels: AlertChannel[] }>().channels;
  const testSend = (headers: Headers, id: string) => app.inject({ method: 'POST', url: `/alerts/channels/${id}/test`, headers });

  it('keeps a Slack or Teams URL sealed and shows only a hint, to owners, members, viewers, API keys and operators', async () => {
    const c = await createTestClient(app);
    const auth = await owner(c);
    const url = `${base}/services/T0SECRET/B0SECRET/xoxSecretPart9f3a`;
    const res = await create(auth, { kind: 'slack', name: 'Ops room', target: url });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().channel.target).toBe(`${base}/…/9f3a`);

    const viewer = bearer((await teamUser(app, c.clientId, 'viewer')).accessToken);
    const member = bearer((await teamUser(app, c.clientId, 'member')).accessToken);
    for (const headers of [auth, member, viewer, { 'x-api-key': c.apiKey }]) {
      const body = JSON.stringify(await list(headers));
      expect(body).toContain('9f3a');
      expect(body).not.toContain('xoxSecretPart');
    }
    const ops = await app.inject({ url: `/operator/clients/${c.clientId}/alert-channels`, headers: operatorBearer(app) });
    expect(ops.statusCode).toBe(200);
    expect(ops.body).not.toContain('xoxSecretPart');

    const [row] = await app.db.select().from(alertChannels).where(eq(alertChannels.clientId, c.clientId));
    expect(row!.target).not.toContain('xoxSecretPart');
    expect(openApiKey(app.keys, row!.targetSealed!)).toBe(url);
    // It is still where the messages go.
    const sent = await testSend(auth, row!.id);
    expect(sent.json()).toMatchObject({ delivered: true, statusCode: 200 });
    expect(received.at(-1)!.path).toBe('/services/T0SECRET/B0SECRET/xoxSecretPart9f3a');

    const moved = await app.inject({ method: 'PATCH', url: `/alerts/channels/${row!.id}`, headers: auth, payload: { target: `${base}/services/T0/B0/newSecretPart77aa` } });
    expect(moved.json().channel.target).toBe(`${base}/…/77aa`);
    expect(moved.body).not.toContain('newSecretPart');
  });

  it('seals the Slack and Teams URLs stored in clear before, at start-up', async () => {
    const c = await createTestClient(app);
    const url = `${base}/webhookb2/legacyTeamsSecret0c1d`;
    await app.db.insert(alertChannels).values({ clientId: c.clientId, kind: 'teams', name: 'Old', target: url, enabled: true, rules: ['run-failed'] });
    expect(await app.alerts.sealLegacyTargets()).toBeGreaterThanOrEqual(1);
    expect(await app.alerts.sealLegacyTargets()).toBe(0);
    const [row] = await app.db.select().from(alertChannels).where(eq(alertChannels.clientId, c.clientId));
    expect(row!.target).toBe(`${base}/…/0c1d`);
    expect(openApiKey(app.keys, row!.targetSealed!)).toBe(url);
    expect(JSON.stringify(await list({ 'x-api-key': c.apiKey }))).not.toContain('legacyTeamsSecret');
    expect((await testSend(await owner(c), row!.id)).json()).toMatchObject({ delivered: true });
    expect(received.at(-1)!.path).toBe('/webhookb2/legacyTeamsSecret0c1d');
  });

  it('sends an e-mail address nothing until its owner opens the mailed link (no login), once, before it expires', async () => {
    const c = await createTestClient(app);
    const auth = await owner(c);
    const address = `alerts-${Date.now()}@acme.test`;
    const res = await create(auth, { kind: 'email', name: 'QA inbox', target: address });
    expect(res.statusCode, res.body).toBe(201);
    const channel = res.json().channel as AlertChannel;
    expect(channel).toMatchObject({ confirmed: false, confirmationSentAt: expect.any(String) });
    const [confirmMail] = await mailsTo(app, address);
    expect(confirmMail).toContain('Subject: Confirm this address for Fullstop QA alerts');
    expect(confirmMail).not.toContain('QA inbox');

    const refused = await testSend(auth, channel.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'CHANNEL_NOT_CONFIRMED' });
    expect(await mailsTo(app, address)).toHaveLength(1);

    // "Send it again": a new link; the earlier one stops working.
    const first = await confirmationTokenFor(app, address);
    const again = await app.inject({ method: 'POST', url: `/alerts/channels/${channel.id}/confirmation`, headers: auth });
    expect(again.statusCode, again.body).toBe(200);
    const second = await confirmationTokenFor(app, address);
    expect(second).not.toBe(first);
    const tooSoon = await app.inject({ method: 'POST', url: `/alerts/channels/${channel.id}/confirmation`, headers: auth });
    expect(tooSoon.statusCode).toBe(429);
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);
    const viewer = bearer((await teamUser(app, c.clientId, 'viewer')).accessToken);
    expect((await app.inject({ method: 'POST', url: `/alerts/channels/${channel.id}/confirmation`, headers: viewer })).statusCode).toBe(403);

    const confirm = (token: string) => app.inject({ method: 'POST', url: '/alerts/confirm', payload: { token } });
    expect((await confirm(first)).json()).toMatchObject({ code: 'CONFIRMATION_INVALID' });
    const ok = await confirm(second);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toContain(address);
    expect((await confirm(second)).statusCode).toBe(410);
    expect((await list(auth))[0]).toMatchObject({ confirmed: true, confirmationSentAt: null });

    await app.db.delete(alertChannels).where(eq(alertChannels.id, channel.id));
    const late = await create(auth, { kind: 'email', name: 'Late', target: `late-${address}` });
    await app.db.update(alertChannels).set({ confirmExpiresAt: new Date(Date.now() - 1000) }).where(eq(alertChannels.id, late.json().channel.id));
    expect((await confirm(await confirmationTokenFor(app, `late-${address}`))).statusCode).toBe(410);
  });

  it('asks a changed address to confirm again', async () => {
    const c = await createTestClient(app);
    const auth = await owner(c);
    const id = (await create(auth, { kind: 'email', name: 'Inbox', target: `one-${c.clientId}@acme.test` })).json().channel.id;
    await app.inject({ method: 'POST', url: '/alerts/confirm', payload: { token: await confirmationTokenFor(app, `one-${c.clientId}@acme.test`) } });
    const moved = await app.inject({ method: 'PATCH', url: `/alerts/channels/${id}`, headers: auth, payload: { target: `two-${c.clientId}@acme.test` } });
    expect(moved.json().channel).toMatchObject({ confirmed: false, target: `two-${c.clientId}@acme.test` });
    expect(await mailsTo(app, `two-${c.clientId}@acme.test`)).toHaveLength(1);
    expect((await testSend(auth, id)).statusCode).toBe(409);
  });

  it('limits test sends per channel and per client (429 saying when to retry), and caps the channels (409 naming the limit)', async () => {
    const c = await createTestClient(app);
    const auth = await owner(c);
    const made = await Promise.all(Array.from({ length: MAX_CHANNELS + 2 }, (_, i) => create(auth, { kind: 'webhook', name: `hook ${i}`, target: `${base}/hook/${i}` })));
    expect(made.map((r) => r.statusCode).sort()).toEqual([...Array(MAX_CHANNELS).fill(201), 409, 409]);
    const refused = made.find((r) => r.statusCode === 409)!.json();
    expect(refused).toMatchObject({ code: 'LIMIT_REACHED', message: expect.stringContaining(`at most ${MAX_CHANNELS} alert channels (ALERT_CHANNELS_MAX)`) });

    const ids = made.filter((r) => r.statusCode === 201).map((r) => r.json().channel.id as string);
    expect((await testSend(auth, ids[0]!)).statusCode).toBe(200);
    const again = await testSend(auth, ids[0]!);
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toContain('one per channel every 60 s');
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(50);
    for (const id of ids.slice(1, MESSAGES_PER_HOUR)) expect((await testSend(auth, id)).statusCode).toBe(200);
    const hourly = await testSend(auth, ids[MESSAGES_PER_HOUR]!);
    expect(hourly.statusCode).toBe(429);
    expect(Number(hourly.headers['retry-after'])).toBeGreaterThan(3000);
    // Another client has its own share.
    const other = await createTestClient(app);
    const otherAuth = await owner(other);
    const theirs = (await create(otherAuth, { kind: 'webhook', name: 'x', target: `${base}/hook/other` })).json().channel.id;
    expect((await testSend(otherAuth, theirs)).statusCode).toBe(200);
  });
});
