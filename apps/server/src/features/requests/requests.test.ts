import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ClientRequest, ClientRequestDetail, OperatorClientRequest, OperatorClientRequestDetail, RequestAttachment } from '@fullstop/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, requestAttachments } from '../../db/schema/index.ts';
import { bearer, buildTestApp, createTestClient, createTestOperator, login, type TestClient } from '../../../test/helpers/app.ts';
import { mailsTo } from '../../../test/helpers/auth.ts';
import { requestKey } from './attachments.ts';

const OPERATOR_TOKEN = 'fso_requests-test-operator-token-0123456789';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

function form(fileName: string, contentType: string, content: Buffer, field = 'file') {
  const boundary = `----fullstop${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('client requests', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;
  let tokenA: string;
  let tokenB: string;
  let operatorEmail: string;
  let operatorToken: string;
  const operator = () => bearer(operatorToken);

  beforeAll(async () => {
    app = await buildTestApp({ env: { OPERATOR_TOKEN } });
    [a, b] = await Promise.all([createTestClient(app, { name: 'Acme' }), createTestClient(app, { name: 'Beta' })]);
    const op = await createTestOperator(app);
    operatorEmail = op.email;
    [tokenA, tokenB, operatorToken] = await Promise.all([
      login(app, a.email, a.password).then((r) => r.accessToken),
      login(app, b.email, b.password).then((r) => r.accessToken),
      login(app, op.email, op.password).then((r) => r.accessToken),
    ]);
  });
  afterAll(() => app?.close());

  const create = (headers: Record<string, string>, payload: unknown) =>
    app.inject({ method: 'POST', url: '/requests', headers, payload: payload as object });
  const newRequest = async (title = 'Checkout with coupons', kind = 'new-test') => {
    const res = await create(bearer(tokenA), { kind, title, details: 'Three scenarios' });
    expect(res.statusCode).toBe(201);
    return res.json<ClientRequest>();
  };
  const attach = (url: string, headers: Record<string, string>, body: ReturnType<typeof form>) =>
    app.inject({ method: 'POST', url, headers: { ...headers, ...body.headers }, payload: body.payload });
  const patch = (id: string, status: string, headers = operator()) =>
    app.inject({ method: 'PATCH', url: `/operator/requests/${id}`, headers, payload: { status } });

  it('creates a request of each kind and lists it, newest first, for its own client only', async () => {
    const first = await create(bearer(tokenA), { kind: 'new-test', title: 'Checkout with coupons', details: 'Three scenarios' });
    expect(first.statusCode).toBe(201);
    expect(first.json<ClientRequest>()).toMatchObject({ kind: 'new-test', status: 'new', title: 'Checkout with coupons', replyCount: 0, unread: false });
    for (const kind of ['test-change', 'manual-test', 'question']) {
      expect((await create(bearer(tokenA), { kind, title: `A ${kind} request`, details: 'x' })).statusCode).toBe(201);
    }
    // Through the API key too, as a client's CI would.
    const second = await create({ 'x-api-key': a.apiKey }, { kind: 'retest', title: 'Login bug fixed', details: 'Release 2.3' });
    expect(second.statusCode).toBe(201);

    const mine = await app.inject({ method: 'GET', url: '/requests', headers: bearer(tokenA) });
    expect(mine.statusCode).toBe(200);
    expect(mine.json<ClientRequest[]>().map((r) => r.title)[0]).toBe('Login bug fixed');
    expect(mine.json<ClientRequest[]>()).toHaveLength(5);

    const theirs = await app.inject({ method: 'GET', url: '/requests', headers: { 'x-api-key': b.apiKey } });
    expect(theirs.json<ClientRequest[]>()).toEqual([]);
  });

  it('mails every operator about a new request and a client reply, and the client about an operator reply', async () => {
    const req = await newRequest('Mail me <b>now</b>\r\nBcc: evil@example.test');
    const created = await mailsTo(app, operatorEmail);
    expect(created.some((m) => m.includes('New request from Acme') && m.includes('Mail me <b>now</b>'))).toBe(true);
    // The untrusted title never becomes a header of its own.
    expect(created.some((m) => /^Bcc:/m.test(m.split('\n\n')[0]!))).toBe(false);

    const before = (await mailsTo(app, a.email)).length;
    const answer = await app.inject({ method: 'POST', url: `/operator/requests/${req.id}/messages`, headers: operator(), payload: { body: 'We are on it.' } });
    expect(answer.statusCode).toBe(201);
    const detail = answer.json<OperatorClientRequestDetail>();
    expect(detail.messages).toMatchObject([{ side: 'operator', body: 'We are on it.' }]);
    expect(detail.clientName).toBe('Acme');
    const clientMails = await mailsTo(app, a.email);
    expect(clientMails.length).toBe(before + 1);
    expect(clientMails.some((m) => m.includes('Reply to your request') && m.includes('We are on it.'))).toBe(true);

    // The client sees it unread in the list until it opens the request.
    const listed = (await app.inject({ method: 'GET', url: '/requests', headers: bearer(tokenA) })).json<ClientRequest[]>();
    expect(listed.find((r) => r.id === req.id)).toMatchObject({ unread: true, lastReplySide: 'operator', replyCount: 1 });
    const opened = await app.inject({ method: 'GET', url: `/requests/${req.id}`, headers: bearer(tokenA) });
    expect(opened.json<ClientRequestDetail>()).toMatchObject({ unread: false, messages: [{ side: 'operator', body: 'We are on it.' }] });
    const relisted = (await app.inject({ method: 'GET', url: '/requests', headers: bearer(tokenA) })).json<ClientRequest[]>();
    expect(relisted.find((r) => r.id === req.id)?.unread).toBe(false);

    const opsBefore = (await mailsTo(app, operatorEmail)).length;
    const back = await app.inject({ method: 'POST', url: `/requests/${req.id}/messages`, headers: bearer(tokenA), payload: { body: 'Thanks!' } });
    expect(back.statusCode).toBe(201);
    expect(back.json<ClientRequestDetail>().messages.map((m) => m.side)).toEqual(['operator', 'client']);
    expect((await mailsTo(app, operatorEmail)).length).toBe(opsBefore + 1);
    const inbox = (await app.inject({ method: 'GET', url: '/operator/requests', headers: operator() })).json<OperatorClientRequest[]>();
    expect(inbox[0]).toMatchObject({ id: req.id, unread: true, lastReplySide: 'client', clientName: 'Acme' });

    const empty = await app.inject({ method: 'POST', url: `/requests/${req.id}/messages`, headers: bearer(tokenA), payload: { body: '   ' } });
    expect(empty.statusCode).toBe(400);
  });

  it('moves a request through every allowed status and answers 409 naming the allowed ones otherwise', async () => {
    const req = await newRequest('Transitions');
    const go = async (status: string, code = 200) => {
      const res = await patch(req.id, status);
      expect(res.statusCode, `${status}: ${res.body}`).toBe(code);
      return res;
    };
    const impossible = await go('new', 409);
    expect(impossible.json<{ message: string }>().message).toMatch(/in-progress.*declined.*done/);
    await go('in-progress');
    expect((await go('new', 409)).json<{ message: string }>().message).toMatch(/done.*declined/);
    await go('done');
    expect((await go('declined', 409)).json<{ message: string }>().message).toMatch(/can become: in-progress/);
    await go('in-progress');
    const declined = await go('declined');
    expect(declined.json<OperatorClientRequestDetail>()).toMatchObject({ status: 'declined', allowedStatuses: ['in-progress'] });
    await go('in-progress');
    // new → declined and new → done directly.
    const other = await newRequest('Straight to done');
    expect((await patch(other.id, 'done')).statusCode).toBe(200);
    const third = await newRequest('Straight to declined');
    expect((await patch(third.id, 'declined')).statusCode).toBe(200);
    expect((await mailsTo(app, a.email)).some((m) => m.includes('Your request is declined'))).toBe(true);

    const rows = await app.db.select().from(auditEvents).where(eq(auditEvents.type, 'request.status-changed'));
    expect(rows.filter((r) => (r.details as { requestId: string }).requestId === req.id)).toHaveLength(5);
  });

  it('lets only operators use the inbox, filtered by status, kind and client', async () => {
    await create(bearer(tokenB), { kind: 'question', title: 'Beta question', details: 'Hi' });
    const all = (await app.inject({ method: 'GET', url: '/operator/requests', headers: operator() })).json<OperatorClientRequest[]>();
    expect(new Set(all.map((r) => r.clientName))).toEqual(new Set(['Acme', 'Beta']));
    const beta = (await app.inject({ method: 'GET', url: `/operator/requests?clientId=${b.clientId}`, headers: operator() })).json<OperatorClientRequest[]>();
    expect(beta.map((r) => r.title)).toEqual(['Beta question']);
    const questions = (await app.inject({ method: 'GET', url: '/operator/requests?kind=question', headers: operator() })).json<OperatorClientRequest[]>();
    expect(questions.every((r) => r.kind === 'question')).toBe(true);
    const done = (await app.inject({ method: 'GET', url: '/operator/requests?status=done', headers: operator() })).json<OperatorClientRequest[]>();
    expect(done.length).toBeGreaterThan(0);
    expect(done.every((r) => r.status === 'done')).toBe(true);
    // The operator token works too.
    expect((await app.inject({ method: 'GET', url: '/operator/requests', headers: bearer(OPERATOR_TOKEN) })).statusCode).toBe(200);

    const target = beta[0]!;
    for (const [method, url] of [
      ['GET', '/operator/requests'],
      ['GET', `/operator/requests/${target.id}`],
      ['POST', `/operator/requests/${target.id}/messages`],
      ['PATCH', `/operator/requests/${target.id}`],
    ] as const) {
      const res = await app.inject({ method, url, headers: bearer(tokenB), ...(method === 'GET' ? {} : { payload: { body: 'x', status: 'done' } }) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await patch('no-such-id', 'done')).statusCode).toBe(404);
    // An operator has no client of its own to file a request for.
    expect((await create(operator(), { kind: 'manual-test', title: 'Valid title', details: 'x' })).statusCode).toBe(403);
    const viewed = await app.inject({ method: 'GET', url: `/operator/requests/${target.id}`, headers: operator() });
    expect(viewed.statusCode).toBe(200);
    const audits = await app.db.select().from(auditEvents).where(eq(auditEvents.type, 'request.viewed'));
    expect(audits.some((r) => r.clientId === b.clientId)).toBe(true);
  });

  it('never shows a client another client’s request, thread or attachment by any id', async () => {
    const req = await newRequest('Secret of Acme');
    const file = await attach(`/requests/${req.id}/attachments`, bearer(tokenA), form('shot.png', 'image/png', PNG));
    expect(file.statusCode).toBe(201);
    const attachmentId = file.json<RequestAttachment>().id;

    const asB = bearer(tokenB);
    const probes = [
      app.inject({ method: 'GET', url: `/requests/${req.id}`, headers: asB }),
      app.inject({ method: 'POST', url: `/requests/${req.id}/messages`, headers: asB, payload: { body: 'hi' } }),
      app.inject({ method: 'GET', url: `/requests/${req.id}/attachments/${attachmentId}`, headers: asB }),
      app.inject({ method: 'GET', url: `/requests/${req.id}/attachments/${attachmentId}`, headers: { 'x-api-key': b.apiKey } }),
      attach(`/requests/${req.id}/attachments`, asB, form('shot.png', 'image/png', PNG)),
    ];
    for (const res of await Promise.all(probes)) {
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Secret of Acme');
    }
    // B's own request cannot reach A's attachment through its id either.
    const mine = (await create(asB, { kind: 'question', title: 'B asks', details: 'x' })).json<ClientRequest>();
    expect((await app.inject({ method: 'GET', url: `/requests/${mine.id}/attachments/${attachmentId}`, headers: asB })).statusCode).toBe(404);

    const own = await app.inject({ method: 'GET', url: `/requests/${req.id}/attachments/${attachmentId}`, headers: bearer(tokenA) });
    expect(own.statusCode).toBe(200);
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.rawPayload.equals(PNG)).toBe(true);
    const detail = (await app.inject({ method: 'GET', url: `/requests/${req.id}`, headers: bearer(tokenA) })).json<ClientRequestDetail>();
    expect(detail.attachments.map((x) => x.name)).toEqual(['shot.png']);
  });

  it('attaches files to replies of both sides, and the operator download is audited', async () => {
    const req = await newRequest('With replies');
    const reply = (await app.inject({ method: 'POST', url: `/operator/requests/${req.id}/messages`, headers: operator(), payload: { body: 'See the log' } })).json<OperatorClientRequestDetail>();
    const messageId = reply.messages[0]!.id;
    // A client cannot attach to the QA team's reply.
    expect((await attach(`/requests/${req.id}/attachments?messageId=${messageId}`, bearer(tokenA), form('a.txt', 'text/plain', Buffer.from('hello')))).statusCode).toBe(404);
    const up = await attach(`/operator/requests/${req.id}/attachments?messageId=${messageId}`, operator(), form('run.log', 'text/plain', Buffer.from('line 1\nline 2\n')));
    expect(up.statusCode).toBe(201);
    const seen = (await app.inject({ method: 'GET', url: `/requests/${req.id}`, headers: bearer(tokenA) })).json<ClientRequestDetail>();
    expect(seen.messages[0]!.attachments.map((x) => x.name)).toEqual(['run.log']);
    const down = await app.inject({ method: 'GET', url: `/operator/requests/${req.id}/attachments/${up.json<RequestAttachment>().id}`, headers: operator() });
    expect(down.statusCode).toBe(200);
    const types = (await app.db.select().from(auditEvents)).map((r) => r.type);
    expect(types).toEqual(expect.arrayContaining(['request.replied', 'request.attachment-added', 'request.attachment-downloaded']));
  });

  it('refuses oversize and wrong-type files with the limit or the types, leaving nothing behind', async () => {
    const req = await newRequest('Bad files');
    const url = `/requests/${req.id}/attachments`;
    const wrongType = await attach(url, bearer(tokenA), form('tool.exe', 'application/x-msdownload', Buffer.from('MZ....')));
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json<{ message: string }>().message).toMatch(/PNG, JPEG.*PDF.*CSV, ZIP/);
    const disguised = await attach(url, bearer(tokenA), form('shot.png', 'image/png', Buffer.from('not really a png at all')));
    expect(disguised.statusCode).toBe(415);
    const binaryText = await attach(url, bearer(tokenA), form('notes.txt', 'text/plain', Buffer.from([0x00, 0x01, 0x02, 0x03])));
    expect(binaryText.statusCode).toBe(415);
    const big = Buffer.alloc(50 * 1024 * 1024 + 10, 0x41);
    const tooLarge = await attach(url, bearer(tokenA), form('big.csv', 'text/csv', big));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json<{ message: string }>().message).toMatch(/limit is 50 MB/);
    const wrongField = await attach(url, bearer(tokenA), form('a.pdf', 'application/pdf', Buffer.from('%PDF-1.4'), 'upload'));
    expect(wrongField.statusCode).toBe(400);
    const notMultipart = await app.inject({ method: 'POST', url, headers: bearer(tokenA), payload: { file: 'x' } });
    expect(notMultipart.statusCode).toBe(415);

    const rows = await app.db.select().from(requestAttachments).where(eq(requestAttachments.requestId, req.id));
    expect(rows).toEqual([]);
    const folder = app.artifacts.localPath(requestKey(req.id))!;
    const left = await readdir(folder).catch(() => []);
    expect(left).toEqual([]);
    // Nor a file half-checked in the scratch folder.
    expect((await readdir(app.paths.incoming)).filter((f) => f.startsWith('request-'))).toEqual([]);

    const ok = await attach(url, bearer(tokenA), form('data.csv', 'text/csv', Buffer.from('a,b\n1,2\n')));
    expect(ok.statusCode).toBe(201);
    expect(await readdir(folder)).toEqual([ok.json<RequestAttachment>().id]);
    expect(path.basename(folder)).toBe(req.id);
  }, 60_000);

  it('names the field at fault and never stores a bad request', async () => {
    const res = await create(bearer(tokenA), { kind: 'new-test', title: 'ab', details: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/title/);
    const kind = await create(bearer(tokenA), { kind: 'new-feature', title: 'Valid title', details: 'x' });
    expect(kind.statusCode).toBe(400);
    expect(kind.json<{ message: string }>().message).toMatch(/kind/);
  });

  it('answers 401 without credentials and with a wrong key', async () => {
    expect((await app.inject({ method: 'GET', url: '/requests' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/requests', headers: { 'x-api-key': 'nope' } })).statusCode).toBe(401);
  });
});

describe('client requests without operator users', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ env: { CONTACT_EMAIL: 'qa-team@fullstop.test' } });
  });
  afterAll(() => app?.close());

  it('mails CONTACT_EMAIL about a new request', async () => {
    const client = await createTestClient(app, { name: 'Solo' });
    const token = (await login(app, client.email, client.password)).accessToken;
    const res = await app.inject({ method: 'POST', url: '/requests', headers: bearer(token), payload: { kind: 'question', title: 'Who reads this?', details: 'x' } });
    expect(res.statusCode).toBe(201);
    expect((await mailsTo(app, 'qa-team@fullstop.test')).some((m) => m.includes('Who reads this?'))).toBe(true);
  });
});
