import { browserCloudApiUrl } from '@fullstop/contracts';
import type { KindSummaries } from '@fullstop/engine';
import { OutboundUnreachableError, outboundRequest } from '../../../lib/outbound-http.ts';
import type { CloudAccount } from './storage.ts';

// A cloud session's video and log pages, for the report's header per device (issue 28, decision 0084), from the
// provider's REST API by the Appium session's id:
// - BrowserStack App Automate: `GET /app-automate/sessions/<id>.json` (basic auth) answers `automation_session`
//   with `public_url`/`browser_url` (the session's page), `video_url`, `appium_logs_url`, `device_logs_url`.
// - Sauce Labs: the job's page `https://app[.<region>].saucelabs.com/tests/<id>`, and `GET /rest/v1/<user>/jobs/<id>`
//   answers `video_url` and `log_url`.
// A provider that answers nothing useful gives a one-line note instead; nothing here fails the attempt.
// A browser test's cloud cell (decision 0100) is a session of the same providers' browser products: BrowserStack
// Automate's `GET /automate/sessions/<id>.json` (its API is api.browserstack.com: browserCloudApiUrl) with its
// WebDriver, console and network logs; Sauce Labs' job as above, its log a WebDriver one.

/** A provider's page of a device's session, as the mobile UI report shows it. */
export type ProviderLink = NonNullable<KindSummaries['mobile-ui']['devices'][number]['providerLinks']>[number];

const USER_AGENT = 'FullstopQA-MobileDevices';
/** Each call's deadline: the report waits for the links, not for a provider that does not answer. */
export const SESSION_LINKS_DEADLINE_MS = 10_000;

export interface SessionLinks {
  links: ProviderLink[];
  /** Why there are no links (or only some), in one line; absent when the provider gave what it documents. */
  note?: string;
  /**
   * The session's time as the provider bills it, in minutes, when its answer said (BrowserStack's `duration`, Sauce
   * Labs' `end_time - start_time`, Device Farm's `billingMinutes`).
   */
  billedMinutes?: number;
}

/** Seconds a provider counted, as minutes to a tenth, rounded up (as our own count: cloud-session.ts' deviceMinutes). */
export const billedMinutesOf = (seconds: number) => Math.ceil(seconds / 6) / 10;
const secondsIn = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/** Sauce Labs' web app for a REST API host: `api.us-west-1…` → app.saucelabs.com, `api.<region>…` → app.<region>.saucelabs.com. */
export function sauceAppOrigin(apiUrl: string): string {
  const region = /^api\.([a-z0-9-]+)\.saucelabs\.com$/.exec(new URL(apiUrl).hostname)?.[1];
  return region && region !== 'us-west-1' ? `https://app.${region}.saucelabs.com` : 'https://app.saucelabs.com';
}

/**
 * Only an http(s) link that carries no credentials leaves: a provider's answer is not trusted to keep the access
 * key out of its URLs (userinfo, a query parameter).
 */
function safe(url: unknown, accessKey: string): string | null {
  if (typeof url !== 'string' || !url) return null;
  try {
    const u = new URL(url);
    if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password) return null;
    if (accessKey && (url.includes(accessKey) || decodeURIComponent(url).includes(accessKey))) return null;
    return u.href;
  } catch {
    return null;
  }
}

function collect(pairs: [string, unknown][], accessKey: string): ProviderLink[] {
  const links: ProviderLink[] = [];
  for (const [label, url] of pairs) {
    const ok = safe(url, accessKey);
    if (ok && !links.some((l) => l.url === ok)) links.push({ label, url: ok });
  }
  return links;
}

const basicAuth = (account: CloudAccount) => ({ authorization: `Basic ${Buffer.from(`${account.username}:${account.accessKey}`).toString('base64')}` });

async function getJson(url: string, account: CloudAccount, allowPrivate: boolean): Promise<{ status: number; json: Record<string, unknown> | null } | { unreachable: string }> {
  try {
    const res = await outboundRequest(url, {
      method: 'GET',
      allowPrivate,
      userAgent: USER_AGENT,
      deadlineMs: SESSION_LINKS_DEADLINE_MS,
      headers: basicAuth(account),
    });
    const json = res.json<unknown>();
    return { status: res.status, json: json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null };
  } catch (err) {
    if (err instanceof OutboundUnreachableError) return { unreachable: err.message };
    throw err;
  }
}

/** What the call said when it gave nothing: "answered 404", "could not be reached: …". */
const why = (r: { status: number } | { unreachable: string }) => ('unreachable' in r ? `could not be reached (${r.unreachable})` : `answered ${r.status}`);

/**
 * The session's pages on a cloud; never throws for what the provider answered or failed to. `product`: an app's
 * session (mobile UI tests) or a browser's (a browser test's cloud cell).
 */
export async function cloudSessionLinks(account: CloudAccount, sessionId: string, allowPrivate: boolean, product: 'app' | 'browser' = 'app'): Promise<SessionLinks> {
  const base = (product === 'browser' ? browserCloudApiUrl(account.kind, account.apiUrl) : account.apiUrl).replace(/\/+$/, '');
  const id = encodeURIComponent(sessionId);
  const log = product === 'browser' ? 'WebDriver log' : 'Appium log';
  if (account.kind === 'browserstack') {
    const r = await getJson(`${base}/${product === 'browser' ? 'automate' : 'app-automate'}/sessions/${id}.json`, account, allowPrivate);
    const s = 'status' in r && r.status === 200 ? (r.json?.automation_session as Record<string, unknown> | undefined) : undefined;
    if (!s || typeof s !== 'object') {
      return { links: [], note: `BrowserStack ${'status' in r && r.status === 200 ? 'answered without the session' : why(r)} when asked for the session's details: no video or log links` };
    }
    const links = collect(
      product === 'browser'
        ? [
            ['Session on BrowserStack', s.public_url ?? s.browser_url],
            ['Video', s.video_url],
            [log, s.selenium_logs_url],
            ['Console log', s.browser_console_logs_url],
            ['Network log (HAR)', s.har_logs_url],
          ]
        : [
            ['Session on BrowserStack', s.public_url ?? s.browser_url],
            ['Video', s.video_url],
            [log, s.appium_logs_url],
            ['Device log', s.device_logs_url],
          ],
      account.accessKey,
    );
    const duration = secondsIn(s.duration);
    const billed = duration === null ? {} : { billedMinutes: billedMinutesOf(duration) };
    return links.length ? { links, ...billed } : { links, ...billed, note: 'BrowserStack gave no video or log links for this session' };
  }
  // Sauce Labs: the job's page is known from its id alone; the REST API adds the video and the log.
  const page: ProviderLink = { label: 'Session on Sauce Labs', url: `${sauceAppOrigin(account.apiUrl)}/tests/${id}` };
  const r = await getJson(`${base}/rest/v1/${encodeURIComponent(account.username)}/jobs/${id}`, account, allowPrivate);
  if (!('status' in r) || r.status !== 200 || !r.json) return { links: [page], note: `Sauce Labs ${'status' in r && r.status === 200 ? 'answered without the job' : why(r)} when asked for the job's video and log: its page only` };
  const more = collect(
    [
      ['Video', r.json.video_url],
      [log, r.json.log_url],
    ],
    account.accessKey,
  );
  const [start, end] = [secondsIn(r.json.start_time), secondsIn(r.json.end_time)];
  const billed = start !== null && end !== null && end >= start ? { billedMinutes: billedMinutesOf(end - start) } : {};
  return more.length ? { links: [page, ...more], ...billed } : { links: [page], ...billed, note: 'Sauce Labs gave no video or log links for this job' };
}

/**
 * The Playwright sessions a cloud cell's spec files opened on BrowserStack (decision 0106), found by the build the
 * runner named them in: `GET /automate/builds.json` (the latest builds), then `GET /automate/builds/<id>/sessions.json`.
 * Their ids and the seconds BrowserStack counted, or null when it did not answer (in SESSION_LINKS_DEADLINE_MS each).
 */
export async function browserStackBuildSessions(account: CloudAccount, build: string, allowPrivate: boolean): Promise<{ ids: string[]; seconds: number } | null> {
  const base = browserCloudApiUrl(account.kind, account.apiUrl).replace(/\/+$/, '');
  const builds = await getList(`${base}/automate/builds.json?limit=50`, account, allowPrivate);
  const found = builds?.map((b) => b.automation_build as Record<string, unknown> | undefined).find((b) => b?.name === build);
  if (typeof found?.hashed_id !== 'string') return null;
  const listed = await getList(`${base}/automate/builds/${encodeURIComponent(found.hashed_id)}/sessions.json?limit=100`, account, allowPrivate);
  if (!listed) return null;
  const sessions = listed.map((x) => x.automation_session as Record<string, unknown> | undefined).filter((x): x is Record<string, unknown> => typeof x?.hashed_id === 'string');
  if (sessions.some((x) => secondsIn(x.duration) === null)) return null;
  return { ids: sessions.map((x) => x.hashed_id as string), seconds: sessions.reduce((sum, x) => sum + secondsIn(x.duration)!, 0) };
}

/** A REST answer that is a JSON array of objects, or null (any other answer, or none in time). */
async function getList(url: string, account: CloudAccount, allowPrivate: boolean): Promise<Record<string, unknown>[] | null> {
  try {
    const res = await outboundRequest(url, { method: 'GET', allowPrivate, userAgent: USER_AGENT, deadlineMs: SESSION_LINKS_DEADLINE_MS, headers: basicAuth(account) });
    const list = res.status === 200 ? res.json<unknown>() : null;
    return Array.isArray(list) ? list.filter((x): x is Record<string, unknown> => Boolean(x) && typeof x === 'object') : null;
  } catch (err) {
    if (err instanceof OutboundUnreachableError) return null;
    throw err;
  }
}
