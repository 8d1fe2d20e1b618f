/**
 * Debian's Firefox ESR, which Playwright drives over WebDriver BiDi (its `moz-firefox` channel pointed at this
 * program: nothing downloads a browser; decision 0078). `@fullstop/engine/engines` reads the path; browser runs
 * start it with the prefs below.
 */
export const DEFAULT_FIREFOX_PATH = '/usr/bin/firefox-esr';

/** What a Playwright project names to drive Firefox over BiDi (playwright-core's registry: `_createBidiFirefoxChannel`). */
export const FIREFOX_BIDI = { browserName: '_bidiFirefox', channel: 'moz-firefox' } as const;

/**
 * Firefox prefs for the engine's runs, whose network reaches only the targets: no path around the policy proxy.
 * Chromium's proxy bypass `<-loopback>` has no BiDi equivalent: Firefox sends loopback requests straight out
 * unless `allow_hijacking_localhost` says otherwise. WebRTC (UDP to any address a page names), DNS over HTTPS and
 * prefetching, and the calls Firefox makes home, are off. Playwright's own profile prefs already silence updates,
 * safe browsing and the new-tab page.
 */
export const GUARDED_FIREFOX_PREFS: Readonly<Record<string, string | number | boolean>> = {
  'network.proxy.allow_hijacking_localhost': true,
  'network.proxy.no_proxies_on': '',
  'media.peerconnection.enabled': false,
  'network.trr.mode': 5,
  'network.dns.disablePrefetch': true,
  'network.prefetch-next': false,
  'network.predictor.enabled': false,
  'network.captive-portal-service.enabled': false,
  'datareporting.healthreport.uploadEnabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.enabled': false,
  'browser.ping-centre.telemetry': false,
  'extensions.update.enabled': false,
  'extensions.getAddons.cache.enabled': false,
  'services.settings.server': 'http://dummy.test',
  'messaging-system.rsexperimentloader.enabled': false,
  'app.shield.optoutstudies.enabled': false,
};
