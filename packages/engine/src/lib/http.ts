import { Agent, fetch, type Response } from 'undici';
import type { TargetGuard } from '../policy/target-guard.ts';
import { loginOf, withLoginHeaders } from './login-session.ts';

/** Redirects a guarded request follows; each hop is checked against the target policy. */
export const MAX_REDIRECTS = 5;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/** Bodies larger than this are cut: checks only look at headers and the start of a page. */
const MAX_BODY_CHARS = 2_000_000;

export interface GuardedResponse {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  headers: Headers;
  setCookies: string[];
  body: string;
  durationMs: number;
  redirects: string[];
}

export interface GuardedRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  followRedirects?: boolean;
  timeoutMs?: number;
  signal: AbortSignal;
  /** Sent without the run's login (a check that anonymous visitors are refused). */
  anonymous?: boolean;
}

/** Idle keep-alive connections of a run's dispatcher close after this. */
const KEEP_ALIVE_MS = 4_000;

/** One undici Agent per guard (per run): its connections resolve names only through the guard's pinned lookup. */
const dispatchers = new WeakMap<TargetGuard, Agent>();

function dispatcherOf(guard: TargetGuard): Agent {
  let agent = dispatchers.get(guard);
  if (!agent) {
    // Certificates are still checked against the URL's host name (undici sets SNI from it); only the address is pinned.
    agent = new Agent({ connect: { lookup: guard.lookup }, keepAliveTimeout: KEEP_ALIVE_MS, keepAliveMaxTimeout: KEEP_ALIVE_MS });
    dispatchers.set(guard, agent);
  }
  return agent;
}

/** The body as text, at most `MAX_BODY_CHARS`: a hostile site's endless body is cut, not buffered. */
async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const decoder = new TextDecoder();
  let text = '';
  // Leaving the loop early cancels the stream (and so the connection's download).
  for await (const chunk of response.body) {
    text += decoder.decode(chunk as Uint8Array, { stream: true });
    if (text.length >= MAX_BODY_CHARS) return text.slice(0, MAX_BODY_CHARS);
  }
  return text + decoder.decode();
}

/**
 * fetch with the target policy on every hop: redirects are followed by hand so a redirect to another origin or a
 * private address is refused like any other URL. Connections go only to the addresses the guard approved.
 */
export async function guardedRequest(guard: TargetGuard, url: string, init: GuardedRequestInit): Promise<GuardedResponse> {
  const signal = AbortSignal.any([init.signal, AbortSignal.timeout(init.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS)]);
  const redirects: string[] = [];
  let current = (await guard.check(url)).href;
  let method = init.method ?? 'GET';
  let body = init.body;
  const started = performance.now();
  for (;;) {
    const headers = init.anonymous ? init.headers : withLoginHeaders(loginOf(guard), current, init.headers);
    const response = await fetch(current, { method, headers, body, redirect: 'manual', signal, dispatcher: dispatcherOf(guard) });
    const location = response.headers.get('location');
    const isRedirect = response.status >= 300 && response.status < 400 && location;
    if (!isRedirect || init.followRedirects === false || redirects.length >= MAX_REDIRECTS) {
      const text = await readCapped(response);
      return {
        url: current,
        status: response.status,
        headers: new Headers([...response.headers]),
        setCookies: response.headers.getSetCookie(),
        body: text,
        durationMs: performance.now() - started,
        redirects,
      };
    }
    await response.body?.cancel().catch(() => undefined);
    redirects.push(current);
    current = (await guard.check(new URL(location, current).href)).href;
    if (response.status !== 307 && response.status !== 308) {
      method = 'GET';
      body = undefined;
    }
  }
}
