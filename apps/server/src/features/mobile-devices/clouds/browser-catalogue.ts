import { browserCloudApiUrl, CLOUD_BROWSERS, type CloudBrowser, type CloudDevice, cloudBrowserTitle, isDesktopCloud } from '@fullstop/contracts';
import { OutboundUnreachableError, outboundRequest } from '../../../lib/outbound-http.ts';
import { type CloudAccount, CloudStorageError } from './storage.ts';

// What a client's device cloud offers a browser test's cloud cells (decision 0100), asked from the provider's own
// list and kept 10 minutes per account:
// - BrowserStack Automate: `GET <api>/automate/browsers.json` (basic auth): `{ os, os_version, browser, device,
//   real_mobile }` per desktop browser or real device (`browser` is `iphone`, `ipad` or `android` for a device);
// - Sauce Labs: `GET <api>/rest/v1/info/platforms/webdriver` (`{ os, api_name, short_version }` per desktop browser)
//   and `GET <api>/v1/rdc/devices` (`{ name, os: IOS | ANDROID, osVersion }` per real device);
// - AWS Device Farm's desktop browser testing has no list: its documented browsers (chrome, firefox, MicrosoftEdge),
//   on Windows, whose version it does not let one choose.

const USER_AGENT = 'FullstopQA-MobileDevices';
/** How long a provider's list is kept per account: devices come and go, not by the minute. */
export const CATALOGUE_TTL_MS = 10 * 60_000;
const LIST_DEADLINE_MS = 20_000;

/** One device or desktop of the provider, its OS and the browsers a cloud cell may name on it. */
export interface CloudOffer {
  device: string;
  os: string | null;
  browsers: CloudBrowser[];
}

export type BrowserCloudKind = 'browserstack' | 'saucelabs' | 'devicefarm';
export const CLOUD_TITLES: Readonly<Record<BrowserCloudKind, string>> = { browserstack: 'BrowserStack', saucelabs: 'Sauce Labs', devicefarm: 'AWS Device Farm' };

/** Device Farm's desktop browser testing: its documented browsers, on Windows (docs.aws.amazon.com/devicefarm/latest/testgrid/techref-support.html). */
export const DEVICE_FARM_OFFERS: readonly CloudOffer[] = [{ device: 'Windows', os: null, browsers: ['chrome', 'firefox', 'edge'] }];

const MACOS_NAMES: Readonly<Record<string, string>> = { '11': 'Big Sur', '12': 'Monterey', '13': 'Ventura', '14': 'Sonoma', '15': 'Sequoia', '26': 'Tahoe' };
const browserOf = (name: unknown): CloudBrowser | null => {
  const n = String(name ?? '').toLowerCase();
  if (n === 'microsoftedge') return 'edge';
  return (CLOUD_BROWSERS as readonly string[]).includes(n) ? (n as CloudBrowser) : null;
};
/** "Mac 14", "macOS 14", "OS X Sonoma" → "macOS Sonoma"; "Windows 11" as it is. */
function desktopName(os: string, version?: string): string {
  const text = `${os} ${version ?? ''}`.trim().replace(/\s+/g, ' ');
  const mac = /^(?:mac|macos|os x)\s*(.*)$/i.exec(text);
  if (!mac) return text;
  const v = (mac[1] ?? '').trim();
  return `macOS ${MACOS_NAMES[v.split('.')[0] ?? ''] ?? v}`.trim();
}

/** Offers with the same device and OS as one, their browsers together. */
function merged(list: CloudOffer[]): CloudOffer[] {
  const byKey = new Map<string, CloudOffer>();
  for (const o of list) {
    const key = `${o.device.toLowerCase()}|${(o.os ?? '').toLowerCase()}`;
    const seen = byKey.get(key);
    if (seen) seen.browsers = [...new Set([...seen.browsers, ...o.browsers])];
    else byKey.set(key, { ...o, browsers: [...o.browsers] });
  }
  return [...byKey.values()];
}

async function getList(url: string, account: CloudAccount, allowPrivate: boolean, what: string): Promise<unknown[]> {
  let res;
  try {
    res = await outboundRequest(url, { method: 'GET', allowPrivate, userAgent: USER_AGENT, deadlineMs: LIST_DEADLINE_MS, headers: { authorization: `Basic ${Buffer.from(`${account.username}:${account.accessKey}`).toString('base64')}` } });
  } catch (err) {
    if (err instanceof OutboundUnreachableError) throw new CloudStorageError(`${CLOUD_TITLES[account.kind]} could not be reached when its ${what} were listed: ${err.message}`);
    throw err;
  }
  if (res.status === 401 || res.status === 403) {
    throw new CloudStorageError(`${CLOUD_TITLES[account.kind]} refused the user name and access key (${res.status}) when its ${what} were listed: an operator must check the client’s device provider`, 'validation_error');
  }
  const json = res.status === 200 ? res.json<unknown>() : null;
  if (!Array.isArray(json)) throw new CloudStorageError(`${CLOUD_TITLES[account.kind]} answered ${res.status} when its ${what} were listed, not a list`);
  return json;
}

/** The provider's own list, read. */
async function fetchOffers(account: CloudAccount, allowPrivate: boolean): Promise<CloudOffer[]> {
  const api = browserCloudApiUrl(account.kind, account.apiUrl).replace(/\/+$/, '');
  const offers: CloudOffer[] = [];
  if (account.kind === 'browserstack') {
    for (const raw of await getList(`${api}/automate/browsers.json`, account, allowPrivate, 'browsers and devices')) {
      const b = raw as { os?: unknown; os_version?: unknown; browser?: unknown; device?: unknown };
      const os = String(b.os ?? '');
      const version = String(b.os_version ?? '');
      if (typeof b.device === 'string' && b.device) {
        const ios = /^ios$/i.test(os);
        const kind = String(b.browser ?? '').toLowerCase();
        const browsers: CloudBrowser[] = kind === 'iphone' || kind === 'ipad' ? ['safari'] : kind === 'android' ? ['chrome'] : [browserOf(kind)].filter((x): x is CloudBrowser => x !== null);
        offers.push({ device: b.device, os: `${ios ? 'iOS' : /^android$/i.test(os) ? 'Android' : os} ${version}`.trim(), browsers });
      } else {
        const browser = browserOf(b.browser);
        if (browser) offers.push({ device: desktopName(os, version), os: null, browsers: [browser] });
      }
    }
    return merged(offers);
  }
  for (const raw of await getList(`${api}/rest/v1/info/platforms/webdriver`, account, allowPrivate, 'desktop browsers')) {
    const p = raw as { os?: unknown; api_name?: unknown };
    const browser = browserOf(p.api_name);
    if (browser && typeof p.os === 'string' && /^(windows|mac|macos|os x)\b/i.test(p.os)) offers.push({ device: desktopName(p.os), os: null, browsers: [browser] });
  }
  for (const raw of await getList(`${api}/v1/rdc/devices`, account, allowPrivate, 'real devices')) {
    const d = raw as { name?: unknown; os?: unknown; osVersion?: unknown };
    if (typeof d.name !== 'string' || !d.name) continue;
    const ios = String(d.os).toUpperCase() === 'IOS';
    offers.push({ device: d.name, os: `${ios ? 'iOS' : 'Android'} ${String(d.osVersion ?? '')}`.trim(), browsers: [ios ? 'safari' : 'chrome'] });
  }
  return merged(offers);
}

const cache = new Map<string, { at: number; offers: Promise<CloudOffer[]> }>();

/**
 * What the account offers: its list, asked once per CATALOGUE_TTL_MS (a failed ask is not kept). Device Farm's
 * documented list without asking.
 */
export async function browserCatalogue(account: CloudAccount | { kind: 'devicefarm' }, allowPrivate: boolean): Promise<readonly CloudOffer[]> {
  if (account.kind === 'devicefarm') return DEVICE_FARM_OFFERS;
  const key = `${account.kind} ${account.apiUrl} ${account.username} ${account.accessKey.slice(-6)}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CATALOGUE_TTL_MS) return hit.offers;
  const offers = fetchOffers(account, allowPrivate);
  cache.set(key, { at: Date.now(), offers });
  offers.catch(() => cache.delete(key));
  return offers;
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
/** Two names of the same macOS: "macOS Sonoma" and "macOS 14". */
const sameDevice = (a: string, b: string) => norm(desktopName(a)) === norm(desktopName(b));
/** An OS asked ("iOS 18") against one offered ("iOS 18.1"): the same family, and the version asked as a prefix. */
function sameOs(asked: string, offered: string | null): boolean {
  if (!offered) return false;
  const [af = '', av = ''] = norm(asked).split(/ (?=\d)/);
  const [of = '', ov = ''] = norm(offered).split(/ (?=\d)/);
  if (af !== of) return false;
  return !av || ov === av || ov.startsWith(`${av}.`);
}

/** Levenshtein distance, for "close names". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = here;
    }
  }
  return row[b.length]!;
}

/** The offered names nearest to `name`: those that share a word first, then by edit distance; at most `count`. */
export function closeNames(name: string, names: readonly string[], count = 5): string[] {
  const words = new Set(norm(name).split(' '));
  const score = (n: string) => distance(norm(name), norm(n)) - 10 * norm(n).split(' ').filter((w) => words.has(w)).length;
  return [...new Set(names)].sort((a, b) => score(a) - score(b) || a.localeCompare(b)).slice(0, count);
}

/**
 * Why the provider does not offer a cloud device, in words that say what it does offer; null when it does. A
 * desktop is named without an OS (its name is the OS); a real device's OS is matched by family and version prefix.
 */
export function notOffered(kind: BrowserCloudKind, d: CloudDevice, offers: readonly CloudOffer[]): string | null {
  const title = CLOUD_TITLES[kind];
  const device = offers.filter((o) => sameDevice(o.device, d.cloud));
  const asked = `${cloudBrowserTitle(d.browser)} on ${d.cloud}${d.os ? ` (${d.os})` : ''}`;
  if (device.length === 0) {
    const pool = offers.filter((o) => isDesktopCloud(o.device) === isDesktopCloud(d.cloud)).map((o) => o.device);
    const close = closeNames(d.cloud, pool.length ? pool : offers.map((o) => o.device));
    return `${title} does not offer a device named "${d.cloud}"${close.length ? `; close names it offers: ${close.join(', ')}` : ''}`;
  }
  const onOs = d.os ? device.filter((o) => sameOs(d.os!, o.os)) : device;
  if (onOs.length === 0) {
    const oses = [...new Set(device.map((o) => o.os).filter((o): o is string => Boolean(o)))];
    return `${title} offers ${d.cloud} with ${oses.length ? oses.join(', ') : 'no OS to choose'}, not ${d.os}`;
  }
  if (onOs.some((o) => o.browsers.includes(d.browser))) return null;
  const browsers = [...new Set(onOs.flatMap((o) => o.browsers))].map(cloudBrowserTitle);
  return `${title} does not offer ${asked}: it offers ${browsers.join(', ') || 'no browser we drive'} there`;
}
