import { PAYMENT_CATALOGUE, type PaymentPreset, type PaymentPresetsResponse } from '@fullstop/contracts';
import { and, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../src/db/schema/index.ts';
import { runTargetFor } from '../src/features/targets/index.ts';
import { bearer, createTestClient, createTestOperator, login, operatorBearer, useApp, type TestClient } from './helpers/app.ts';

/** Issue 43: an operator switches a payment provider's preset on for one client, which opens its origins to that client's tests only. */
describe('payment presets', () => {
  const fixture = useApp();
  let shop: TestClient;
  let other: TestClient;
  let staff: { userId: string; email: string; headers: Record<string, string> };
  const stripe = PAYMENT_CATALOGUE.stripe.origins;
  const url = (clientId: string, provider?: string) => `/operator/clients/${clientId}/payment-providers${provider ? `/${provider}` : ''}`;
  const allowed = async (clientId: string) => (await runTargetFor(fixture.app.engine.deps, clientId)).allowedOrigins;
  const auditRows = (clientId: string) =>
    fixture.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.clientId, clientId), like(auditEvents.type, 'payment-preset.%')))
      .orderBy(auditEvents.createdAt);

  beforeAll(async () => {
    shop = await createTestClient(fixture.app, { website: 'https://shop.example.test/home' });
    other = await createTestClient(fixture.app, { website: 'https://other.example.test' });
    const operator = await createTestOperator(fixture.app);
    staff = { ...operator, headers: bearer((await login(fixture.app, operator.email, operator.password)).accessToken) };
  });

  it('lists Stripe, Braintree and Adyen, all off, with their labels, origins and test-card pages; not the generic test mode', async () => {
    const res = await fixture.app.inject({ url: url(shop.clientId), headers: staff.headers });
    expect(res.statusCode, res.body).toBe(200);
    const { presets } = res.json<PaymentPresetsResponse>();
    expect(presets.map((p) => [p.provider, p.label, p.enabled])).toEqual([
      ['stripe', 'Stripe test mode', false],
      ['braintree', 'Braintree sandbox', false],
      ['adyen', 'Adyen test', false],
    ]);
    expect(presets[0]).toMatchObject({ docsUrl: PAYMENT_CATALOGUE.stripe.docsUrl, origins: [...stripe], enabledAt: null, enabledBy: null });
  });

  it('switching Stripe on opens its origins to that client’s tests only, says who and when, and is audited once', async () => {
    expect(await allowed(shop.clientId)).toEqual(['https://shop.example.test']);
    const before = Date.now();
    const res = await fixture.app.inject({ method: 'PUT', url: url(shop.clientId, 'stripe'), headers: staff.headers });
    expect(res.statusCode, res.body).toBe(200);
    const preset = res.json<PaymentPreset>();
    expect(preset).toMatchObject({ provider: 'stripe', enabled: true, enabledBy: staff.email, origins: [...stripe] });
    expect(Date.parse(preset.enabledAt!)).toBeGreaterThanOrEqual(before - 1000);

    expect(await allowed(shop.clientId)).toEqual(['https://shop.example.test', ...stripe]);
    expect(await allowed(other.clientId)).toEqual(['https://other.example.test']);
    const others = (await fixture.app.inject({ url: url(other.clientId), headers: staff.headers })).json<PaymentPresetsResponse>();
    expect(others.presets.every((p) => !p.enabled)).toBe(true);

    // Switching it on again changes nothing: the same who and when, no second event.
    const again = await fixture.app.inject({ method: 'PUT', url: url(shop.clientId, 'stripe'), headers: operatorBearer(fixture.app) });
    expect(again.statusCode).toBe(200);
    expect(again.json<PaymentPreset>()).toMatchObject({ enabledAt: preset.enabledAt, enabledBy: staff.email });
    const rows = await auditRows(shop.clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'payment-preset.enabled', userId: staff.userId, details: { provider: 'stripe', origins: [...stripe], via: 'bearer' } });
  });

  it('switching it off closes its origins, keeps an origin added by hand, and is audited; switching off twice is a 404', async () => {
    await fixture.app.inject({ method: 'POST', url: `/operator/clients/${shop.clientId}/origins`, headers: staff.headers, payload: { origin: 'https://js.stripe.com' } });
    const off = await fixture.app.inject({ method: 'DELETE', url: url(shop.clientId, 'stripe'), headers: staff.headers });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().message).toBe('Stripe test mode is switched off: its origins are closed to this client’s tests');
    expect(await allowed(shop.clientId)).toEqual(['https://shop.example.test', 'https://js.stripe.com']);
    const listed = (await fixture.app.inject({ url: url(shop.clientId), headers: staff.headers })).json<PaymentPresetsResponse>();
    expect(listed.presets.find((p) => p.provider === 'stripe')).toMatchObject({ enabled: false, enabledAt: null, enabledBy: null });
    expect((await auditRows(shop.clientId)).map((r) => r.type)).toEqual(['payment-preset.enabled', 'payment-preset.disabled']);

    const twice = await fixture.app.inject({ method: 'DELETE', url: url(shop.clientId, 'stripe'), headers: staff.headers });
    expect(twice.statusCode).toBe(404);
    expect(twice.json().message).toBe('Stripe test mode is not switched on for this client');
    expect(await auditRows(shop.clientId)).toHaveLength(2);
  });

  it('with the operator token, the preset is on with no operator’s e-mail and the event says so', async () => {
    const res = await fixture.app.inject({ method: 'PUT', url: url(other.clientId, 'adyen'), headers: operatorBearer(fixture.app) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PaymentPreset>()).toMatchObject({ provider: 'adyen', enabled: true, enabledBy: null });
    expect(await allowed(other.clientId)).toEqual(['https://other.example.test', ...PAYMENT_CATALOGUE.adyen.origins]);
    const [row] = await auditRows(other.clientId);
    expect(row).toMatchObject({ type: 'payment-preset.enabled', userId: null, details: { provider: 'adyen', via: 'operator-token' } });
  });

  it('refuses a client, its API key and anyone signed out', async () => {
    const owner = bearer((await login(fixture.app, shop.email, shop.password)).accessToken);
    for (const [method, path] of [['GET', url(shop.clientId)], ['PUT', url(shop.clientId, 'braintree')], ['DELETE', url(shop.clientId, 'stripe')]] as const) {
      expect((await fixture.app.inject({ method, url: path, headers: owner })).statusCode, `${method} as the owner`).toBe(403);
      expect((await fixture.app.inject({ method, url: path, headers: { 'x-api-key': shop.apiKey } })).statusCode, `${method} with the API key`).toBe(403);
      expect((await fixture.app.inject({ method, url: path })).statusCode, `${method} signed out`).toBe(401);
    }
    expect(await allowed(shop.clientId)).not.toContain(PAYMENT_CATALOGUE.braintree.origins[0]);
  });

  it('answers 404 for an unknown client and 400, naming the providers, for an unknown one', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await fixture.app.inject({ method, url: url('no-such-client', method === 'GET' ? undefined : 'stripe'), headers: staff.headers });
      expect(res.statusCode, `${method} ${res.body}`).toBe(404);
    }
    const unknown = await fixture.app.inject({ method: 'PUT', url: url(shop.clientId, 'paypal'), headers: staff.headers });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'provider', message: 'provider must be one of stripe, braintree, adyen' });
    const generic = await fixture.app.inject({ method: 'PUT', url: url(shop.clientId, 'test-mode'), headers: staff.headers });
    expect(generic.statusCode).toBe(400);
    expect(generic.json().message).toBe('test-mode opens no origins and has no preset; provider must be one of stripe, braintree, adyen');
    expect((await fixture.app.inject({ method: 'DELETE', url: url(shop.clientId, 'paypal'), headers: staff.headers })).statusCode).toBe(400);
  });
});
