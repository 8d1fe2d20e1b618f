import { createRequire } from 'node:module';
import type { devices as PlaywrightDevices } from 'playwright-core';
import type { BrowserEngine, Device } from './matrix.ts';

/**
 * The device profiles, from Playwright's descriptors (decision 0078). Android devices for phone and tablet: the
 * engines that run here are Chromium and Gecko, and an iPhone's or iPad's descriptor would claim Safari. The
 * desktop keeps each engine's own user agent: the 'Desktop Chrome' descriptor's would claim an older Chrome on
 * Windows, and the desktop was what every test ran on before, with Playwright's default 1280 × 720 viewport.
 */
export const DEVICE_DESCRIPTORS: Readonly<Record<Device, string>> = { desktop: 'Desktop Chrome', phone: 'Pixel 7', tablet: 'Galaxy Tab S4' };

/** What each engine does not take from a device (Playwright refuses isMobile on Firefox; Gecko has no touch emulation over BiDi). */
export const ENGINE_LIMITS: Readonly<Record<BrowserEngine, string | null>> = {
  chromium: null,
  firefox: 'Firefox takes the viewport, device scale and user agent of a phone or tablet, but no touch events and no mobile viewport (isMobile)',
  webkit: 'WebKit takes the viewport (as its window size) and user agent of a phone or tablet, but no device scale, no touch events and no mobile viewport (isMobile)',
};

export interface DeviceUse {
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  userAgent?: string;
  isMobile?: boolean;
  hasTouch?: boolean;
}

const require = createRequire(import.meta.url);
let loaded: typeof PlaywrightDevices | undefined;
/**
 * Playwright's descriptors, loaded with the first device a runner asks for: the server reads only this module's
 * words (ENGINE_LIMITS, for reports) and would otherwise hold playwright-core at rest (bench/rest, decision 0081).
 */
const descriptors = (): typeof PlaywrightDevices => (loaded ??= (require('playwright-core') as { devices: typeof PlaywrightDevices }).devices);

/** The Playwright `use` options a device gets on an engine. */
export function deviceUse(device: Device, engine: BrowserEngine): DeviceUse {
  const d = descriptors()[DEVICE_DESCRIPTORS[device]];
  if (!d) throw new Error(`Playwright has no device "${DEVICE_DESCRIPTORS[device]}"`);
  const base: DeviceUse = { viewport: { ...d.viewport }, deviceScaleFactor: d.deviceScaleFactor };
  if (device === 'desktop') return base;
  return engine === 'chromium' ? { ...base, userAgent: d.userAgent, isMobile: d.isMobile, hasTouch: d.hasTouch } : { ...base, userAgent: d.userAgent };
}

/**
 * What WebKit over WebDriver takes of a device (decision 0079): the viewport, as the window's size, and the user
 * agent, as a MiniBrowser setting; the device scale stays 1 (WebKitGTK scales by whole numbers only, per process)
 * and there is no touch or mobile viewport emulation.
 */
export function webkitDevice(device: Device): { viewport: { width: number; height: number }; userAgent?: string } {
  const use = deviceUse(device, 'webkit');
  return { viewport: use.viewport, ...(use.userAgent ? { userAgent: use.userAgent } : {}) };
}
