/**
 * Flags for Debian's Chromium in a container: no sandbox (no user namespaces), no GPU, and nothing that calls home
 * (the network reaches only the targets).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
