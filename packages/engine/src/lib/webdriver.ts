/**
 * A small client of classic W3C WebDriver (https://www.w3.org/TR/webdriver2/), for WebKitWebDriver (decision 0079):
 * the few commands page checks use, over fetch to a driver on 127.0.0.1. Not a library: WebdriverIO's `webdriver`
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

async function call<T>(url: string, method: 'GET' | 'POST' | 'DELETE', body: unknown, timeoutMs: number, signal?: AbortSignal): Promise<T> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
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

  private constructor(base: string, id: string, capabilities: Record<string, unknown>, signal?: AbortSignal) {
    this.base = base;
    this.id = id;
    this.capabilities = capabilities;
    this.signal = signal;
  }

  static async open(base: string, alwaysMatch: Record<string, unknown>, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WebDriverSession> {
    const value = await call<{ sessionId: string; capabilities: Record<string, unknown> }>(`${base}/session`, 'POST', { capabilities: { alwaysMatch } }, opts.timeoutMs, opts.signal);
    return new WebDriverSession(base, value.sessionId, value.capabilities ?? {}, opts.signal);
  }

  private command<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, timeoutMs = COMMAND_TIMEOUT_MS): Promise<T> {
    return call<T>(`${this.base}/session/${this.id}${path}`, method, method === 'POST' ? (body ?? {}) : undefined, timeoutMs, this.signal);
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

  setWindowRect(rect: WindowRect): Promise<WindowRect> {
    return this.command('POST', '/window/rect', rect);
  }

  addCookie(cookie: { name: string; value: string; path?: string; domain?: string; secure?: boolean; httpOnly?: boolean; expiry?: number; sameSite?: string }): Promise<void> {
    return this.command('POST', '/cookie', { cookie });
  }

  /** Ends the session (the driver closes its browser); errors are swallowed: the caller kills what is left. */
  async close(timeoutMs = 10_000): Promise<void> {
    await this.command('DELETE', '', undefined, timeoutMs).catch(() => undefined);
  }
}
