import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Flags for Debian's Chromium in a container: no sandbox (no user namespaces; runners drop it where they can,
 * `runnerChromium`), no GPU, nothing that calls home.
 * Every Chromium of the project starts with them: the engine's runs, the end-to-end tests, the Lighthouse bench
 * (`@fullstop/engine/chromium`, which loads nothing else until a launch asks for Playwright's own flags).
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Features of Chromium's own window that a headless browser starts for nothing: Chromium 156 preloads its omnibox
 * popup, a WebUI page, in a renderer of its own at every start (0.9 CPU-s of a launch's 1.9 with one page open 2 s:
 * bench/engine/README.md, "Chromium's omnibox popup").
 */
export const IDLE_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'] as const;

const DISABLE_FEATURES = '--disable-features=';

/** The features the `--disable-features` flags among `flags` name. */
const disabledFeatures = (flags: readonly string[]) => flags.filter((f) => f.startsWith(DISABLE_FEATURES)).flatMap((f) => f.slice(DISABLE_FEATURES.length).split(','));

/**
 * `args` and the one `--disable-features` flag that switches IDLE_UI_FEATURES off as well as what the launcher's own
 * flags (`launcherFlags`) switch off: Chromium keeps only the last `--disable-features` it is given, and a launcher
 * puts its own flags before ours. Without the launcher's flags (null), `args` alone: the launcher's list is never lost.
 */
export function withIdleUiOff(args: readonly string[], launcherFlags: readonly string[] | null): string[] {
  if (!launcherFlags) return [...args];
  const features = [...new Set([...disabledFeatures(launcherFlags), ...disabledFeatures(args), ...IDLE_UI_FEATURES])].filter(Boolean);
  return [...args.filter((f) => !f.startsWith(DISABLE_FEATURES)), DISABLE_FEATURES + features.join(',')];
}

let playwrightFlags: readonly string[] | null | undefined;

/**
 * The flags Playwright starts Chromium with before ours (playwright-core's `chromiumSwitches`, not among its public
 * exports: read from its file, for the version installed); null where that file is not found or says otherwise.
 */
export function playwrightChromiumFlags(): readonly string[] | null {
  if (playwrightFlags !== undefined) return playwrightFlags;
  try {
    const require = createRequire(import.meta.url);
    const file = path.join(path.dirname(require.resolve('playwright-core/package.json')), 'lib/server/chromium/chromiumSwitches.js');
    const flags = (require(file) as { chromiumSwitches: (assistantMode: boolean, channel?: string) => unknown }).chromiumSwitches(false, undefined);
    playwrightFlags = Array.isArray(flags) && flags.every((f) => typeof f === 'string') && flags.some((f: string) => f.startsWith(DISABLE_FEATURES)) ? flags : null;
  } catch {
    playwrightFlags = null;
  }
  return playwrightFlags;
}

/** Chromium's flags for a Playwright launch: `args` with Chromium's idle UI off (IDLE_UI_FEATURES). */
export function playwrightChromiumArgs(args: readonly string[]): string[] {
  return withIdleUiOff(args, playwrightChromiumFlags());
}

/**
 * The engine's runs, whose network reaches only the targets: no network path that goes around the policy proxy.
 * WebRTC sends UDP (STUN to any address a page names) around the proxy: only proxied traffic is allowed.
 */
export const GUARDED_CHROMIUM_FLAGS = [...CHROMIUM_FLAGS, '--webrtc-ip-handling-policy=disable_non_proxied_udp'];

/**
 * Set to 1 by the supervisor in a runner process whose user may run Chromium's own sandbox (not root, user
 * namespaces allowed: sandbox/runner-user.ts). Nothing else sets it: the server's environment never reaches a runner.
 */
export const CHROMIUM_SANDBOX_VAR = 'FULLSTOP_CHROMIUM_SANDBOX';

/**
 * How a runner starts Chromium: with its own sandbox (renderers in namespaces of their own, seccomp) where the
 * supervisor found it possible, else with --no-sandbox (decision 0077). `sandbox` is Playwright's
 * `chromiumSandbox`, which adds --no-sandbox itself when false.
 */
export function runnerChromium(env: NodeJS.ProcessEnv = process.env): { args: string[]; sandbox: boolean } {
  const sandbox = env[CHROMIUM_SANDBOX_VAR] === '1';
  return { args: sandbox ? GUARDED_CHROMIUM_FLAGS.filter((flag) => flag !== '--no-sandbox') : [...GUARDED_CHROMIUM_FLAGS], sandbox };
}

/** Debian's full Chromium: a browser with its own window, run headless with `--headless`. */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';
/**
 * Debian's `chromium-headless-shell`: the same Blink and V8 of the same version, built without the browser's window,
 * tabs and profile services. Playwright itself runs its headless Chromium this way. A page costs it half the CPU of
 * the full browser (bench/engine/README.md, "Chromium's headless shell"), so the engine prefers it where installed.
 */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

/** The engine's Chromium when CHROMIUM_PATH does not name one: the headless shell where installed, else the full browser. */
export const DEFAULT_CHROMIUM_PATH = existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : FULL_CHROMIUM_PATH;
