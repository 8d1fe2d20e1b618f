/**
 * A small client of classic W3C WebDriver (https://www.w3.org/TR/webdriver2/), for WebKitWebDriver (decision 0079)
 * and a device cloud's hub (decision 0100): the few commands page checks use, over fetch to a driver on 127.0.0.1,
 * or to the hub with its credentials and a fetch pinned to the addresses the policy judged. Not a library: WebdriverIO's `webdriver`
 * depends on `geckodriver` and `edgedriver`, whose install scripts download drivers, and `selenium-webdriver`
 * ships 20 MB of selenium-manager binaries (a driver and browser downloader) and no longer has a WebKitGTK module.
 */

/** What a command answers when the driver says no: the W3C error code ("timeout", "javascript error") and message. */
export class WebDriverError extends Error {
  readonly code: string;
  readonly httpStatus: number;
  constructor(code: string, message: string, httpStatus: number) {
    super(`${code}: ${message}`);
    this.name = 'WebDriverError';
    this.code = code;
    this.httpStatus = httpStatus;
  }
}

/** A command the driver has not answered in this time (a hung browser) fails: the page checks go on without it. */
export const COMMAND_TIMEOUT_MS = 15_000;

/** The few parts of fetch a command uses: a pinned client (a cloud's hub) gives its own. */
export type WebDriverFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal },
) => Promise<{ status: number; ok: boolean; text(): Promise<string> }>;

/** How a session reaches its driver: extra headers on every command (a hub's basic auth) and the fetch to use (pinned). */
export interface WebDriverTransport {
  headers?: Record<string, string>;
  fetch?: WebDriverFetch;
}

async function call<T>(url: string, method: 'GET' | 'POST' | 'DELETE', body: unknown, timeoutMs: number, signal?: AbortSignal, transport: WebDriverTransport = {}): Promise<T> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const response = await (transport.fetch ?? fetch)(url, {
    method,
    headers: { ...(transport.headers ?? {}), ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  const text = await response.text();
  let parsed: { value?: unknown } = {};
  try {
    parsed = JSON.parse(text) as { value?: unknown };
  } catch {
    throw new WebDriverError('unknown error', `the driver answered ${response.status} with no JSON: ${text.slice(0, 200)}`, response.status);
  }
  const value = parsed.value as { error?: unknown; message?: unknown } | null | undefined;
  if (!response.ok || (value && typeof value === 'object' && typeof value.error === 'string')) {
    const code = value && typeof value.error === 'string' ? value.error : 'unknown error';
    const message = value && typeof value.message === 'string' ? value.message : text.slice(0, 200);
    throw new WebDriverError(code, message, response.status);
  }
  return parsed.value as T;
}

/** Waits until the driver at `base` answers `GET /status` ready, or throws after `timeoutMs`. */
export async function waitForDriver(base: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < deadline) {
    if (signal?.aborted) throw signal.reason;
    try {
      const status = await call<{ ready?: boolean }>(`${base}/status`, 'GET', undefined, 2_000, signal);
      if (status?.ready !== false) return;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the WebDriver server did not answer within ${Math.round(timeoutMs / 1000)} s${last ? ` (${String(last)})` : ''}`);
}

export interface WindowRect {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

/** One WebDriver session: one browser, opened by `open`, ended by `close` (which never throws). */
export class WebDriverSession {
  private readonly base: string;
  readonly id: string;
  readonly capabilities: Record<string, unknown>;
  private readonly signal: AbortSignal | undefined;
  private readonly transport: WebDriverTransport;

  private constructor(base: string, id: string, capabilities: Record<string, unknown>, signal: AbortSignal | undefined, transport: WebDriverTransport) {
    this.base = base;
    this.id = id;
    this.capabilities = capabilities;
    this.signal = signal;
    this.transport = transport;
  }

  static async open(base: string, alwaysMatch: Record<string, unknown>, opts: { timeoutMs: number; signal?: AbortSignal; transport?: WebDriverTransport }): Promise<WebDriverSession> {
    const transport = opts.transport ?? {};
    const value = await call<{ sessionId: string; capabilities: Record<string, unknown> }>(`${base}/session`, 'POST', { capabilities: { alwaysMatch } }, opts.timeoutMs, opts.signal, transport);
    if (typeof value?.sessionId !== 'string' || !value.sessionId) throw new WebDriverError('session not created', 'the driver answered no session id', 200);
    return new WebDriverSession(base, value.sessionId, value.capabilities ?? {}, opts.signal, transport);
  }

  private command<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, timeoutMs = COMMAND_TIMEOUT_MS): Promise<T> {
    return call<T>(`${this.base}/session/${this.id}${path}`, method, method === 'POST' ? (body ?? {}) : undefined, timeoutMs, this.signal, this.transport);
  }

  /** Loads `url` and returns once the page has loaded (the session's `pageLoad` timeout bounds it). */
  navigate(url: string): Promise<void> {
    return this.command('POST', '/url', { url });
  }

  currentUrl(): Promise<string> {
    return this.command('GET', '/url');
  }

  /** A script as a function body, with `arguments`; its return value (JSON-like). */
  execute<T>(script: string, args: unknown[] = []): Promise<T> {
    return this.command('POST', '/execute/sync', { script, args });
  }

  /** A script whose last argument is the callback it answers with. */
  executeAsync<T>(script: string, args: unknown[] = []): Promise<T> {
    return this.command('POST', '/execute/async', { script, args });
  }

  /** The viewport as a PNG. */
  async screenshot(): Promise<Buffer> {
    return Buffer.from(await this.command<string>('GET', '/screenshot'), 'base64');
  }

  /** The session's timeouts (W3C `timeouts`): a page's load, a script's run. */
  setTimeouts(t: { pageLoad: number; script: number; implicit?: number }): Promise<void> {
    return this.command('POST', '/timeouts', { implicit: 0, ...t });
  }

  setWindowRect(rect: WindowRect): Promise<WindowRect> {
    return this.command('POST', '/window/rect', rect);
  }

  addCookie(cookie: { name: string; value: string; path?: string; domain?: string; secure?: boolean; httpOnly?: boolean; expiry?: number; sameSite?: string }): Promise<void> {
    return this.command('POST', '/cookie', { cookie });
  }

  /**
   * Ends the session (the driver closes its browser); errors are swallowed: the caller kills what is left. Not bound
   * to the run's signal: an aborted run still ends its sessions (a cloud's bills until it is ended).
   */
  async close(timeoutMs = 10_000): Promise<boolean> {
    return call(`${this.base}/session/${this.id}`, 'DELETE', undefined, timeoutMs, undefined, this.transport).then(
      () => true,
      () => false,
    );
  }
}
