/**
 * The attempt's browser host (issue 40, decision 0110): a Node process of its own, in a jail of its own (the policy
 * proxies its only ways out, its browser servers' WebSockets its only ways in), that launches one browser an engine
 * for a browser test's spec files and page checks alike. The Playwright process's workers connect to it through a
 * forward of their own jail, the runner through a way in (runners/browser/shared-browsers.ts). It says on stdout,
 * a line each (HOST_LINE and JSON), when a browser is served or gone, and closes them all on SIGTERM.
 */
import { BROWSER_SERVERS_ENV, HOST_LINE, launchSharedBrowsers, type SharedLaunch } from './browser-servers.ts';

const wanted = JSON.parse(process.env[BROWSER_SERVERS_ENV] ?? '{}') as Record<string, SharedLaunch>;
let closing: Promise<void> | null = null;
const shared = await launchSharedBrowsers(wanted, (browserName, wsEndpoint, record) => {
  process.stdout.write(`${HOST_LINE}${JSON.stringify({ browserName, served: wsEndpoint !== null, record })}\n`);
});
process.stdout.write(`${HOST_LINE}${JSON.stringify({ started: true, record: shared.record })}\n`);
const stop = () => {
  closing ??= shared.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// Nothing else keeps the loop alive once the servers are gone: wait for the signal.
setInterval(() => undefined, 1 << 30);
