import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type AppiumServer, FAKE_APP } from '../../../../packages/engine/test/fixtures/appium-server.ts';
import type { CloudBrowserAsk, LocalBrowsers } from './fake-cloud-browsers.ts';
import { fakePlaywrightEndpoint } from './fake-playwright-cloud.ts';

export type Kind = 'browserstack' | 'saucelabs';

interface Upload {
  field: string;
  name: string | null;
  sha256: string;
  appId: string;
}

/** BrowserStack Automate's `GET /automate/browsers.json`, as documented: a desktop browser or a real device per entry. */
export const BROWSERSTACK_BROWSERS = [
  { os: 'Windows', os_version: '11', browser: 'edge', device: null, browser_version: '156.0', real_mobile: null },
  { os: 'Windows', os_version: '11', browser: 'chrome', device: null, browser_version: '156.0', real_mobile: null },
  { os: 'Windows', os_version: '10', browser: 'chrome', device: null, browser_version: '156.0', real_mobile: null },
  { os: 'OS X', os_version: 'Sonoma', browser: 'safari', device: null, browser_version: '17.4', real_mobile: null },
  { os: 'ios', os_version: '18', browser: 'iphone', device: 'iPhone 15', browser_version: null, real_mobile: true },
  { os: 'ios', os_version: '17', browser: 'iphone', device: 'iPhone 15 Pro', browser_version: null, real_mobile: true },
  { os: 'ios', os_version: '17', browser: 'ipad', device: 'iPad Air 5', browser_version: null, real_mobile: true },
  { os: 'android', os_version: '14.0', browser: 'android', device: 'Google Pixel 8', browser_version: null, real_mobile: true },
  { os: 'android', os_version: '14.0', browser: 'android', device: 'Samsung Galaxy S24', browser_version: null, real_mobile: true },
];
/** Sauce Labs' `GET /rest/v1/info/platforms/webdriver` (desktop browsers) and `GET /v1/rdc/devices` (real devices). */
export const SAUCE_PLATFORMS = [
  { short_version: '156', long_name: 'Microsoft Edge', api_name: 'MicrosoftEdge', long_version: '156.0.', automation_backend: 'webdriver', os: 'Windows 11' },
  { short_version: '156', long_name: 'Google Chrome', api_name: 'chrome', long_version: '156.0.', automation_backend: 'webdriver', os: 'Windows 11' },
  { short_version: '17', long_name: 'Safari', api_name: 'safari', long_version: '17.4.', automation_backend: 'webdriver', os: 'Mac 14' },
];
export const SAUCE_DEVICES = [
  { id: 'Google_Pixel_8_real', name: 'Google Pixel 8', os: 'ANDROID', osVersion: '14', isPrivate: false },
  { id: 'iPhone_15_real', name: 'iPhone 15', os: 'IOS', osVersion: '18.0', isPrivate: false },
];

/** What a browser session asks of the provider, read from its own capabilities. */
function askOf(kind: Kind, caps: Record<string, unknown>): CloudBrowserAsk {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const browser = String(caps.browserName ?? '');
  if (kind === 'browserstack') {
    const o = (caps['bstack:options'] ?? {}) as Record<string, unknown>;
    const device = str(o.deviceName);
    if (device) return { browser, device, platform: browser.toLowerCase() === 'safari' || /^(iphone|ipad)/i.test(device) ? 'iOS' : 'Android', osVersion: str(o.osVersion) };
    const mac = str(o.os) === 'OS X';
    return { browser, device: `${mac ? 'macOS' : 'Windows'} ${str(o.osVersion) ?? ''}`.trim(), platform: mac ? 'macOS' : 'Windows', osVersion: str(o.osVersion) };
  }
  const platform = str(caps.platformName) ?? '';
  if (/^(ios|android)$/i.test(platform)) return { browser, device: str(caps['appium:deviceName']) ?? 'phone', platform: /^ios$/i.test(platform) ? 'iOS' : 'Android', osVersion: str(caps['appium:platformVersion']) };
  return { browser, device: platform, platform: /^mac/i.test(platform) ? 'macOS' : 'Windows', osVersion: null };
}

/**
 * A cloud provider as its documentation says it answers, on loopback. BrowserStack App Automate: `POST
 * /app-automate/upload`, multipart `file`, basic auth, `{ app_url: "bs://…" }`; Sauce Labs: `POST /v1/storage/upload`,
 * multipart `payload` and `name`, `{ item: { id } }`. A wrong key gets the provider's 401. Its hub (`/wd/hub`) checks
 * the same credentials when a session opens. A session with an app goes to a real Appium with the fake driver, the
 * stored app id resolved to the fake driver's app, as the provider resolves it to its stored file; a browser session
 * (a browser test's cloud cell, decision 0100) goes to a local WebDriver (`browsers`: chromedriver's Chromium for
 * Chrome and Edge, WebKitWebDriver's MiniBrowser for Safari) with the device's user agent and viewport, every W3C
 * command proxied. Its lists of browsers and devices (BrowserStack Automate's `browsers.json`, Sauce Labs' platforms
 * and real devices) and its session pages answer as documented.
 */
export async function startCloud(kind: Kind, account: { username: string; accessKey: string }, backends: { appium?: AppiumServer; browsers?: LocalBrowsers }) {
  const uploads: Upload[] = [];
  const sessionApps: unknown[] = [];
  const refused: string[] = [];
  const stored = new Set<string>();
  /** Sessions that went through the hub (by the ids in their command URLs), and the details calls by session id. */
  const sessions = new Set<string>();
  const detailsAsked: string[] = [];
  /** The browser sessions created through the hub, their capabilities as the runner sent them, and the lists' calls. */
  const browserSessions: { id: string; capabilities: Record<string, unknown>; authorization: string | undefined; created: number; ended: number | null }[] = [];
  /** BrowserStack's Playwright endpoint (a browser test's spec files on a cloud cell, decision 0106). */
  const playwright = fakePlaywrightEndpoint(account);
  /** A session's time as the provider bills it: whole seconds from its start to its end (or now). */
  const seconds = (s: { started: number; ended: number | null }) => Math.ceil(((s.ended ?? Date.now()) - s.started) / 1000);
  const buildId = (name: string) => createHash('sha1').update(name).digest('hex');
  const listsAsked: string[] = [];
  /** What the session details answer: as documented, or (a provider with nothing useful) a 404. */
  const details = { answer: 'documented' as 'documented' | 'not-found' };
  const authorized = (req: http.IncomingMessage) => req.headers.authorization === `Basic ${Buffer.from(`${account.username}:${account.accessKey}`).toString('base64')}`;
  /** The user name and key a request was sent with, as the provider reads them. */
  const sentCredentials = (req: http.IncomingMessage) => {
    const raw = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    const at = raw.indexOf(':');
    return at < 0 ? { user: raw, key: '' } : { user: raw.slice(0, at), key: raw.slice(at + 1) };
  };
  const readBody = async (req: http.IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  /** The provider's refusal of a REST call with a wrong key: BrowserStack's is text/html, Sauce Labs' JSON. */
  const restRefusal = (res: http.ServerResponse) => {
    if (kind === 'browserstack') {
      res.writeHead(401, { 'content-type': 'text/html; charset=utf-8', 'www-authenticate': 'Basic realm="Application"' });
      return res.end('HTTP Basic: Access denied.\n');
    }
    return json(res, 401, { detail: 'Authentication credentials were not provided.' });
  };
  const uploadPath = kind === 'browserstack' ? '/app-automate/upload' : '/v1/storage/upload';
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      if (req.method === 'POST' && url === uploadPath) {
        const body = await readBody(req);
        if (!authorized(req)) {
          refused.push(url);
          return kind === 'browserstack' ? json(res, 401, { error: 'Unauthorized' }) : json(res, 401, { detail: 'Authentication credentials were not provided.' });
        }
        const form = await new Response(body, { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
        const field = kind === 'browserstack' ? 'file' : 'payload';
        const file = form.get(field);
        if (!(file instanceof File)) return json(res, 400, { error: `no ${field}` });
        const sha256 = createHash('sha256').update(Buffer.from(await file.arrayBuffer())).digest('hex');
        const id = kind === 'browserstack' ? `bs://${sha256.slice(0, 40)}` : randomUUID();
        const appId = kind === 'browserstack' ? id : `storage:${id}`;
        stored.add(appId);
        const name = form.get('name');
        uploads.push({ field, name: typeof name === 'string' ? name : null, sha256, appId });
        return kind === 'browserstack' ? json(res, 200, { app_url: id }) : json(res, 201, { item: { id, name, kind: 'android' } });
      }
      // The lists of browsers and devices (a browser test's cloud cells are checked against them).
      const list =
        req.method !== 'GET'
          ? null
          : kind === 'browserstack'
            ? url === '/automate/browsers.json'
              ? BROWSERSTACK_BROWSERS
              : null
            : url === '/rest/v1/info/platforms/webdriver'
              ? SAUCE_PLATFORMS
              : url === '/v1/rdc/devices'
                ? SAUCE_DEVICES
                : null;
      if (list) {
        listsAsked.push(url);
        if (!authorized(req)) {
          refused.push(url);
          return restRefusal(res);
        }
        return json(res, 200, list);
      }
      // BrowserStack Automate's builds and their sessions (a Playwright session is found by its build's name):
      // GET /automate/builds.json → [{ automation_build }], GET /automate/builds/<id>/sessions.json → [{ automation_session }].
      const bsBuilds = kind === 'browserstack' && req.method === 'GET' ? /^\/automate\/builds(?:\/([0-9a-f]+)\/sessions)?\.json(?:\?.*)?$/.exec(url) : null;
      if (bsBuilds) {
        if (!authorized(req)) return restRefusal(res);
        detailsAsked.push(url);
        const names = [...new Set(playwright.sessions.map((x) => String(x.caps.build)))];
        if (!bsBuilds[1]) return json(res, 200, names.reverse().map((name) => ({ automation_build: { name, hashed_id: buildId(name), duration: 0, status: 'done', build_tag: null } })));
        const name = names.find((n) => buildId(n) === bsBuilds[1]);
        if (!name) return json(res, 404, { message: 'Build not found' });
        return json(
          res,
          200,
          playwright.sessions.filter((x) => x.caps.build === name).map((x) => ({ automation_session: { name: x.caps.name, duration: seconds(x), os: x.caps.os, os_version: x.caps.os_version, browser: x.caps.browser, status: x.ended ? 'done' : 'running', hashed_id: x.id, build_name: name, reason: 'CLIENT_STOPPED_SESSION' } })),
        );
      }
      // BrowserStack: GET /app-automate/sessions/<id>.json (an app's session) or /automate/sessions/<id>.json (a
      // browser's) answers `automation_session` with the session's pages.
      const bsSession = kind === 'browserstack' && req.method === 'GET' ? /^\/(app-automate|automate)\/sessions\/([^/]+)\.json$/.exec(url) : null;
      // Sauce Labs: GET /rest/v1/<username>/jobs/<id> answers the job with `video_url` and `log_url`.
      const sauceJob = kind === 'saucelabs' && req.method === 'GET' ? /^\/rest\/v1\/([^/]+)\/jobs\/([^/]+)$/.exec(url) : null;
      if (bsSession || sauceJob) {
        if (!authorized(req)) return restRefusal(res);
        const id = decodeURIComponent((bsSession?.[2] ?? sauceJob?.[2])!);
        detailsAsked.push(id);
        const browserSession = browserSessions.find((s) => s.id === id);
        const playwrightSession = playwright.sessions.find((x) => x.id === id);
        if (playwrightSession && bsSession?.[1] === 'automate') sessions.add(id);
        const product = bsSession?.[1];
        if (
          details.answer === 'not-found' ||
          !sessions.has(id) ||
          (sauceJob && decodeURIComponent(sauceJob[1]!) !== account.username) ||
          (product === 'automate' && !browserSession && !playwrightSession) ||
          (product === 'app-automate' && browserSession)
        ) {
          return kind === 'browserstack' ? json(res, 404, { message: 'Session not found' }) : json(res, 404, { detail: 'Not found.' });
        }
        if (product === 'automate') {
          const build = 'b7e2c9a1f04d3e6a8b5c2d1e0f9a8b7c6d5e4f3a';
          return json(res, 200, {
            automation_session: {
              name: 'Fullstop QA',
              duration: browserSession ? seconds({ started: browserSession.created, ended: browserSession.ended }) : playwrightSession ? seconds(playwrightSession) : 9,
              os: 'ios',
              os_version: '18',
              browser: 'safari',
              status: 'done',
              hashed_id: id,
              reason: 'CLIENT_STOPPED_SESSION',
              browser_url: `https://automate.browserstack.com/builds/${build}/sessions/${id}`,
              public_url: `https://automate.browserstack.com/dashboard/v2/public-build/y?redirect=true&session=${id}`,
              video_url: `https://automate.browserstack.com/sessions/${id}/video?token=def&source=rest_api`,
              selenium_logs_url: `https://automate.browserstack.com/builds/${build}/sessions/${id}/seleniumlogs`,
              browser_console_logs_url: `https://automate.browserstack.com/builds/${build}/sessions/${id}/consolelogs`,
              har_logs_url: `https://automate.browserstack.com/builds/${build}/sessions/${id}/networklogs`,
            },
          });
        }
        if (bsSession) {
          const build = 'g0726012b6rb0a4c79122d6048c7b8767677ad61';
          return json(res, 200, {
            automation_session: {
              name: 'app signs in',
              duration: 12,
              os: 'android',
              os_version: '14.0',
              device: 'Google Pixel 8',
              status: 'done',
              hashed_id: id,
              reason: 'CLIENT_STOPPED_SESSION',
              logs: `https://app-automate.browserstack.com/builds/${build}/sessions/${id}/logs`,
              browser_url: `https://app-automate.browserstack.com/builds/${build}/sessions/${id}`,
              public_url: `https://app-automate.browserstack.com/dashboard/v2/public-build/x?redirect=true&session=${id}`,
              appium_logs_url: `https://api.browserstack.com/app-automate/builds/${build}/sessions/${id}/appiumlogs`,
              video_url: `https://app-automate.browserstack.com/sessions/${id}/video?token=abc&source=rest_api`,
              device_logs_url: `https://app-automate.browserstack.com/builds/${build}/sessions/${id}/devicelogs`,
            },
          });
        }
        return json(res, 200, {
          id,
          owner: account.username,
          status: 'complete',
          passed: null,
          video_url: `https://assets.saucelabs.com/jobs/${id}/video.mp4`,
          log_url: `https://assets.saucelabs.com/jobs/${id}/selenium-server.log`,
          // Sauce Labs' times are whole seconds since the epoch; a job still running has no end.
          start_time: browserSession ? Math.floor(browserSession.created / 1000) : null,
          end_time: browserSession?.ended ? Math.ceil(browserSession.ended / 1000) : null,
        });
      }
      if (url.startsWith('/wd/hub/')) {
        const sessionInUrl = /^\/wd\/hub\/session\/([^/]+)/.exec(url)?.[1];
        if (sessionInUrl) sessions.add(sessionInUrl);
        const creating = req.method === 'POST' && url === '/wd/hub/session';
        // The credentials open a session; its commands then go by the session's id (as WebdriverIO sends them).
        if (creating && !authorized(req)) {
          refused.push(url);
          if (kind === 'saucelabs') {
            // Sauce Labs says which user name and key it was given: a client must not repeat it anywhere.
            const sent = sentCredentials(req);
            return json(res, 401, {
              value: {
                error: 'invalid argument',
                message: `Misconfigured -- Sauce Labs Authentication Error.\nYou used username '${sent.user}' and access key '${sent.key}' to authenticate, which are not valid Sauce Labs credentials.`,
              },
            });
          }
          return json(res, 401, { value: { error: 'invalid argument', message: 'Authorization required' } });
        }
        let body = await readBody(req);
        if (creating) {
          const payload = JSON.parse(body.toString()) as { capabilities: { alwaysMatch?: Record<string, unknown>; firstMatch?: Record<string, unknown>[] } };
          const all = [payload.capabilities.alwaysMatch ?? {}, ...(payload.capabilities.firstMatch ?? [])];
          const appCaps = all.find((c) => 'appium:app' in c);
          if (!appCaps) {
            // A browser on one of the provider's devices or desktops: a local browser with that device's face.
            if (!backends.browsers) return json(res, 500, { value: { error: 'session not created', message: 'this fake has no browsers' } });
            const caps = payload.capabilities.alwaysMatch ?? {};
            const made = await backends.browsers.create(askOf(kind, caps));
            if (made.sessionId) {
              browserSessions.push({ id: made.sessionId, capabilities: caps, authorization: req.headers.authorization, created: Date.now(), ended: null });
              sessions.add(made.sessionId);
            }
            res.writeHead(made.status, { 'content-type': 'application/json' });
            return res.end(made.body);
          }
          const app = appCaps['appium:app'];
          sessionApps.push(app);
          if (typeof app !== 'string' || !stored.has(app)) return json(res, 400, { value: { error: 'invalid argument', message: `no app ${String(app)} in storage` } });
          appCaps['appium:app'] = FAKE_APP;
          body = Buffer.from(JSON.stringify(payload));
        }
        if (sessionInUrl && backends.browsers?.asked.has(sessionInUrl)) {
          const rest = url.slice(`/wd/hub/session/${sessionInUrl}`.length);
          const answer = await backends.browsers.forward(req.method ?? 'GET', sessionInUrl, rest, body);
          const ending = req.method === 'DELETE' && rest === '' ? browserSessions.find((x) => x.id === sessionInUrl) : undefined;
          if (ending) ending.ended ??= Date.now();
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          return res.end(answer.body);
        }
        if (!backends.appium) return json(res, 404, { value: { error: 'invalid session id', message: 'No such session' } });
        const upstream = http.request(new URL(url.slice('/wd/hub/'.length), backends.appium.url), { method: req.method, headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (up) => {
          res.writeHead(up.statusCode ?? 502, { 'content-type': 'application/json' });
          up.pipe(res);
        });
        upstream.on('error', () => json(res, 502, { value: { error: 'unknown error', message: 'upstream' } }));
        upstream.end(body);
        return;
      }
      json(res, 404, { error: 'not found' });
    })().catch(() => json(res, 500, { error: 'fake provider failed' }));
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
    if (kind !== 'browserstack' || !playwright.upgrade(req, socket, head)) socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/wd/hub`,
    apiUrl: base,
    uploads,
    sessionApps,
    refused,
    sessions,
    detailsAsked,
    details,
    browserSessions,
    listsAsked,
    /** BrowserStack's Playwright sessions (spec files on a cloud cell) and its refusals of a wrong key there. */
    playwrightSessions: playwright.sessions,
    playwrightRefused: playwright.refused,
    close: async () => {
      await playwright.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
