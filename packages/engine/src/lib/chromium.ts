/**
 * Flags for Debian's Chromium in a container: no sandbox (no user namespaces), no GPU, nothing that calls home.
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

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
