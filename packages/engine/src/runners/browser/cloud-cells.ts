/**
 * Cloud cells (issue 44, decision 0100): a browser test's `devices` may name, beside desktop, phone and tablet, a
 * device of the client's device cloud (`{ cloud: 'iPhone 15', os: 'iOS 18', browser: 'safari' }`). Each is a cell
 * of its own, not crossed with the engines or networks: the browser is the provider's, on the provider's network.
 * It runs the page checks over the provider's W3C WebDriver hub (cloud-session.ts). Here: what the suite may say,
 * the capabilities each provider is asked for, and the refusal of a private site.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { z } from 'zod';
import { CLOUD_BROWSERS, CLOUD_NAME, type CloudDevice, cloudBrowserTitle, cloudCellName, isDesktopCloud } from '@fullstop/contracts';
import { isPrivateAddress } from '../../policy/private-address.ts';
import type { TargetGuardOptions } from '../../policy/target-guard.ts';
import type { AppiumEndpoint, RunTarget } from '../../types.ts';
import { type Device, DEVICES } from './matrix.ts';

export type { CloudDevice };

/** How many cloud cells one test may have: each is a session billed on the client's account. Counted in MAX_CELLS_PER_TEST too. */
export const MAX_CLOUD_CELLS_PER_TEST = 6;

/** One entry of a browser test's `devices`: a local profile, or a device of the client's cloud. */
export type BrowserDevice = Device | CloudDevice;

const cloudName = (what: string) =>
  z
    .string({ error: `${what} must be a name, e.g. ${what === 'cloud' ? "'iPhone 15'" : "'iOS 18'"}` })
    .trim()
    .regex(CLOUD_NAME, { error: `${what} must be 1 to 60 letters, digits, spaces and . _ + - (no / @ or brackets)` });

/** A cloud device as the suite names it; its names are matched against the provider's list on the server. */
export const cloudDevice = z
  .object({
    /** The provider's device or desktop: 'iPhone 15', 'Pixel 8', 'Windows 11', 'macOS Sonoma'. */
    cloud: cloudName('cloud'),
    /** Its OS version when the provider offers several: 'iOS 18', 'Android 14'. */
    os: cloudName('os').optional(),
    browser: z.enum(CLOUD_BROWSERS, { error: (issue) => `unknown browser ${JSON.stringify(issue.input)}: a cloud device's browser is ${CLOUD_BROWSERS.join(', ')}` }),
  })
  .strict();

const DEVICE_WORDS = `${DEVICES.join(', ')}, or a cloud device such as { cloud: 'iPhone 15', os: 'iOS 18', browser: 'safari' }`;
const sameDevice = (d: BrowserDevice) => (typeof d === 'string' ? d : `${d.cloud.toLowerCase()}|${(d.os ?? '').toLowerCase()}|${d.browser}`);

/**
 * A browser test's `devices`: local profiles and cloud devices, each refused at its own field
 * (`options.devices.2.browser`), none twice, at most MAX_CLOUD_CELLS_PER_TEST cloud devices.
 */
export const browserDevices = z
  .array(z.unknown())
  .min(1, { error: 'list at least one device' })
  .transform((list, ctx): BrowserDevice[] => {
    const devices: BrowserDevice[] = [];
    list.forEach((item, i) => {
      if (typeof item === 'string') {
        if ((DEVICES as readonly string[]).includes(item)) devices.push(item as Device);
        else ctx.addIssue({ code: 'custom', path: [i], message: `unknown device ${JSON.stringify(item)}: the devices are ${DEVICE_WORDS}` });
        return;
      }
      if (!item || typeof item !== 'object' || Array.isArray(item)) {
        ctx.addIssue({ code: 'custom', path: [i], message: `not a device: the devices are ${DEVICE_WORDS}` });
        return;
      }
      const parsed = cloudDevice.safeParse(item);
      if (parsed.success) devices.push({ cloud: parsed.data.cloud, ...(parsed.data.os ? { os: parsed.data.os } : {}), browser: parsed.data.browser });
      else for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: [i, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], message: issue.message });
    });
    const keys = devices.map(sameDevice);
    if (new Set(keys).size !== keys.length) ctx.addIssue({ code: 'custom', path: [], message: 'lists the same device twice' });
    const clouds = devices.filter((d) => typeof d !== 'string').length;
    if (clouds > MAX_CLOUD_CELLS_PER_TEST) {
      ctx.addIssue({ code: 'custom', path: [], message: `${clouds} cloud devices: a test may have at most ${MAX_CLOUD_CELLS_PER_TEST} (each is a session billed on the client’s device cloud); split them in two tests` });
    }
    return devices;
  })
  .default(['desktop']);

export const isCloudDevice = (d: BrowserDevice): d is CloudDevice => typeof d !== 'string';
export const localDevicesOf = (devices: readonly BrowserDevice[]): Device[] => devices.filter((d): d is Device => typeof d === 'string');
export const cloudDevicesOf = (devices: readonly BrowserDevice[]): CloudDevice[] => devices.filter(isCloudDevice);

/** The cloud devices a test's raw manifest options name (the server reads them before the run); none when there are none. */
export function cloudDevicesIn(options: Readonly<Record<string, unknown>>): CloudDevice[] {
  const parsed = browserDevices.safeParse(options.devices);
  return parsed.success ? cloudDevicesOf(parsed.data) : [];
}

/** One cloud cell of a test: its place among the test's cloud devices, its device and the names reports use. */
export interface CloudCell {
  /** Its place among the test's cloud devices (0-based): how the server knows the cell. */
  index: number;
  device: CloudDevice;
  /** `cloud/safari@iPhone 15 (iOS 18)`. */
  name: string;
  /** "Safari on iPhone 15 (iOS 18)". */
  label: string;
  /** A desktop browser (Windows, macOS) rather than a real phone or tablet. */
  desktop: boolean;
}

export function cloudCellsOf(devices: readonly BrowserDevice[]): CloudCell[] {
  return cloudDevicesOf(devices).map((device, index) => ({
    index,
    device,
    name: cloudCellName(device),
    label: `${cloudBrowserTitle(device.browser)} on ${device.cloud}${device.os ? ` (${device.os})` : ''}`,
    desktop: isDesktopCloud(device.cloud),
  }));
}

/** The providers whose hub runs cloud cells. */
export const CLOUD_PROVIDERS = ['browserstack', 'saucelabs', 'devicefarm'] as const;
export type CloudProvider = (typeof CLOUD_PROVIDERS)[number];
export const PROVIDER_TITLES: Readonly<Record<CloudProvider, string>> = { browserstack: 'BrowserStack', saucelabs: 'Sauce Labs', devicefarm: 'AWS Device Farm' };

/**
 * The client's device cloud as a browser run gets it: the mobile kind's endpoint (`RunTarget.appium`: the hub, its
 * user name and key opened for this attempt only) and which provider it is, so the cells ask it in its own words.
 * AWS Device Farm's hub is a signed URL the server creates per cell (`sessionPerDevice`, RunContext.openDevice).
 */
export interface CloudHub extends AppiumEndpoint {
  provider: CloudProvider;
}

export function cloudHubOf(target: RunTarget): CloudHub | null {
  const hub = target.appium as Partial<CloudHub> | null | undefined;
  return hub && typeof hub.url === 'string' && (CLOUD_PROVIDERS as readonly string[]).includes(hub.provider ?? '') ? (hub as CloudHub) : null;
}

/** macOS by its name, as Sauce Labs' platform names number them. */
const MACOS_VERSIONS: Readonly<Record<string, string>> = { 'big sur': '11', monterey: '12', ventura: '13', sonoma: '14', sequoia: '15', tahoe: '26' };
/** "Windows 11" → Windows / 11; "macOS Sonoma" → macOS / Sonoma. */
function desktopOs(name: string): { family: 'Windows' | 'macOS'; version: string } {
  const [, family = '', version = ''] = /^(windows|macos|os x)\s*(.*)$/i.exec(name.trim()) ?? [];
  return { family: family.toLowerCase() === 'windows' ? 'Windows' : 'macOS', version: version.trim() };
}
/** The number of an OS version: 'iOS 18' → '18', 'Android 14.0' → '14.0'. */
const versionOf = (os: string | undefined) => /(\d+(?:\.\d+)*)/.exec(os ?? '')?.[1];
const mobilePlatform = (d: CloudDevice): 'iOS' | 'Android' => (/^(ios|ipados)\b/i.test(d.os ?? '') ? 'iOS' : /^android\b/i.test(d.os ?? '') ? 'Android' : d.browser === 'safari' || /^(iphone|ipad)/i.test(d.cloud) ? 'iOS' : 'Android');

/** The vendor options the operator set on the provider (a project or build name): kept under ours. */
const vendorOptions = (hub: CloudHub, key: string) => {
  const given = hub.capabilities?.[key];
  return given && typeof given === 'object' && !Array.isArray(given) ? (given as Record<string, unknown>) : {};
};

/**
 * The W3C capabilities a cloud cell's session asks its provider for: BrowserStack's `bstack:options`, Sauce Labs'
 * `sauce:options` (a real device through Appium's names), Device Farm's desktop browser testing (`browserName`,
 * `browserVersion: latest`, `platform: windows`). `idleSeconds` ends a session the runner could not end (a killed
 * attempt) at the provider's side.
 */
export function cloudCapabilities(hub: CloudHub, cell: CloudCell, p: { sessionName: string; build: string; idleSeconds: number }): Record<string, unknown> {
  const d = cell.device;
  if (hub.provider === 'devicefarm') {
    return { browserName: d.browser === 'edge' ? 'MicrosoftEdge' : d.browser, browserVersion: 'latest', platform: 'windows' };
  }
  if (hub.provider === 'browserstack') {
    const options: Record<string, unknown> = { ...vendorOptions(hub, 'bstack:options'), sessionName: p.sessionName, buildName: p.build, idleTimeout: p.idleSeconds, local: false };
    if (cell.desktop) {
      const os = desktopOs(d.cloud);
      return { browserName: cloudBrowserTitle(d.browser), browserVersion: 'latest', 'bstack:options': { ...options, os: os.family === 'Windows' ? 'Windows' : 'OS X', osVersion: os.version } };
    }
    const version = versionOf(d.os);
    return { browserName: d.browser, 'bstack:options': { ...options, deviceName: d.cloud, ...(version ? { osVersion: version } : {}), realMobile: 'true' } };
  }
  const sauce = { ...vendorOptions(hub, 'sauce:options'), name: p.sessionName, build: p.build, idleTimeout: p.idleSeconds };
  if (cell.desktop) {
    const os = desktopOs(d.cloud);
    const platformName = os.family === 'Windows' ? `Windows ${os.version}`.trim() : `macOS ${MACOS_VERSIONS[os.version.toLowerCase()] ?? os.version}`.trim();
    return { browserName: d.browser === 'edge' ? 'MicrosoftEdge' : d.browser, browserVersion: 'latest', platformName, 'sauce:options': sauce };
  }
  const platform = mobilePlatform(d);
  const version = versionOf(d.os);
  return {
    platformName: platform,
    browserName: cloudBrowserTitle(d.browser),
    'appium:deviceName': d.cloud,
    ...(version ? { 'appium:platformVersion': version } : {}),
    'appium:automationName': platform === 'iOS' ? 'XCUITest' : 'UiAutomator2',
    'sauce:options': sauce,
  };
}

/**
 * Why a cloud cell cannot run the suite's Playwright spec files, in the client's words, or null when its provider runs
 * them (decision 0106): BrowserStack runs Playwright on its desktop browsers over a WebSocket; Sauce Labs runs it only
 * from a project uploaded with its saucectl tool, AWS Device Farm's desktop browsers take Selenium only, and no
 * provider gives Playwright a real phone's browser.
 */
export function cloudSpecsRefusal(provider: CloudProvider, cell: CloudCell): string | null {
  if (!cell.desktop) return `${PROVIDER_TITLES[provider]} gives Playwright no real phone or tablet: page checks only`;
  if (provider === 'saucelabs') return 'Sauce Labs runs Playwright only from a project uploaded with its saucectl tool, not over a connection from our runner';
  if (provider === 'devicefarm') return 'AWS Device Farm’s desktop browsers take Selenium (WebDriver) only, not Playwright';
  return null;
}

/** BrowserStack's Playwright browser for a cloud browser, and the Playwright engine that speaks to it. */
const BROWSERSTACK_PLAYWRIGHT: Readonly<Record<CloudDevice['browser'], { browser: string; browserName: 'chromium' | 'firefox' | 'webkit' }>> = {
  chrome: { browser: 'chrome', browserName: 'chromium' },
  edge: { browser: 'edge', browserName: 'chromium' },
  safari: { browser: 'playwright-webkit', browserName: 'webkit' },
  firefox: { browser: 'playwright-firefox', browserName: 'firefox' },
};
/** The Playwright engine a cloud cell's project connects with. */
export const playwrightBrowserOf = (cell: CloudCell) => BROWSERSTACK_PLAYWRIGHT[cell.device.browser].browserName;

/**
 * BrowserStack's Playwright capabilities of a desktop cell, without the user name and key: the runner's relay adds
 * them (cloud-relay.ts), so that they never reach the spec files' process. `client.playwrightVersion` is ours:
 * BrowserStack picks a server of the same protocol.
 */
export function browserStackPlaywrightCaps(cell: CloudCell, p: { name: string; build: string; playwrightVersion: string }): Record<string, unknown> {
  const os = desktopOs(cell.device.cloud);
  return {
    browser: BROWSERSTACK_PLAYWRIGHT[cell.device.browser].browser,
    os: os.family === 'Windows' ? 'Windows' : 'OS X',
    os_version: os.version,
    name: p.name,
    build: p.build,
    'client.playwrightVersion': p.playwrightVersion,
  };
}

/** BrowserStack's Playwright endpoint for its hub: the real hub's is cdp.browserstack.com; another hub's (a fake's) is on its own origin. */
export function browserStackPlaywrightUrl(hubUrl: string): string {
  const hub = new URL(hubUrl);
  if (/(^|\.)browserstack\.com$/.test(hub.hostname)) return 'wss://cdp.browserstack.com/playwright';
  return `${hub.protocol === 'https:' ? 'wss:' : 'ws:'}//${hub.host}/playwright`;
}

/** The addresses a host resolves to (an IP literal is its own), with the guard's resolver when a test gives one. */
async function addressesOf(hostname: string, network?: TargetGuardOptions): Promise<string[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return [bare];
  const resolve = network?.lookup ?? ((h: string) => dnsLookup(h, { all: true }));
  return (await resolve(bare, { all: true }).catch(() => [])).map((a) => a.address);
}

/**
 * Why the site cannot have cloud cells, or null. A device cloud's browser reaches the site from the provider's
 * network, not through our policy proxy: a site on a loopback or private address is out of its reach, and sending it
 * there would ask the provider to reach into someone's network. Decided by the target's address; the one way past it
 * is a target that allows private addresses (the demo client, ENGINE_ALLOW_PRIVATE_TARGETS) whose provider's hub is on
 * a private or loopback address itself, where a browser could reach it: the tests' fakes on 127.0.0.1. A real
 * provider's hub is on a public address, so in production a private site is always refused.
 */
export async function privateTargetRefusal(target: RunTarget, hubUrl: string, network?: TargetGuardOptions): Promise<string | null> {
  const isPrivate = network?.isPrivate ?? isPrivateAddress;
  const site = new URL(target.baseUrl);
  const addresses = await addressesOf(site.hostname, network);
  const privateOne = addresses.find(isPrivate);
  if (!privateOne) return null;
  const hub = await addressesOf(new URL(hubUrl).hostname, network);
  if (target.allowPrivateAddresses && hub.length > 0 && hub.every(isPrivate)) return null;
  return `the site ${site.host} is on the private address ${privateOne}: a device cloud’s browser reaches sites from the provider’s network, not ours, so cloud cells test public sites only. Run the cloud devices against a public address of the site, or keep them out of this test`;
}
