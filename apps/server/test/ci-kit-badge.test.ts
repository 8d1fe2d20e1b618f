import type { BadgeResponse } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { bearer, createTestClient, login } from './helpers/app.ts';
import { teamUser } from './helpers/team.ts';
import { clientWithSuite, key, runAndWait, useEngineApp } from './engine/helpers.ts';

const badgePath = (url: string) => new URL(url).pathname;

describe('the status badge', () => {
  const fixture = useEngineApp(
    2,
    async (app) => ({
      a: await clientWithSuite(app, {
        Frontend: [
          { name: 'home', kind: 'browser', options: { outcome: 'pass' } },
          { name: 'checkout', kind: 'browser', options: { outcome: 'fail' } },
          { name: 'down', kind: 'browser', options: { errorOnAttempts: [1, 2, 3, 4, 5] } },
        ],
      }),
      b: await createTestClient(app),
    }),
    60_000,
  );

  const badge = async (headers: Record<string, string>) => {
    const res = await fixture.app.inject({ url: '/clientProfile/badge', headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json<BadgeResponse>();
  };
  const svg = (url: string) => fixture.app.inject({ url: badgePath(url) });

  it('shows "no runs", then the last finished run: passing, failing, could not run', async () => {
    const { url, markdown, state } = await badge(key(fixture.a));
    expect(url).toMatch(/^http:\/\/localhost:\d+\/badge\/[A-Za-z0-9_-]{43}\.svg$/);
    expect(markdown).toContain(`(${url})`);
    expect(state).toBe('no runs');
    // The same address on every call.
    expect((await badge(key(fixture.a))).url).toBe(url);

    const empty = await svg(url);
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(empty.headers['cache-control']).toMatch(/no-cache/);
    expect(empty.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(empty.body).toMatch(/^<svg [^>]*aria-label="fullstop: no runs"/);

    for (const [test, want, color] of [
      ['home', 'passing', '#2e7d32'],
      ['checkout', 'failing', '#c62828'],
      ['down', 'could not run', '#ef6c00'],
    ] as const) {
      await runAndWait(fixture.app, fixture.a, test);
      const res = await svg(url);
      expect(res.body).toContain(`<title>fullstop: ${want}</title>`);
      expect(res.body).toContain(`fill="${color}"`);
      expect((await badge(key(fixture.a))).state).toBe(want);
    }
  }, 90_000);

  it('answers the same 404 for an unknown, a malformed and a replaced address; regenerating kills the old one at once', async () => {
    const before = (await badge(key(fixture.a))).url;
    const unknown = await fixture.app.inject({ url: `/badge/${'A'.repeat(43)}.svg` });
    const malformed = await fixture.app.inject({ url: '/badge/nope' });
    for (const res of [unknown, malformed]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Badge not found');
    }

    const owner = await login(fixture.app, fixture.a.email, fixture.a.password);
    const regenerated = await fixture.app.inject({ method: 'POST', url: '/clientProfile/badge/regenerate', headers: bearer(owner.accessToken) });
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    const after = regenerated.json<BadgeResponse>().url;
    expect(after).not.toBe(before);
    const old = await svg(before);
    expect(old.statusCode).toBe(404);
    expect(old.body).toBe(unknown.body);
    expect((await svg(after)).statusCode).toBe(200);
    expect((await badge(key(fixture.a))).url).toBe(after);
  });

  it('lets a viewer see the badge but not regenerate it', async () => {
    const viewer = await teamUser(fixture.app, fixture.a.clientId, 'viewer');
    const seen = await badge(bearer(viewer.accessToken));
    const refused = await fixture.app.inject({ method: 'POST', url: '/clientProfile/badge/regenerate', headers: bearer(viewer.accessToken) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/Viewers cannot regenerate the badge/);
    expect((await badge(key(fixture.a))).url).toBe(seen.url);
    const member = await teamUser(fixture.app, fixture.a.clientId, 'member');
    expect((await fixture.app.inject({ method: 'POST', url: '/clientProfile/badge/regenerate', headers: bearer(member.accessToken) })).statusCode).toBe(200);
  });

  it('keeps each client to its own badge', async () => {
    const mine = await badge(key(fixture.a));
    const theirs = await badge(key(fixture.b));
    expect(theirs.url).not.toBe(mine.url);
    expect(theirs.state).toBe('no runs');
    // B regenerating touches only B's badge.
    await fixture.app.inject({ method: 'POST', url: '/clientProfile/badge/regenerate', headers: key(fixture.b) });
    expect((await svg(mine.url)).statusCode).toBe(200);
    expect((await badge(key(fixture.a))).url).toBe(mine.url);
    // Operators have no badge of their own; the routes need a client.
    expect((await fixture.app.inject({ url: '/clientProfile/badge', headers: { authorization: 'Bearer fso_test-operator-token-0123456789abcdef' } })).statusCode).toBe(403);
    expect((await fixture.app.inject({ url: '/clientProfile/badge' })).statusCode).toBe(401);
  });
});
