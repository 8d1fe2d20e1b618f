import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents } from '../src/db/schema/index.ts';
import { bearer, createTestOperator, login, useAppWithClient } from './helpers/app.ts';

const MASKED = /^fsk_…[A-Za-z0-9_-]{4}$/;

describe('operators see API keys masked; a reveal is audited', () => {
  const fixture = useAppWithClient();

  it('masks the key in the client profile, the client list, the create answer and a regeneration', async () => {
    const { app, client: c, operator } = fixture;
    const masked = `fsk_…${c.apiKey.slice(-4)}`;
    const profile = await app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: operator });
    expect(profile.json().apiToken).toBe(masked);
    // The client itself still reads its whole key (the spec's Setup page), even right after the operator's read.
    const own = await app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: bearer((await login(app, c.email, c.password)).accessToken) });
    expect(own.json().apiToken).toBe(c.apiKey);

    const list = await app.inject({ method: 'GET', url: '/operator/clients', headers: operator });
    expect(list.json().clients.find((x: { id: string }) => x.id === c.clientId).apiKeyMasked).toBe(masked);
    expect(list.body).not.toContain(c.apiKey);

    const created = await app.inject({
      method: 'POST',
      url: '/operator/clients',
      headers: operator,
      payload: { name: 'Masked', website: 'https://masked.test', email: 'owner@masked.test', password: 'masked password 1' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().apiKeyMasked).toMatch(MASKED);
    expect(created.json()).not.toHaveProperty('apiKey');

    const regenerated = await app.inject({ method: 'POST', url: `/clientProfile/generateAPIKey/${created.json().clientId}`, headers: operator });
    expect(regenerated.json().apiKey).toMatch(MASKED);
  });

  it('reveals the whole key to an operator and writes who, which client and when to the audit log', async () => {
    const { app, client: c, operator } = fixture;
    const staff = await createTestOperator(app);
    const staffToken = (await login(app, staff.email, staff.password)).accessToken;
    const before = Date.now() - 1000;
    const byToken = await app.inject({ method: 'POST', url: `/operator/clients/${c.clientId}/reveal-api-key`, headers: operator });
    const byUser = await app.inject({ method: 'POST', url: `/operator/clients/${c.clientId}/reveal-api-key`, headers: bearer(staffToken) });
    for (const res of [byToken, byUser]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ clientId: c.clientId, apiKey: c.apiKey });
    }
    const rows = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'api-key.revealed'), eq(auditEvents.clientId, c.clientId)));
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.details)).toEqual(
      expect.arrayContaining([
        { via: 'operator-token', operatorUserId: null },
        { via: 'bearer', operatorUserId: staff.userId },
      ]),
    );
    expect(rows.find((r) => r.userId === staff.userId)).toBeTruthy();
    for (const r of rows) expect(r.createdAt.getTime()).toBeGreaterThan(before);
  });

  it('refuses a reveal to clients (403) and answers 404 for an unknown client', async () => {
    const { app, client: c, operator } = fixture;
    const { accessToken } = await login(app, c.email, c.password);
    for (const headers of [bearer(accessToken), { 'x-api-key': c.apiKey }]) {
      expect((await app.inject({ method: 'POST', url: `/operator/clients/${c.clientId}/reveal-api-key`, headers })).statusCode).toBe(403);
    }
    expect((await app.inject({ method: 'POST', url: '/operator/clients/no-such-client/reveal-api-key', headers: operator })).statusCode).toBe(404);
  });
});
