/**
 * Flags for Debian's Chromium in a container: no sandbox (no user namespaces; runners drop it where they can,
 * `runnerChromium`), no GPU, nothing that calls home.
 * Every Chromium of the project starts with them: the engine's runs, the end-to-end tests, the Lighthouse bench
 * (`@fullstop/engine/chromium`, which loads nothing else).
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
  return { args: sandbox ? GUARDED_CHROMIUM_FLAGS.filter((flag) => flag !== '--no-sandbox') : GUARDED_CHROMIUM_FLAGS, sandbox };
}

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
