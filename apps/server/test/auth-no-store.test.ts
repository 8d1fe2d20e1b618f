import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, login, useAppWithClient } from './helpers/app.ts';
import { resetTokenFor } from './helpers/auth.ts';

function expectNoStore(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);
  expect(res.headers['cache-control'], what).toBe('no-store');
  expect(res.headers.pragma, what).toBe('no-cache');
}

describe('answers that carry a token or a key are never stored by a cache', () => {
  const fixture = useAppWithClient();

  it('login, refresh, forgot and reset password', async () => {
    const { app, client: c } = fixture;
    const loginRes = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: c.email, password: c.password } });
    expectNoStore(loginRes, 'login');
    const refreshRes = await app.inject({ method: 'POST', url: '/auth/refresh-token', payload: { token: loginRes.json().refreshToken } });
    expectNoStore(refreshRes, 'refresh');
    expectNoStore(await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: c.email } }), 'forgot-password');
    const token = await resetTokenFor(app, c.email);
    c.password = 'a new password for no-store';
    expectNoStore(await app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: c.password } }), 'reset-password');
  });

  it('the client profile (it carries the key), generateAPIKey and the events token', async () => {
    const { app, client: c } = fixture;
    const { accessToken } = await login(app, c.email, c.password);
    expectNoStore(await app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: bearer(accessToken) }), 'profile (bearer)');
    // A cached profile answer too.
    expectNoStore(await app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: bearer(accessToken) }), 'profile (cached)');
    const gen = await app.inject({ method: 'POST', url: `/clientProfile/generateAPIKey/${c.clientId}`, headers: bearer(accessToken) });
    expectNoStore(gen, 'generateAPIKey');
    expectNoStore(await app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: { 'x-api-key': gen.json().apiKey } }), 'profile (api key)');
    expectNoStore(await app.inject({ method: 'POST', url: '/test/events/token', headers: bearer(accessToken) }), 'events token');
  });

  it('operator routes that show keys, masked or whole', async () => {
    const { app, client: c, operator } = fixture;
    const created = await app.inject({
      method: 'POST',
      url: '/operator/clients',
      headers: operator,
      payload: { name: 'No Store', website: 'https://nostore.test', email: 'owner@nostore.test', password: 'nostore password 1' },
    });
    expectNoStore(created, 'operator create client');
    expectNoStore(await app.inject({ method: 'GET', url: '/operator/clients', headers: operator }), 'operator list');
    expectNoStore(await app.inject({ method: 'POST', url: `/operator/clients/${created.json().clientId}/reveal-api-key`, headers: operator }), 'reveal');
    expectNoStore(await app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: operator }), 'profile (operator)');
  });
});
