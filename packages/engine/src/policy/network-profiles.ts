/**
 * The networks a browser test can run on (decision 0078, Networks), shaped in the policy proxy so they hold for
 * every engine. Figures are Chrome DevTools' presets before its own multipliers (its "Slow 3G" is 400 kbps and
 * 400 ms RTT, "Fast 3G" 1.6 Mbps down, 750 kbps up, 150 ms RTT), WebPageTest's "4G" (9 Mbps, 170 ms) and "Cable"
 * (5 Mbps down, 1 Mbps up, 28 ms).
 */
export const NETWORKS = ['none', 'offline', 'slow-3g', 'fast-3g', '4g', 'cable'] as const;
export type Network = (typeof NETWORKS)[number];

export interface NetworkShape {
  /** Bits per second towards the browser. */
  downBps: number;
  /** Bits per second from the browser. */
  upBps: number;
  /** Round-trip time added: before each request, and half of it to every tunnelled chunk in each direction. */
  rttMs: number;
}

/** null: no shaping. 'offline': the proxy refuses every connection (the browser sees a network error). */
export const NETWORK_SHAPES: Readonly<Record<Network, NetworkShape | null | 'offline'>> = {
  none: null,
  offline: 'offline',
  'slow-3g': { downBps: 400_000, upBps: 400_000, rttMs: 400 },
  'fast-3g': { downBps: 1_600_000, upBps: 750_000, rttMs: 150 },
  '4g': { downBps: 9_000_000, upBps: 9_000_000, rttMs: 170 },
  cable: { downBps: 5_000_000, upBps: 1_000_000, rttMs: 28 },
};

