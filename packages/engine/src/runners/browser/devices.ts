import { devices as descriptors } from 'playwright-core';
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
};

export interface DeviceUse {
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  userAgent?: string;
  isMobile?: boolean;
  hasTouch?: boolean;
}

/** The Playwright `use` options a device gets on an engine. */
export function deviceUse(device: Device, engine: BrowserEngine): DeviceUse {
  const d = descriptors[DEVICE_DESCRIPTORS[device]];
  if (!d) throw new Error(`Playwright has no device "${DEVICE_DESCRIPTORS[device]}"`);
  const base: DeviceUse = { viewport: { ...d.viewport }, deviceScaleFactor: d.deviceScaleFactor };
  if (device === 'desktop') return base;
  return engine === 'chromium' ? { ...base, userAgent: d.userAgent, isMobile: d.isMobile, hasTouch: d.hasTouch } : { ...base, userAgent: d.userAgent };
}
