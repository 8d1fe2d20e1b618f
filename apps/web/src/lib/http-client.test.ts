import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@fullstop/contracts';
import { STORAGE_KEYS } from './auth-storage.ts';
import { createHttpClient, HttpError } from './http-client.ts';

const { logout: LOGOUT_PATH, refreshToken: REFRESH_PATH, clearCaches: CLEAR_CACHE_PATHS } = apiPaths;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A fake server: data calls accept only the current access token; refreshes count and rotate tokens. */
function fakeServer(options: { refreshFails?: boolean; refreshDelayMs?: number } = {}) {
  let validToken = 'access-2';
  const calls = { refresh: 0, data: [] as string[] };
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === REFRESH_PATH) {
      calls.refresh++;
      await new Promise((r) => setTimeout(r, options.refreshDelayMs ?? 5));
      if (options.refreshFails) return json(401, { message: 'Invalid refresh token' });
      const body = JSON.parse(String(init?.body)) as { token: string };
      expect(body.token).toBe('refresh-1');
      validToken = 'access-3';
      return json(200, { accessToken: 'access-3', refreshToken: 'refresh-2' });
    }
    const auth = new Headers(init?.headers).get('authorization');
    calls.data.push(`${url} ${auth}`);
    if (auth !== `Bearer ${validToken}`) return json(401, { message: 'Token expired' });
    return json(200, { url });
  });
  return { fetch, calls, expire: () => (validToken = 'access-3') };
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(STORAGE_KEYS.accessToken, 'access-2');
  localStorage.setItem(STORAGE_KEYS.refreshToken, 'refresh-1');
  localStorage.setItem(STORAGE_KEYS.apiKey, 'key-1');
  localStorage.setItem(STORAGE_KEYS.userData, JSON.stringify({ id: 'u1', username: 'demo' }));
  localStorage.setItem(STORAGE_KEYS.isAuthenticated, 'true');
});

afterEach(() => vi.restoreAllMocks());

describe('the session client', () => {
  it('sends the bearer token, or the API key for apiKey calls', async () => {
    const seen: Headers[] = [];
    const client = createHttpClient({
      fetch: async (_input, init) => {
        seen.push(new Headers(init?.headers));
        return json(200, {});
      },
    });
    await client.request('/clientProfile/c1');
    await client.request('/test/fetch/all', { auth: 'apiKey' });
    await client.request('/insight/fetch/all', { auth: 'apiKey', apiKey: 'profile-key' });
    await client.request('/auth/login', { method: 'POST', auth: 'none', json: {} });
    expect(seen[0]?.get('authorization')).toBe('Bearer access-2');
    expect(seen[1]?.get('x-api-key')).toBe('key-1');
    expect(seen[1]?.get('authorization')).toBeNull();
    expect(seen[2]?.get('x-api-key')).toBe('profile-key');
    expect(seen[3]?.get('authorization')).toBeNull();
  });

  it('refreshes exactly once for concurrent 401s and retries every queued call', async () => {
    const server = fakeServer({ refreshDelayMs: 20 });
    server.expire();
    const redirect = vi.fn();
    const client = createHttpClient({ fetch: server.fetch, redirectToLogin: redirect });
    const results = await Promise.all(['/a', '/b', '/c', '/d'].map((p) => client.request<{ url: string }>(p)));
    expect(results.map((r) => r.url)).toEqual(['/a', '/b', '/c', '/d']);
    expect(server.calls.refresh).toBe(1);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access-3');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-2');
    expect(redirect).not.toHaveBeenCalled();
  });

  it('does not refresh again for a call that failed with a token already replaced', async () => {
    const server = fakeServer();
    server.expire();
    const client = createHttpClient({ fetch: server.fetch, redirectToLogin: vi.fn() });
    await client.request('/a');
    // A late 401 for the old token: the stored one is newer, so the call is retried without a refresh.
    localStorage.setItem(STORAGE_KEYS.accessToken, 'access-3');
    await client.request('/b');
    expect(server.calls.refresh).toBe(1);
  });

  it('logs out when the refresh fails: listeners cleared, storage emptied, sent to /login', async () => {
    const server = fakeServer({ refreshFails: true });
    server.expire();
    const redirect = vi.fn();
    const client = createHttpClient({ fetch: server.fetch, redirectToLogin: redirect });
    const cleared = vi.fn();
    client.onSessionEnd(cleared);
    const outcomes = await Promise.allSettled([client.request('/a'), client.request('/b')]);
    expect(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof HttpError)).toBe(true);
    expect(server.calls.refresh).toBe(1);
    expect(cleared).toHaveBeenCalledTimes(1);
    expect(redirect).toHaveBeenCalledTimes(1);
    for (const key of ['accessToken', 'refreshToken', 'apiKey', 'userData'] as const) {
      expect(localStorage.getItem(STORAGE_KEYS[key])).toBeNull();
    }
    expect(localStorage.getItem(STORAGE_KEYS.isAuthenticated)).toBe('false');
  });

  it('sends an ended session to /login with a note and the page to come back to', async () => {
    const server = fakeServer({ refreshFails: true });
    server.expire();
    const redirect = vi.fn();
    const client = createHttpClient({ fetch: server.fetch, redirectToLogin: redirect, currentPath: () => '/dashboard/tests' });
    await expect(client.request('/a')).rejects.toBeInstanceOf(HttpError);
    expect(redirect).toHaveBeenCalledWith('/login?session=ended&next=%2Fdashboard%2Ftests');
  });

  it('logs out without calling the server when there is no refresh token', async () => {
    localStorage.removeItem(STORAGE_KEYS.refreshToken);
    const server = fakeServer();
    server.expire();
    const redirect = vi.fn();
    const client = createHttpClient({ fetch: server.fetch, redirectToLogin: redirect });
    await expect(client.request('/a')).rejects.toBeInstanceOf(HttpError);
    expect(server.calls.refresh).toBe(0);
    expect(redirect).toHaveBeenCalledTimes(1);
  });

  it('keeps the server message and the response text of a failed call', async () => {
    const client = createHttpClient({
      fetch: async (input) =>
        String(input) === '/json' ? json(409, { message: 'A run is already going' }) : new Response('Engine down', { status: 503 }),
    });
    await expect(client.request('/json')).rejects.toMatchObject({ status: 409, serverMessage: 'A run is already going' });
    await expect(client.request('/text')).rejects.toMatchObject({ status: 503, serverMessage: null, responseText: 'Engine down' });
  });

  it('does not refresh for an API-key call or a call that opts out', async () => {
    const fetch = vi.fn(async () => json(401, { message: 'Invalid API key' }));
    const redirect = vi.fn();
    const client = createHttpClient({ fetch, redirectToLogin: redirect });
    await expect(client.request('/test/fetch/all', { auth: 'apiKey' })).rejects.toMatchObject({ status: 401 });
    await expect(client.request('/test/clearCache', { method: 'POST', refreshOnUnauthorized: false })).rejects.toMatchObject({ status: 401 });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(redirect).not.toHaveBeenCalled();
  });

  it('ends the server session with the stored refresh token, without a bearer token, and leaves storage alone', async () => {
    const seen: { url: string; headers: Headers; body: unknown }[] = [];
    const client = createHttpClient({
      fetch: async (input, init) => {
        seen.push({ url: String(input), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) });
        return json(200, { message: 'Logged out' });
      },
    });
    await client.endServerSession();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ url: LOGOUT_PATH, body: { token: 'refresh-1' } });
    expect(seen[0]?.headers.get('authorization')).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-1');

    localStorage.removeItem(STORAGE_KEYS.refreshToken);
    await client.endServerSession();
    expect(seen).toHaveLength(1);
  });

  it('logs out: clears the server caches, then ends the server session, then empties storage and goes to /login', async () => {
    const goTo = vi.fn();
    const client = createHttpClient({ redirectToLogin: goTo });
    const steps: string[] = [];
    vi.spyOn(client, 'request').mockImplementation(async (path: string) => {
      steps.push(path);
      return undefined as never;
    });
    vi.spyOn(client, 'endServerSession').mockImplementation(async () => {
      // The refresh token is still stored when the server session is ended.
      steps.push(`end ${localStorage.getItem(STORAGE_KEYS.refreshToken)}`);
      throw new Error('network down');
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await client.endSession();
    expect(steps.slice(0, 3).sort()).toEqual([...CLEAR_CACHE_PATHS].sort());
    expect(steps[3]).toBe('end refresh-1');
    // A failed server logout is only logged: the local one still happens.
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(goTo).toHaveBeenCalledWith('/login');
  });

  it('logs in: stores the session and answers it', async () => {
    localStorage.clear();
    const session = { accessToken: 'a', refreshToken: 'r', userData: { id: 'u1', username: 'Ada', email: 'ada@example.test', role: 'client', clientId: 'c1', teamRole: 'owner' } };
    const client = createHttpClient({ fetch: async () => json(200, session) });
    await expect(client.startSession({ email: 'ada@example.test', password: 'pw' })).resolves.toMatchObject(session);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('a');
    expect(localStorage.getItem(STORAGE_KEYS.isAuthenticated)).toBe('true');
    expect(client.userData()).toMatchObject({ username: 'Ada' });
  });

  it('accepts an invitation: the new account is stored like a login, without sending any credentials', async () => {
    localStorage.clear();
    const session = { accessToken: 'a2', refreshToken: 'r2', userData: { id: 'u2', username: 'Bo', email: 'bo@example.test', role: 'client', clientId: 'c1', teamRole: 'viewer' } };
    const calls: [string, RequestInit | undefined][] = [];
    const client = createHttpClient({ fetch: async (input, init) => (calls.push([String(input), init]), json(200, session)) });
    await client.acceptInvitation({ token: 'fsi_x', username: 'Bo', password: 'a long password' });
    expect(calls[0]![0]).toBe('/team/invitations/accept');
    expect(new Headers(calls[0]![1]?.headers).has('authorization')).toBe(false);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('a2');
    expect(localStorage.getItem(STORAGE_KEYS.isAuthenticated)).toBe('true');
    expect(client.userData()).toMatchObject({ teamRole: 'viewer' });
  });

  it('changes the password and keeps the new pair it answers', async () => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.accessToken, 'old-a');
    localStorage.setItem(STORAGE_KEYS.refreshToken, 'old-r');
    const client = createHttpClient({ fetch: async () => json(200, { accessToken: 'new-a', refreshToken: 'new-r' }) });
    await client.changePassword({ currentPassword: 'old one', newPassword: 'a new password' });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('new-a');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('new-r');
  });
});
