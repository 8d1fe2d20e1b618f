import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { BUG_ATTACHMENT_MAX_BYTES, type Bug, type BugList } from '@fullstop/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, bugAttachments } from '../src/db/schema/index.ts';
import { buildTestApp, createTestClient, createTestOperator, login, bearer, operatorBearer, type TestClient } from './helpers/app.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

function multipartBody(fileName: string, type: string, content: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----bug${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Every mail in the outbox, headers unfolded. */
async function mails(app: FastifyInstance): Promise<string[]> {
  const dir = app.paths.outbox;
  const names = (await readdir(dir)).sort();
  return Promise.all(names.map(async (n) => (await readFile(path.join(dir, n), 'utf8')).replace(/\r?\n[ \t]+/g, ' ')));
}

describe('bug reports', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;
  let ops: { authorization: string };
  let operatorUser: { userId: string; email: string };
  let aAuth: { authorization: string };
  let bAuth: { authorization: string };
  const aKey = () => ({ 'x-api-key': a.apiKey });

  beforeAll(async () => {
    app = await buildTestApp();
    a = await createTestClient(app, { name: 'Client A' });
    b = await createTestClient(app, { name: 'Client B' });
    const op = await createTestOperator(app);
    operatorUser = op;
    ops = bearer((await login(app, op.email, op.password)).accessToken);
    aAuth = bearer((await login(app, a.email, a.password)).accessToken);
    bAuth = bearer((await login(app, b.email, b.password)).accessToken);
  });
  afterAll(async () => app?.close());

  const create = async (clientId: string, body: Record<string, unknown> = {}) => {
    const res = await app.inject({
      method: 'POST',
      url: `/operator/clients/${clientId}/bugs`,
      headers: ops,
      payload: { title: 'Checkout fails', severity: 'high', steps: ['Open the cart', 'Pay'], expected: 'Paid', actual: 'Error 500', ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Bug>();
  };
  const act = (bugId: string, headers: Record<string, string>, action: string, reason?: string, side: 'client' | 'operator' = 'client') =>
    app.inject({ method: 'POST', url: `${side === 'operator' ? '/operator' : ''}/bugs/${bugId}/transition`, headers, payload: { action, ...(reason ? { reason } : {}) } });

  it('an operator writes a draft the client cannot see, then publishes it', async () => {
    const draft = await create(a.clientId);
    expect(draft).toMatchObject({ status: 'draft', number: expect.any(Number), actions: ['publish'], exports: [], link: null });
    expect((await app.inject({ url: `/bugs/${draft.id}`, headers: aAuth })).statusCode).toBe(404);
    expect((await app.inject({ url: '/bugs', headers: aAuth })).json<BugList>().bugs.map((x) => x.id)).not.toContain(draft.id);
    expect((await act(draft.id, aAuth, 'publish')).statusCode).toBe(404);

    const published = await act(draft.id, ops, 'publish', undefined, 'operator');
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json<Bug>()).toMatchObject({ status: 'open', events: [{ from: null, to: 'draft' }, { from: 'draft', to: 'open', by: 'Fullstop QA' }] });
    const seen = await app.inject({ url: `/bugs/${draft.id}`, headers: aAuth });
    expect(seen.statusCode).toBe(200);
    expect(seen.json<Bug>().actions).toEqual(['accept', 'reject', 'not-a-bug', 'wont-fix', 'fixed']);
  });

  it('numbers bugs per client, also when created at once', async () => {
    const made = await Promise.all([1, 2, 3, 4].map(() => create(b.clientId, { publish: true })));
    const numbers = made.map((x) => x.number).sort((x, y) => x - y);
    expect(new Set(numbers).size).toBe(4);
    expect(numbers[3]! - numbers[0]!).toBe(3);
  });

  it('walks the whole lifecycle: accept, fixed, retest by hand, reopen, wont-fix with a reason, reopen', async () => {
    const bug = await create(a.clientId, { publish: true });
    const step = async (headers: Record<string, string>, action: string, to: string, reason?: string, side: 'client' | 'operator' = 'client') => {
      const res = await act(bug.id, headers, action, reason, side);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Bug>().status).toBe(to);
      return res.json<Bug>();
    };
    await step(aAuth, 'accept', 'accepted');
    await step(aKey(), 'fixed', 'fixed');
    const retest = await step(aAuth, 'request-retest', 'retest');
    expect(retest.actions).toEqual([]);
    expect((await app.inject({ url: '/operator/bugs?status=retest', headers: ops })).json<BugList>().bugs.map((x) => x.id)).toContain(bug.id);
    const asOperator = await app.inject({ url: `/operator/bugs/${bug.id}`, headers: ops });
    expect(asOperator.json<Bug>().actions).toEqual(['verify', 'reopen']);
    await step(ops, 'reopen', 'reopened', undefined, 'operator');
    const wontFix = await step(aAuth, 'wont-fix', 'wont-fix', 'Out of scope for this release');
    expect(wontFix.events.at(-1)).toMatchObject({ from: 'reopened', to: 'wont-fix', reason: 'Out of scope for this release' });
    await step(ops, 'reopen', 'reopened', undefined, 'operator');
    await step(aAuth, 'reject', 'not-a-bug', 'Works as designed');
    await step(aAuth, 'reopen', 'reopened');
    await step(aAuth, 'fixed', 'fixed');
    await step(ops, 'request-retest', 'retest', undefined, 'operator');
    const verified = await step(ops, 'verify', 'verified', undefined, 'operator');
    expect(verified.events.map((e) => e.to)).toEqual(['open', 'accepted', 'fixed', 'retest', 'reopened', 'wont-fix', 'reopened', 'not-a-bug', 'reopened', 'fixed', 'retest', 'verified']);
  });

  it('answers 409 naming the allowed actions, and 400 on a missing reason', async () => {
    const bug = await create(a.clientId, { publish: true });
    const wrong = await act(bug.id, aAuth, 'verify');
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ code: 'BUG_TRANSITION_NOT_ALLOWED' });
    expect(wrong.json().message).toContain('accept, reject, not-a-bug, wont-fix, fixed');
    // The client's answers are the client's: an operator cannot accept for them.
    const opAccept = await act(bug.id, ops, 'accept', undefined, 'operator');
    expect(opAccept.statusCode).toBe(409);
    for (const action of ['wont-fix', 'not-a-bug', 'reject']) {
      const res = await act(bug.id, aAuth, action);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field: 'reason' });
      expect((await act(bug.id, aAuth, action, '   ')).statusCode).toBe(400);
    }
    expect((await app.inject({ url: `/bugs/${bug.id}`, headers: aAuth })).json<Bug>()).toMatchObject({ status: 'open', events: [{ to: 'open' }] });
    const bad = await app.inject({ method: 'POST', url: `/bugs/${bug.id}/transition`, headers: aAuth, payload: { action: 'explode' } });
    expect(bad.statusCode).toBe(400);
  });

  it('lets the client change the severity, and filters the list by status and severity with counts', async () => {
    const bug = await create(a.clientId, { publish: true, severity: 'low' });
    await create(a.clientId, { severity: 'critical' });
    const res = await app.inject({ method: 'PATCH', url: `/bugs/${bug.id}/severity`, headers: aAuth, payload: { severity: 'critical' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Bug>().severity).toBe('critical');
    const list = (await app.inject({ url: '/bugs?severity=critical', headers: aAuth })).json<BugList>();
    expect(list.bugs.map((x) => x.id)).toEqual([bug.id]);
    expect(list.counts).toEqual({ open: 1 });
    const all = (await app.inject({ url: '/bugs?status=open', headers: aKey() })).json<BugList>();
    expect(all.bugs.every((x) => x.status === 'open' && x.clientId === a.clientId)).toBe(true);
    expect(all.counts.draft).toBeUndefined();
    const opsList = (await app.inject({ url: `/operator/bugs?clientId=${a.clientId}`, headers: ops })).json<BugList>();
    expect(opsList.bugs.every((x) => x.clientName === 'Client A')).toBe(true);
    expect(opsList.counts.draft).toBeGreaterThan(0);
  });

  it('never shows client B anything of client A by any id', async () => {
    const bug = await create(a.clientId, { publish: true });
    const up = multipartBody('shot.png', 'image/png', PNG);
    const att = await app.inject({ method: 'POST', url: `/operator/bugs/${bug.id}/attachments`, headers: { ...ops, ...up.headers }, payload: up.payload });
    expect(att.statusCode, att.body).toBe(201);
    const attachmentId = att.json().id;
    for (const headers of [bAuth, { 'x-api-key': b.apiKey }]) {
      expect((await app.inject({ url: '/bugs', headers })).json<BugList>().bugs.some((x) => x.clientId === a.clientId)).toBe(false);
      const calls = [
        app.inject({ url: `/bugs/${bug.id}`, headers }),
        act(bug.id, headers, 'accept'),
        app.inject({ method: 'PATCH', url: `/bugs/${bug.id}/severity`, headers, payload: { severity: 'low' } }),
        app.inject({ method: 'POST', url: `/bugs/${bug.id}/comments`, headers, payload: { body: 'hello' } }),
        app.inject({ method: 'POST', url: `/bugs/${bug.id}/attachments`, headers: { ...headers, ...up.headers }, payload: up.payload }),
        app.inject({ url: `/bugs/${bug.id}/attachments/${attachmentId}`, headers }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().message).toMatch(/not found/);
      }
    }
    const after = (await app.inject({ url: `/bugs/${bug.id}`, headers: aAuth })).json<Bug>();
    expect(after).toMatchObject({ status: 'open', severity: 'high', comments: [] });
    expect(after.attachments).toHaveLength(1);
  });

  it('keeps clients out of the operator routes', async () => {
    const bug = await create(a.clientId);
    for (const [method, url, payload] of [
      ['GET', '/operator/bugs', undefined],
      ['GET', `/operator/bugs/${bug.id}`, undefined],
      ['POST', `/operator/clients/${a.clientId}/bugs`, { title: 'Mine now', severity: 'low', publish: true }],
      ['PATCH', `/operator/bugs/${bug.id}`, { title: 'Mine now' }],
      ['POST', `/operator/bugs/${bug.id}/transition`, { action: 'publish' }],
      ['POST', `/operator/bugs/${bug.id}/comments`, { body: 'hello' }],
    ] as const) {
      const res = await app.inject({ method, url, headers: aAuth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await app.inject({ url: '/bugs' })).statusCode).toBe(401);
    expect((await app.inject({ url: `/operator/bugs/${bug.id}`, headers: ops })).json<Bug>()).toMatchObject({ status: 'draft', title: 'Checkout fails' });
  });

  it('shares one thread, mails the other side, and audits what operators do', async () => {
    const bug = await create(a.clientId, { title: 'Checkout\nfails <b>now</b>', publish: true });
    const before = (await mails(app)).length;
    const opComment = await app.inject({ method: 'POST', url: `/operator/bugs/${bug.id}/comments`, headers: ops, payload: { body: 'Seen on every browser' } });
    expect(opComment.statusCode, opComment.body).toBe(200);
    const clientComment = await app.inject({ method: 'POST', url: `/bugs/${bug.id}/comments`, headers: aAuth, payload: { body: 'Looking into it' } });
    expect(clientComment.json<Bug>().comments).toMatchObject([
      { author: 'Fullstop QA', side: 'operator', body: 'Seen on every browser' },
      { side: 'client', body: 'Looking into it' },
    ]);
    expect((await act(bug.id, aAuth, 'fixed')).statusCode).toBe(200);
    const sent = (await mails(app)).slice(before);
    const toClient = sent.filter((m) => m.includes(`To: ${a.email}`));
    const toOperator = sent.filter((m) => m.includes(`To: ${operatorUser.email}`));
    expect(toClient.some((m) => m.includes(`Subject: BUG-${bug.number} Checkout fails <b>now</b>: new comment`))).toBe(true);
    expect(toOperator.some((m) => m.includes(`Subject: BUG-${bug.number} Checkout fails <b>now</b>: new comment`))).toBe(true);
    expect(toOperator.some((m) => m.includes(`Subject: BUG-${bug.number} Checkout fails <b>now</b>: marked fixed`))).toBe(true);
    expect(sent.some((m) => m.includes(`To: ${b.email}`))).toBe(false);

    // Drafts are never mailed.
    const count = (await mails(app)).length;
    const draft = await create(a.clientId);
    await app.inject({ method: 'POST', url: `/operator/bugs/${draft.id}/comments`, headers: ops, payload: { body: 'note to self' } });
    expect((await mails(app)).length).toBe(count);

    const rows = await app.db.select().from(auditEvents).where(and(eq(auditEvents.clientId, a.clientId), eq(auditEvents.userId, operatorUser.userId)));
    const types = new Set(rows.map((r) => r.type));
    for (const t of ['bug.created', 'bug.comment', 'bug.transition', 'bug.attachment']) expect(types).toContain(t);
    expect(rows.every((r) => r.address)).toBe(true);
    await app.inject({ url: `/operator/bugs/${bug.id}`, headers: ops });
    const patched = await app.inject({ method: 'PATCH', url: `/operator/bugs/${bug.id}`, headers: ops, payload: { title: 'Checkout fails on pay' } });
    expect(patched.json<Bug>().title).toBe('Checkout fails on pay');
    const later = await app.db.select().from(auditEvents).where(eq(auditEvents.clientId, a.clientId));
    expect(later.map((r) => r.type)).toEqual(expect.arrayContaining(['bug.viewed', 'bug.updated']));
  });

  it('mails CONTACT_EMAIL when there is no operator user', async () => {
    const solo = await buildTestApp({ env: { CONTACT_EMAIL: 'qa-team@fullstop.test' } });
    try {
      const c = await createTestClient(solo);
      const res = await solo.inject({ method: 'POST', url: `/operator/clients/${c.clientId}/bugs`, headers: operatorBearer(solo), payload: { title: 'Menu broken', severity: 'low', publish: true } });
      const id = res.json<Bug>().id;
      await solo.inject({ method: 'POST', url: `/bugs/${id}/comments`, headers: { 'x-api-key': c.apiKey }, payload: { body: 'Which page?' } });
      expect((await mails(solo)).some((m) => m.includes('To: qa-team@fullstop.test') && m.includes('Menu broken: new comment'))).toBe(true);
    } finally {
      await solo.close();
    }
  });

  describe('attachments', () => {
    let bug: Bug;
    beforeEach(async () => {
      bug = await create(a.clientId, { publish: true });
    });
    const files = async (bugId: string) => {
      try {
        return await readdir(path.join(app.paths.storage, 'bugs', bugId));
      } catch {
        return [];
      }
    };
    const rows = (bugId: string) => app.db.select().from(bugAttachments).where(eq(bugAttachments.bugId, bugId));

    it('takes an image and serves it back as a download', async () => {
      const up = multipartBody('screen shot.png', 'image/png', PNG);
      const res = await app.inject({ method: 'POST', url: `/bugs/${bug.id}/attachments`, headers: { ...aAuth, ...up.headers }, payload: up.payload });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ name: 'screen_shot.png', kind: 'image', contentType: 'image/png', size: PNG.length });
      const got = await app.inject({ url: `/bugs/${bug.id}/attachments/${res.json().id}`, headers: aAuth });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.headers['content-disposition']).toBe('attachment; filename="screen_shot.png"');
      expect(got.rawPayload.equals(PNG)).toBe(true);
      const viaOps = await app.inject({ url: `/operator/bugs/${bug.id}/attachments/${res.json().id}`, headers: ops });
      expect(viaOps.statusCode).toBe(200);
    });

    it('refuses a wrong type, by its declared type and by its bytes, leaving nothing', async () => {
      for (const [name, type, content] of [
        ['page.html', 'text/html', Buffer.from('<script>alert(1)</script>')],
        ['fake.png', 'image/png', Buffer.from('<svg onload="alert(1)"></svg>')],
        ['movie.mp4', 'video/mp4', PNG],
      ] as const) {
        const up = multipartBody(name, type, content);
        const res = await app.inject({ method: 'POST', url: `/bugs/${bug.id}/attachments`, headers: { ...aAuth, ...up.headers }, payload: up.payload });
        expect(res.statusCode, name).toBe(415);
        expect(res.json().message).toContain('image/png, image/jpeg, image/gif, image/webp, video/mp4, video/webm');
      }
      expect(await files(bug.id)).toEqual([]);
      expect(await rows(bug.id)).toEqual([]);
    });

    it('refuses a file over 50 MB with 413, leaving nothing', async () => {
      const up = multipartBody('big.webm', 'video/webm', Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(BUG_ATTACHMENT_MAX_BYTES - 3)]));
      const res = await app.inject({ method: 'POST', url: `/bugs/${bug.id}/attachments`, headers: { ...aAuth, ...up.headers }, payload: up.payload });
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toContain('50 MB');
      expect(await files(bug.id)).toEqual([]);
      expect(await rows(bug.id)).toEqual([]);
    });
  });
});
