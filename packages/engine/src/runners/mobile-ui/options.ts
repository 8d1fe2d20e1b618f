import { z } from 'zod';
import { testInput } from '../../lib/options.ts';
import { MAX_CELLS_PER_TEST } from '../browser/matrix.ts';

/**
 * The devices a mobile UI test may list: each is its own Appium session and its own run of every spec, one after
 * another, so a test's devices are bounded like the compatibility matrix's cells (decision 0078).
 */
export const MAX_DEVICES_PER_TEST = MAX_CELLS_PER_TEST;
export const DEFAULT_STEP_TIMEOUT_SECONDS = 60;
export const DEFAULT_TEST_TIMEOUT_SECONDS = 600;

/** W3C capabilities that carry no vendor prefix; every other name is Appium's (`appium:`) unless it names its vendor. */
const W3C_CAPABILITIES = new Set(['platformName', 'browserName', 'browserVersion', 'acceptInsecureCerts', 'pageLoadStrategy', 'proxy', 'setWindowRect', 'timeouts', 'strictFileInteractability', 'unhandledPromptBehavior', 'webSocketUrl']);
/** The app is always the client's uploaded build: a suite never names one. */
const APP_CAPABILITIES = new Set(['app', 'appium:app', 'bundleId', 'appium:bundleId', 'appPackage', 'appium:appPackage']);

const capabilityValue = z.union([z.string().max(500), z.number(), z.boolean(), z.record(z.string(), z.unknown())]);
const capabilities = z
  .record(z.string().min(1).max(100), capabilityValue)
  .refine((caps) => Object.keys(caps).length <= 50, 'at most 50 capabilities')
  .superRefine((caps, ctx) => {
    for (const name of Object.keys(caps)) {
      if (APP_CAPABILITIES.has(name)) {
        ctx.addIssue({ code: 'custom', path: [name], message: `the app is the client's uploaded build for the test's platform: leave ${name} out` });
      }
    }
  });

/** A capability's name on the wire: `deviceName` → `appium:deviceName`; `platformName` and `bstack:options` as they are. */
export function capabilityName(name: string): string {
  return W3C_CAPABILITIES.has(name) || name.includes(':') ? name : `appium:${name}`;
}

const relativeGlob = z
  .string()
  .min(1)
  .refine((g) => !g.startsWith('/') && !g.split('/').includes('..'), 'must be a glob inside the suite folder');

export const mobileUiInput = testInput(
  {
    /** Spec files (WebdriverIO in Mocha style, TypeScript), as globs relative to the suite folder. */
    specs: z.union([relativeGlob, z.array(relativeGlob).min(1)]),
    /** Which uploaded build the app is: the Android APK or the iOS IPA. */
    platform: z.enum(['android', 'ios']),
    /** Capabilities every device shares (`automationName`, `newCommandTimeout`, a provider's options). */
    capabilities: capabilities.default({}),
    /**
     * The devices, each its capabilities (`deviceName`, `platformVersion`, ...) over the shared ones and a name for
     * the report; unset: one device, the shared capabilities alone.
     */
    devices: z
      .array(z.object({ name: z.string().min(1).max(80).optional(), capabilities: capabilities.default({}) }).strict())
      .min(1, 'list at least one device')
      .max(MAX_DEVICES_PER_TEST, `a test may list at most ${MAX_DEVICES_PER_TEST} devices: split it in two tests`)
      .default([{ capabilities: {} }]),
    /** How long one `it` (a step) may take before it fails as timed out. */
    stepTimeoutSeconds: z.number().int().min(1).max(600).default(DEFAULT_STEP_TIMEOUT_SECONDS),
    /** How long the whole test may take on all its devices; then its session is ended and the test fails. */
    testTimeoutSeconds: z.number().int().min(10).max(1800).default(DEFAULT_TEST_TIMEOUT_SECONDS),
    /** How long `$()` waits for an element to be there. */
    waitforTimeoutSeconds: z.number().int().min(0).max(120).default(10),
  },
  z.object({}).strict().default({}),
);
export type MobileUiOptions = z.output<typeof mobileUiInput>['options'];

/** A device's name in the report: its own, else its `deviceName` and `platformVersion`, else its place. */
export function deviceLabel(device: MobileUiOptions['devices'][number], index: number, shared: MobileUiOptions['capabilities']): string {
  if (device.name) return device.name;
  const caps = { ...shared, ...device.capabilities };
  const name = caps.deviceName ?? caps['appium:deviceName'];
  const version = caps.platformVersion ?? caps['appium:platformVersion'];
  return typeof name === 'string' ? `${name}${typeof version === 'string' || typeof version === 'number' ? ` (${version})` : ''}` : `device ${index + 1}`;
}
