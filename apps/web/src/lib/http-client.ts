import {
  apiPaths,
  loginResponse,
  paths,
  refreshResponse,
  teamApiPaths,
  type AcceptInvitationRequest,
  type ChangePasswordRequest,
  type LoginRequest,
  type LoginResponse,
  type UserData,
} from '@fullstop/contracts';
import * as storage from './auth-storage.ts';
import { NetworkError, toHttpError } from './http-errors.ts';
import { loginUrl } from './login-redirect.ts';

export { HttpError, NetworkError, describeError } from './http-errors.ts';

/** bearer: the access token; apiKey: x-api-key (the client's key, as CI uses it); none: public calls. */
export type AuthMode = 'bearer' | 'apiKey' | 'none';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  json?: unknown;
  form?: FormData;
  auth?: AuthMode;
  /** The key for an `apiKey` call; the stored apiKey when left out. */
  apiKey?: string | null;
  responseType?: 'json' | 'blob' | 'text' | 'none';
  /** False for calls that must not start a refresh (the logout's clearCache calls). */
  refreshOnUnauthorized?: boolean;
  signal?: AbortSignal;
}

export interface UploadOptions {
  apiKey?: string | null;
  onProgress?: (fraction: number) => void;
}

/** Sends one attempt with the given auth headers; the client decides whether to retry it. */
type Attempt = (headers: Record<string, string>) => Promise<Response>;

export interface HttpClientDeps {
  fetch?: typeof fetch;
  /** Sends the browser to the login page (a full load, so no state survives) when the session ends. */
  redirectToLogin?: (url: string) => void;
  /** Serialises refreshes across tabs, so two tabs never spend one rotating refresh token twice. */
  lock?: <T>(run: () => Promise<T>) => Promise<T>;
  baseUrl?: string;
  /** The page the user is on, to come back to after logging in again when the session ended on its own. */
  currentPath?: () => string;
}

/** A logout never waits longer than this for the server: the local logout goes on regardless. */
const LOGOUT_TIMEOUT_MS = 5_000;
const LOCK_NAME = 'fullstop-token-refresh';

function browserLock<T>(run: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? (locks.request(LOCK_NAME, run) as Promise<T>) : run();
}

/**
 * The one HTTP client of the web app. It alone reads and writes the stored session: it logs in and out, keeps
 * the API key, adds the bearer token or the x-api-key header, and on a 401 renews the tokens once while every
 * other call that failed meanwhile waits for that same renewal and is then retried. When there is nothing to
 * renew with, or renewal fails, it clears caches (its listeners), removes the stored auth data and sends the
 * browser to /login.
 */
export function createHttpClient(deps: HttpClientDeps = {}) {
  const doFetch = deps.fetch ?? ((input, init) => fetch(input, init));
  const redirectToLogin = deps.redirectToLogin ?? ((url) => window.location.assign(url));
  const lock = deps.lock ?? browserLock;
  const baseUrl = deps.baseUrl ?? '';
  const currentPath = deps.currentPath ?? (() => `${window.location.pathname}${window.location.search}`);
  const sessionEndListeners = new Set<() => void>();
  let inflightRefresh: Promise<boolean> | null = null;
  let sessionEnded = false;

  function authHeaders(auth: AuthMode, apiKey: string | null | undefined): Record<string, string> {
    if (auth === 'none') return {};
    if (auth === 'apiKey') {
      const key = apiKey ?? storage.getApiKey();
      if (key) return { 'x-api-key': key };
    }
    const token = storage.getAccessToken();
    return token ? { authorization: `Bearer ${token}` } : {};
  }

  async function renew(usedToken: string | null): Promise<boolean> {
    return lock(async () => {
      // Another call, or another tab, renewed the tokens after this request left: just retry with them.
      const current = storage.getAccessToken();
      if (current && current !== usedToken) return true;
      const refreshToken = storage.getRefreshToken();
      if (!refreshToken) return false;
      try {
        const res = await doFetch(`${baseUrl}${apiPaths.refreshToken}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: refreshToken }),
        });
        if (!res.ok) return false;
        const tokens = refreshResponse.parse(await res.json());
        storage.storeTokens(tokens);
        return true;
      } catch {
        return false;
      }
    });
  }

  /** One renewal for every call that failed with the same token: the rest wait on its promise. */
  function renewOnce(usedToken: string | null): Promise<boolean> {
    const current = storage.getAccessToken();
    if (current && current !== usedToken) return Promise.resolve(true);
    inflightRefresh ??= renew(usedToken).finally(() => {
      inflightRefresh = null;
    });
    return inflightRefresh;
  }

  /**
   * The session is over: caches dropped, storage emptied, back to /login. When it ended on its own (`expired`),
   * the login page says so and brings the user back to the page they were on.
   */
  function closeSession(how: 'expired' | 'logout'): void {
    if (sessionEnded) return;
    sessionEnded = true;
    for (const listener of sessionEndListeners) {
      try {
        listener();
      } catch (error) {
        console.error('A session-end listener failed', error);
      }
    }
    storage.clearAuth();
    redirectToLogin(how === 'expired' ? loginUrl({ next: currentPath(), sessionEnded: true }) : paths.login);
  }

  async function send(attempt: Attempt, auth: AuthMode, apiKey: string | null | undefined, refresh: boolean) {
    const headers = authHeaders(auth, apiKey);
    const usedToken = headers.authorization ? storage.getAccessToken() : null;
    let res = await attempt(headers);
    // A 401 on a bearer call means the access token expired; an API key cannot be renewed, so it is just an error.
    if (res.status === 401 && refresh && headers.authorization) {
      const renewed = await renewOnce(usedToken);
      if (!renewed) {
        closeSession('expired');
        throw await toHttpError(res);
      }
      res = await attempt(authHeaders(auth, apiKey));
    }
    if (!res.ok) throw await toHttpError(res);
    return res;
  }

  async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    const { method = 'GET', json, form, auth = 'bearer', responseType = 'json' } = options;
    const attempt: Attempt = async (headers) => {
      const init: RequestInit = { method, headers: { accept: 'application/json', ...headers }, signal: options.signal };
      if (json !== undefined) {
        init.headers = { ...init.headers, 'content-type': 'application/json' };
        init.body = JSON.stringify(json);
      } else if (form) {
        init.body = form;
      }
      try {
        return await doFetch(`${baseUrl}${path}`, init);
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        throw new NetworkError(error);
      }
    };
    const res = await send(attempt, auth, options.apiKey, options.refreshOnUnauthorized ?? true);
    if (responseType === 'none') return undefined as T;
    if (responseType === 'blob') return (await res.blob()) as T;
    if (responseType === 'text') return (await res.text()) as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A multipart POST through XMLHttpRequest, the one browser API that reports upload progress. */
  async function upload<T = unknown>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
    const attempt: Attempt = (headers) =>
      new Promise<Response>((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', `${baseUrl}${path}`);
        for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
        xhr.setRequestHeader('accept', 'application/json');
        xhr.upload.onprogress = (event) => {
          if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
        };
        xhr.onload = () =>
          resolve(
            new Response(xhr.status === 204 ? null : xhr.responseText, {
              status: xhr.status,
              headers: { 'content-type': xhr.getResponseHeader('content-type') ?? 'text/plain' },
            }),
          );
        xhr.onerror = () => reject(new NetworkError());
        xhr.onabort = () => reject(new NetworkError('aborted'));
        xhr.send(form);
      });
    const auth: AuthMode = options.apiKey ? 'apiKey' : 'bearer';
    const res = await send(attempt, auth, options.apiKey, true);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * Ends the session on the server (logout): its refresh token and the access tokens issued with it stop
   * working. Leaves the stored tokens alone; the caller clears them afterwards, in the spec's order.
   */
  async function endServerSession(): Promise<void> {
    const token = storage.getRefreshToken();
    if (!token) return;
    await request(apiPaths.logout, {
      method: 'POST',
      auth: 'none',
      json: { token },
      responseType: 'none',
      refreshOnUnauthorized: false,
      signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS),
    });
  }

  /** Logs in: stores the tokens and the user's data, and answers them (the caller keeps only the user's data). */
  async function startSession(credentials: LoginRequest): Promise<LoginResponse> {
    const session = loginResponse.parse(await request(apiPaths.login, { method: 'POST', auth: 'none', json: credentials }));
    storage.storeLogin(session);
    sessionEnded = false;
    return session;
  }

  /** Accepts a team invitation: the new account is logged in at once, stored like a login. */
  async function acceptInvitation(request: AcceptInvitationRequest): Promise<LoginResponse> {
    const session = loginResponse.parse(await client.request(teamApiPaths.acceptInvitation, { method: 'POST', auth: 'none', json: request }));
    storage.storeLogin(session);
    sessionEnded = false;
    return session;
  }

  /** Changes the signed-in user's password: every other session ends, this one goes on with the new pair. */
  async function changePassword(request: ChangePasswordRequest): Promise<void> {
    // A wrong current password is a 400, never a 401: no renewal is tried for it.
    const tokens = refreshResponse.parse(await client.request(teamApiPaths.changePassword, { method: 'POST', json: request }));
    storage.storeTokens(tokens);
  }

  /**
   * The spec's logout, in its order: the three server cache clears together (a failure is only logged), then the
   * stored auth removed, the caches reset, and a full page load of /login so no state survives in memory.
   * Between the clears and the removal, ours (the spec shows none): the session is ended on the server too.
   */
  async function endSession(): Promise<void> {
    const results = await Promise.allSettled(
      apiPaths.clearCaches.map((path) => client.request(path, { method: 'POST', responseType: 'none', refreshOnUnauthorized: false })),
    );
    results.forEach((result, i) => {
      if (result.status === 'rejected') console.error(`Logout: ${apiPaths.clearCaches[i]} failed`, result.reason);
    });
    // After the cache clears (they need the access token this ends), before the storage is emptied (it holds the
    // refresh token this sends). A failure is only logged, like the cache clears': the local logout goes on.
    await client.endServerSession().catch((error: unknown) => console.error('Logout: ending the server session failed', error));
    closeSession('logout');
  }

  const client = {
    request,
    upload,
    startSession,
    acceptInvitation,
    changePassword,
    endSession,
    endServerSession,
    /** Keeps the client's API key, the one its CI sends, for the `apiKey` calls. */
    setApiKey(apiKey: string): void {
      storage.storeApiKey(apiKey);
    },
    /** The signed-in user as stored at login, or null. */
    userData(): UserData | null {
      return storage.getUserData();
    },
    /** Called when the session ends for good: clear in-memory caches here. */
    onSessionEnd(listener: () => void) {
      sessionEndListeners.add(listener);
      return () => sessionEndListeners.delete(listener);
    },
  };
  return client;
}

export type HttpClient = ReturnType<typeof createHttpClient>;

/** The app's client. Tests build their own with createHttpClient. */
export const http = createHttpClient();
