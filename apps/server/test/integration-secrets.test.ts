import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations } from '../src/db/schema/index.ts';
import { bearer, buildTestApp, createTestClient, login } from './helpers/app.ts';

// Decision 0076: a stored tracker secret goes only to the origin and account it was given for. Two servers on
// 127.0.0.1 stand for the client's real tracker and for the one a caller would like the token sent to.

const JIRA_TOKEN = 'jira-real-token-0123456789';
const GITHUB_TOKEN = 'ghp_realtoken0123456789';

interface Seen {
  path: string;
  authorization: string | undefined;
  signature: string | undefined;
  timestamp: string | undefined;
  body: string;
}

/** Answers 200 to everything a tracker is asked, and records each request's credentials. */
function tracker() {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', authorization: req.headers.authorization, signature: req.headers['x-fullstop-signature'] as string | undefined, timestamp: req.headers['x-fullstop-timestamp'] as string | undefined, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ key: 'ACME', full_name: 'acme/shop' }));
    });
  });
  return { server, seen };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('integrations: a stored secret is bound to where it goes', () => {
  const real = tracker();
  const thief = tracker();
  let realUrl: string;
  let thiefUrl: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    realUrl = await listen(real.server);
    thiefUrl = await listen(thief.server);
    app = await buildTestApp({ env: { ENGINE_ALLOW_PRIVATE_TARGETS: true, GITHUB_API_URL: realUrl } });
  });
  afterAll(async () => {
    await app?.close();
    real.server.close();
    thief.server.close();
  });

  const leaked = () => thief.seen.filter((s) => JSON.stringify(s).includes(JIRA_TOKEN) || JSON.stringify(s).includes(GITHUB_TOKEN) || s.authorization !== undefined);

  it('asks for the Jira token again when the site or the account changes; the other host never receives it', async () => {
    const c = await createTestClient(app);
    const auth = bearer((await login(app, c.email, c.password)).accessToken);
    const put = (payload: object) => app.inject({ method: 'PUT', url: '/integrations/jira', headers: auth, payload });
    expect((await put({ siteUrl: realUrl, projectKey: 'ACME', email: 'qa@acme.test', token: JIRA_TOKEN })).statusCode).toBe(200);

    const moved = await put({ siteUrl: `${thiefUrl}/`, projectKey: 'ACME', email: 'qa@acme.test' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ field: 'token', message: expect.stringContaining(`given for siteUrl ${realUrl} only`) });
    const otherAccount = await put({ siteUrl: realUrl, projectKey: 'ACME', email: 'attacker@evil.test' });
    expect(otherAccount.statusCode).toBe(400);
    expect(otherAccount.json()).toMatchObject({ field: 'token', message: expect.stringContaining('email qa@acme.test') });
    expect(leaked()).toEqual([]);

    // Same site and account: the stored token is kept (another project, the e-mail in other letters).
    const sameSite = await put({ siteUrl: `${realUrl}/jira/`, projectKey: 'SHOP', email: 'QA@acme.test' });
    expect(sameSite.statusCode, sameSite.body).toBe(200);
    expect(real.seen.at(-1)!.authorization).toBe(`Basic ${Buffer.from(`QA@acme.test:${JIRA_TOKEN}`).toString('base64')}`);
    // Giving the token again is how it moves.
    const thiefToken = 'token-for-the-new-site';
    expect((await put({ siteUrl: thiefUrl, projectKey: 'ACME', email: 'qa@acme.test', token: thiefToken })).statusCode).toBe(200);
    expect(leaked().every((s) => !s.authorization!.includes(Buffer.from(`qa@acme.test:${JIRA_TOKEN}`).toString('base64')))).toBe(true);
    thief.seen.length = 0;
  });

  it('never opens a stored token for a destination it was not given for (the GitHub API address changed)', async () => {
    const c = await createTestClient(app);
    const auth = bearer((await login(app, c.email, c.password)).accessToken);
    expect((await app.inject({ method: 'PUT', url: '/integrations/github', headers: auth, payload: { owner: 'acme', repo: 'shop', token: GITHUB_TOKEN } })).statusCode).toBe(200);
    // As if the server's GITHUB_API_URL had pointed elsewhere when the token was given.
    await app.db.update(integrations).set({ secretBoundTo: `github ${thiefUrl}` }).where(and(eq(integrations.clientId, c.clientId), eq(integrations.kind, 'github')));
    const before = real.seen.length;
    const res = await app.inject({ method: 'POST', url: '/integrations/github/test', headers: auth });
    expect(res.json()).toMatchObject({ delivered: false, message: expect.stringContaining('was given for another address or account') });
    expect(real.seen.length).toBe(before);
    const again = await app.inject({ method: 'PUT', url: '/integrations/github', headers: auth, payload: { owner: 'acme', repo: 'shop' } });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ field: 'token' });
  });

  it('gives a webhook moved to another origin a new signing secret, so the new receiver holds nothing of the old one', async () => {
    const c = await createTestClient(app);
    const auth = bearer((await login(app, c.email, c.password)).accessToken);
    const put = (url: string) => app.inject({ method: 'PUT', url: '/integrations/webhook', headers: auth, payload: { url } });
    const first = (await put(`${realUrl}/hooks/a`)).json().secret as string;
    expect(first).toMatch(/^whsec_/);
    // Same origin, another path: the secret stays.
    expect((await put(`${realUrl}/hooks/b`)).json().secret).toBeUndefined();
    const moved = (await put(`${thiefUrl}/hooks/x`)).json().secret as string;
    expect(moved).toMatch(/^whsec_/);
    expect(moved).not.toBe(first);
    await app.inject({ method: 'POST', url: '/integrations/webhook/test', headers: auth });
    const got = thief.seen.at(-1)!;
    // The signature checks out with the new secret, not with the old one.
    const signedWith = (secret: string) => `sha256=${createHmac('sha256', secret).update(`${got.timestamp}.${got.body}`).digest('hex')}`;
    expect(got.signature).toBe(signedWith(moved));
    expect(got.signature).not.toBe(signedWith(first));
  });
});
