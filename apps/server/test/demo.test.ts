import { describe, expect, it } from 'vitest';
import { demoEnabled } from '../src/features/demo/plugin.ts';
import { buildTestApp, login } from './helpers/app.ts';

describe('the demo client (its password is published)', () => {
  it('is on by default for the embedded database only; FULLSTOP_DEMO decides when given', () => {
    expect(demoEnabled({ FULLSTOP_DEMO: undefined }, 'pglite')).toBe(true);
    expect(demoEnabled({ FULLSTOP_DEMO: undefined }, 'postgres')).toBe(false);
    expect(demoEnabled({ FULLSTOP_DEMO: true }, 'postgres')).toBe(true);
    expect(demoEnabled({ FULLSTOP_DEMO: false }, 'pglite')).toBe(false);
  });

  it('with FULLSTOP_DEMO unset, exists on PGlite and not on PostgreSQL', async () => {
    const app = await buildTestApp({ env: { FULLSTOP_DEMO: undefined } });
    try {
      const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: app.env.FULLSTOP_DEMO_EMAIL, password: app.env.FULLSTOP_DEMO_PASSWORD } });
      if (app.database.kind === 'pglite') {
        expect(app.demoClientId).toBeTruthy();
        expect(res.statusCode).toBe(200);
      } else {
        expect(app.demoClientId).toBeNull();
        expect(res.statusCode).toBe(401);
      }
    } finally {
      await app.close();
    }
  });

  it('with FULLSTOP_DEMO=1, exists on either database', async () => {
    const app = await buildTestApp({ env: { FULLSTOP_DEMO: true } });
    try {
      expect(app.demoClientId).toBeTruthy();
      await login(app, app.env.FULLSTOP_DEMO_EMAIL, app.env.FULLSTOP_DEMO_PASSWORD);
    } finally {
      await app.close();
    }
  });
});
