import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, invitations, users } from '../src/db/schema/index.ts';
import { bearer, buildTestApp, createTestClient, login, operatorBearer, type TestClient, useApp } from './helpers/app.ts';
import { mailsTo } from './helpers/auth.ts';
import { accept, invitationTokenFor, invite, teamUser } from './helpers/team.ts';

const auditOf = (app: FastifyInstance, type: string, clientId: string) =>
  app.db.select().from(auditEvents).where(and(eq(auditEvents.type, type), eq(auditEvents.clientId, clientId)));

describe('team: invitations', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;
  let ownerA: string;
  let ownerB: string;
  beforeAll(async () => {
    app = await buildTestApp({ env: { PUBLIC_URL: 'https://qa.example.test' } });
    a = await createTestClient(app, { name: 'Acme Shop' });
    b = await createTestClient(app, { name: 'Other Co' });
    ownerA = (await login(app, a.email, a.password)).accessToken;
    ownerB = (await login(app, b.email, b.password)).accessToken;
  });
  afterAll(async () => app?.close());

  it('an owner invites by e-mail; the link previews, accepts once, logs the new user in with the role', async () => {
    const email = 'New.Person@Example.test';
    const sent = await invite(app, ownerA, email, 'viewer');
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ email: 'new.person@example.test', role: 'viewer', invitedBy: expect.any(String) });
    const expires = new Date(sent.json().expiresAt).getTime();
    expect(expires - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);

    const [mail] = await mailsTo(app, 'new.person@example.test');
    expect(mail).toContain('Acme Shop');
    expect(mail!.replace(/=\r?\n/g, '')).toContain('https://qa.example.test/invite?token=3D');
    const token = await invitationTokenFor(app, 'new.person@example.test');

    const team = await app.inject({ url: '/team', headers: bearer(ownerA) });
    expect(team.json().invitations).toEqual([expect.objectContaining({ email: 'new.person@example.test', role: 'viewer' })]);

    const preview = await app.inject({ url: `/team/invitations/preview?token=${encodeURIComponent(token)}` });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ clientName: 'Acme Shop', email: 'new.person@example.test', role: 'viewer' });

    const weak = await accept(app, token, 'New Person', 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ field: 'password' });

    const joined = await accept(app, token);
    expect(joined.statusCode, joined.body).toBe(200);
    const session = joined.json();
    expect(session.userData).toMatchObject({ email: 'new.person@example.test', username: 'New Person', role: 'client', clientId: a.clientId, teamRole: 'viewer' });
    expect((await app.inject({ url: '/team', headers: bearer(session.accessToken) })).json().yourRole).toBe('viewer');
    expect((await login(app, 'new.person@example.test', 'my new password 1')).userData.teamRole).toBe('viewer');

    const again = await accept(app, token);
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'INVITATION_USED', message: expect.stringContaining('already been accepted') });
    const usedPreview = await app.inject({ url: `/team/invitations/preview?token=${encodeURIComponent(token)}` });
    expect(usedPreview.statusCode).toBe(410);

    const after = (await app.inject({ url: '/team', headers: bearer(ownerA) })).json();
    expect(after.invitations).toEqual([]);
    expect(after.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [a.email, 'owner'],
      ['new.person@example.test', 'viewer'],
    ]);

    expect(await auditOf(app, 'invitation.sent', a.clientId)).toEqual([expect.objectContaining({ details: expect.objectContaining({ email: 'new.person@example.test', role: 'viewer' }) })]);
    expect(await auditOf(app, 'invitation.accepted', a.clientId)).toEqual([expect.objectContaining({ userId: session.userData.id })]);
  });

  it('an expired link answers 410 with a clear message, and creates nobody', async () => {
    expect((await invite(app, ownerA, 'late@example.test', 'member')).statusCode).toBe(201);
    const token = await invitationTokenFor(app, 'late@example.test');
    await app.db.update(invitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invitations.email, 'late@example.test'));
    for (const res of [await app.inject({ url: `/team/invitations/preview?token=${encodeURIComponent(token)}` }), await accept(app, token)]) {
      expect(res.statusCode).toBe(410);
      expect(res.json()).toMatchObject({ code: 'INVITATION_EXPIRED', message: expect.stringContaining('expired') });
    }
    expect(await app.db.select().from(users).where(eq(users.email, 'late@example.test'))).toEqual([]);
    expect((await app.inject({ url: '/team', headers: bearer(ownerA) })).json().invitations).toEqual([]);
    expect((await accept(app, 'fsi_not-a-real-token')).statusCode).toBe(404);
  });

  it('an address with an account elsewhere is answered like any other (no 409 leak), and accepting explains', async () => {
    const fresh = await invite(app, ownerA, 'nobody-yet@example.test', 'member');
    const taken = await invite(app, ownerA, b.email.toUpperCase(), 'member');
    expect(taken.statusCode, taken.body).toBe(fresh.statusCode);
    expect(Object.keys(taken.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
    expect(taken.json()).toMatchObject({ email: b.email.toLowerCase(), role: 'member' });
    const res = await accept(app, await invitationTokenFor(app, b.email.toLowerCase()));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ field: 'email', message: expect.stringContaining('an account belongs to one team only') });
    // The invitee's account is untouched: still B's owner.
    expect((await login(app, b.email, b.password)).userData.clientId).toBe(b.clientId);
    // Someone already in the caller's own team (listed to them anyway) is told so.
    const member = await teamUser(app, a.clientId, 'member');
    const again = await invite(app, ownerA, member.email, 'viewer');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ field: 'email', message: 'This person is already a member of your team' });
  });

  it('a second invitation replaces the first', async () => {
    expect((await invite(app, ownerA, 'twice@example.test', 'viewer')).statusCode).toBe(201);
    const first = await invitationTokenFor(app, 'twice@example.test');
    await new Promise((r) => setTimeout(r, 5));
    expect((await invite(app, ownerA, 'twice@example.test', 'member')).statusCode).toBe(201);
    const second = await invitationTokenFor(app, 'twice@example.test');
    expect(second).not.toBe(first);
    expect((await accept(app, first)).statusCode).toBe(404);
    const joined = await accept(app, second);
    expect(joined.json().userData.teamRole).toBe('member');
  });

  it("another client's owner can neither see nor cancel an invitation; its owner can cancel it", async () => {
    const sent = (await invite(app, ownerA, 'cancel-me@example.test', 'member')).json();
    const token = await invitationTokenFor(app, 'cancel-me@example.test');
    expect((await app.inject({ url: '/team', headers: bearer(ownerB) })).json().invitations).toEqual([]);
    const foreign = await app.inject({ method: 'DELETE', url: `/team/invitations/${sent.id}`, headers: bearer(ownerB) });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Invitation not found');

    const cancelled = await app.inject({ method: 'DELETE', url: `/team/invitations/${sent.id}`, headers: bearer(ownerA) });
    expect(cancelled.statusCode).toBe(200);
    expect((await accept(app, token)).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/team/invitations/${sent.id}`, headers: bearer(ownerA) })).statusCode).toBe(404);
  });

  it('only owners invite and cancel; members and viewers read the team; API keys and operators are refused', async () => {
    const member = await teamUser(app, a.clientId, 'member');
    const viewer = await teamUser(app, a.clientId, 'viewer');
    for (const who of [member, viewer]) {
      expect((await app.inject({ url: '/team', headers: bearer(who.accessToken) })).statusCode).toBe(200);
      const res = await invite(app, who.accessToken, 'nope@example.test', 'owner');
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toContain('owner');
    }
    expect((await app.inject({ url: '/team', headers: { 'x-api-key': a.apiKey } })).statusCode).toBe(403);
    expect((await app.inject({ url: '/team', headers: operatorBearer(app) })).statusCode).toBe(403);
    expect((await app.inject({ url: '/team' })).statusCode).toBe(401);
    expect(await mailsTo(app, 'nope@example.test')).toEqual([]);
  });
});

describe('team: roles and removal', () => {
  let app: FastifyInstance;
  let c: TestClient;
  let owner: string;
  let ownerId: string;
  beforeAll(async () => {
    app = await buildTestApp();
    c = await createTestClient(app);
    const session = await login(app, c.email, c.password);
    owner = session.accessToken;
    ownerId = session.userData.id;
  });
  afterAll(async () => app?.close());

  const setRole = (token: string, userId: string, role: string) =>
    app.inject({ method: 'PATCH', url: `/team/members/${userId}`, headers: bearer(token), payload: { role } });
  const remove = (token: string, userId: string) => app.inject({ method: 'DELETE', url: `/team/members/${userId}`, headers: bearer(token) });

  it('the last owner can be neither demoted nor removed (409 saying so)', async () => {
    for (const res of [await setRole(owner, ownerId, 'member'), await remove(owner, ownerId)]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('at least one owner');
    }
  });

  it('a role change applies at once: the old tokens stop working, a new login carries the new role', async () => {
    const person = await teamUser(app, c.clientId, 'viewer');
    const changed = await setRole(owner, person.userData.id, 'member');
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().members).toContainEqual(expect.objectContaining({ userId: person.userData.id, role: 'member' }));
    expect((await app.inject({ url: '/team', headers: bearer(person.accessToken) })).statusCode).toBe(401);
    const again = await login(app, person.email, person.password);
    expect(again.userData.teamRole).toBe('member');
    expect(await app.db.select().from(auditEvents).where(eq(auditEvents.type, 'member.role-changed'))).toEqual([
      expect.objectContaining({ clientId: c.clientId, userId: ownerId, details: expect.objectContaining({ from: 'viewer', to: 'member' }) }),
    ]);
  });

  it("refuses a client's access token without a team role (issued before teams): the portal refreshes it", async () => {
    const sid = JSON.parse(Buffer.from(owner.split('.')[1]!, 'base64url').toString()).sid as string;
    const sign = (extra: Record<string, unknown>) =>
      new SignJWT({ cid: c.clientId, role: 'client', sid, ...extra })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(ownerId)
        .setIssuer('fullstop')
        .setAudience('fullstop-api')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(app.keys.jwt);
    expect((await app.inject({ url: '/team', headers: bearer(await sign({})) })).statusCode).toBe(401);
    expect((await app.inject({ url: '/team', headers: bearer(await sign({ tr: 'admin' })) })).statusCode).toBe(401);
    expect((await app.inject({ url: '/team', headers: bearer(await sign({ tr: 'owner' })) })).statusCode).toBe(200);
  });

  it('members cannot change roles or remove anyone; owners of another client get 404', async () => {
    const member = await teamUser(app, c.clientId, 'member');
    expect((await setRole(member.accessToken, member.userData.id, 'owner')).statusCode).toBe(403);
    expect((await remove(member.accessToken, ownerId)).statusCode).toBe(403);
    const other = await createTestClient(app);
    const otherOwner = (await login(app, other.email, other.password)).accessToken;
    const res = await setRole(otherOwner, member.userData.id, 'viewer');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Member not found');
    expect((await remove(otherOwner, member.userData.id)).statusCode).toBe(404);
  });

  it('with a second owner, an owner can step down; removing a member ends their sessions and is audited', async () => {
    const second = await teamUser(app, c.clientId, 'owner');
    expect((await setRole(second.accessToken, ownerId, 'member')).statusCode).toBe(200);
    // The first owner is a member now: no longer allowed to manage, at once.
    expect((await invite(app, owner, 'x@example.test', 'viewer')).statusCode).toBe(401);
    const gone = await teamUser(app, c.clientId, 'member');
    const removed = await remove(second.accessToken, gone.userData.id);
    expect(removed.statusCode).toBe(200);
    expect((await app.inject({ url: '/team', headers: bearer(gone.accessToken) })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/auth/refresh-token', payload: { token: gone.refreshToken } })).statusCode).toBe(401);
    const loginAgain = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: gone.email, password: gone.password } });
    expect(loginAgain.statusCode).toBe(401);
    expect(await app.db.select().from(auditEvents).where(eq(auditEvents.type, 'member.removed'))).toEqual([
      expect.objectContaining({ clientId: c.clientId, userId: second.userData.id, details: expect.objectContaining({ memberId: gone.userData.id }) }),
    ]);
    // Now the only owner: protected too.
    expect((await remove(second.accessToken, second.userData.id)).statusCode).toBe(409);
  });
});

describe('team: an invitation dies with its sender’s owner role', () => {
  const fixture = useApp();

  it('stops working once the owner who sent it is demoted (even if made owner again) or removed', async () => {
    const { app } = fixture;
    const c = await createTestClient(app, { name: 'Roles Co' });
    const first = (await login(app, c.email, c.password)).accessToken;
    const second = await teamUser(app, c.clientId, 'owner');
    expect((await invite(app, second.accessToken, 'by-demoted@example.test', 'member')).statusCode).toBe(201);
    expect((await invite(app, second.accessToken, 'by-removed@example.test', 'member')).statusCode).toBe(201);
    expect((await invite(app, first, 'by-owner@example.test', 'viewer')).statusCode).toBe(201);
    const demotedToken = await invitationTokenFor(app, 'by-demoted@example.test');
    const removedToken = await invitationTokenFor(app, 'by-removed@example.test');
    const setRole = (userId: string, role: string) => app.inject({ method: 'PATCH', url: `/team/members/${userId}`, headers: bearer(first), payload: { role } });

    expect((await setRole(second.userData.id, 'member')).statusCode).toBe(200);
    // Made an owner again: what they sent before stays dead.
    expect((await setRole(second.userData.id, 'owner')).statusCode).toBe(200);
    const revoked = async (token: string) => {
      for (const res of [await app.inject({ url: `/team/invitations/preview?token=${encodeURIComponent(token)}` }), await accept(app, token)]) {
        expect(res.statusCode).toBe(410);
        expect(res.json()).toMatchObject({ code: 'INVITATION_REVOKED', message: expect.stringContaining('no longer an owner') });
      }
    };
    await revoked(demotedToken);
    expect((await app.inject({ url: '/team', headers: bearer(first) })).json().invitations.map((i: { email: string }) => i.email).sort()).toEqual(['by-owner@example.test']);

    // The second owner, owner again, sends one more; then is removed.
    expect((await invite(app, (await login(app, second.email, second.password)).accessToken, 'by-removed@example.test', 'member')).statusCode).toBe(201);
    const removedAgain = await invitationTokenFor(app, 'by-removed@example.test');
    expect((await app.inject({ method: 'DELETE', url: `/team/members/${second.userData.id}`, headers: bearer(first) })).statusCode).toBe(200);
    await revoked(removedAgain);
    expect((await accept(app, removedToken)).statusCode).toBe(404);
    expect(await app.db.select().from(users).where(eq(users.email, 'by-removed@example.test'))).toEqual([]);

    // The remaining owner's invitation still works.
    expect((await accept(app, await invitationTokenFor(app, 'by-owner@example.test'))).statusCode).toBe(200);
  });
});

describe('change password', () => {
  const fixture = useApp();

  it('refuses a wrong current password; the old password then fails, other sessions end, and it is audited', async () => {
    const { app } = fixture;
    const c = await createTestClient(app);
    const here = await login(app, c.email, c.password);
    const elsewhere = await login(app, c.email, c.password);
    const change = (currentPassword: string, newPassword: string) =>
      app.inject({ method: 'POST', url: '/auth/change-password', headers: bearer(here.accessToken), payload: { currentPassword, newPassword } });

    const wrong = await change('not my password', 'a changed password 1');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ field: 'currentPassword' });

    const ok = await change(c.password, 'a changed password 1');
    expect(ok.statusCode).toBe(200);
    const fresh = ok.json<{ accessToken: string }>();
    expect((await app.inject({ url: '/team', headers: bearer(elsewhere.accessToken) })).statusCode).toBe(401);
    expect((await app.inject({ url: '/team', headers: bearer(fresh.accessToken) })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/auth/login', payload: { email: c.email, password: c.password } })).statusCode).toBe(401);
    await login(app, c.email, 'a changed password 1');
    expect(await app.db.select().from(auditEvents).where(and(eq(auditEvents.type, 'password.changed'), eq(auditEvents.userId, c.userId)))).toHaveLength(1);
  });
});
