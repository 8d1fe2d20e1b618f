/**
 * Flags for Debian's Chromium in a container: no sandbox (no user namespaces), no GPU, nothing that calls home
 * (the network reaches only the targets), and no network path that goes around the policy proxy.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // WebRTC sends UDP (STUN to any address a page names) around the proxy: only proxied traffic is allowed.
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
