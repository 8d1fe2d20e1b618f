import { type CloudHub, cloudCellsOf, cloudDevicesIn, cloudSpecsRefusal, type DeviceSessionPart, type DeviceSessionRequest, type RunnerSummary, type TestDefinition } from '@fullstop/engine';
import { isMobileCloudKind } from '@fullstop/contracts';
import type { Db } from '../../db/database.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { type BrowserCloudKind, browserCatalogue, CLOUD_TITLES, type CloudOffer, notOffered } from './clouds/browser-catalogue.ts';
import { type CloudCellAccount, CloudCellAttempt, testGridSessionLinks } from './clouds/browser-cells.ts';
import { deviceFarmClient } from './clouds/device-farm.ts';
import { billedMinutesOf, browserStackBuildSessions, cloudSessionLinks } from './clouds/session-links.ts';
import { CloudStorageError } from './clouds/storage.ts';
import { findMobileProvider, type MobileProviderRow } from './repository.ts';
import { appiumEndpointFor, deviceFarmAccountOf, storedKey } from './service.ts';

// A browser test's cloud cells (issue 44, decision 0100) on the server's side: the client's device provider given
// to the browser run as the mobile kind gives it (the hub, the key opened for the attempt only, never in a file),
// what the provider offers checked before anything starts, the cells' sessions counted against the client's cap of
// cloud minutes per run, and the provider's session pages added to the report after the run.

/** The cloud cell attempts running in this process, by attempt; removed when the attempt ends. */
const cloudCellAttempts = new Map<string, CloudCellAttempt>();

/** The vendor options (a project or build name) of the provider's capabilities: the rest is the mobile kind's (an app). */
const vendorCapabilities = (caps: Record<string, unknown> | null) =>
  Object.fromEntries(Object.entries(caps ?? {}).filter(([name]) => name === 'bstack:options' || name === 'sauce:options'));

function refuse(message: string): never {
  throw new CloudStorageError(message, 'validation_error');
}

/** The account a cloud cell's session, list and links use; a validation error when the provider lacks what it needs. */
function cellAccountOf(keys: ServerKeys, row: MobileProviderRow, kind: BrowserCloudKind, allowPrivate: boolean, named: string): CloudCellAccount {
  const accessKey = storedKey(keys, row);
  if (kind === 'devicefarm') {
    if (!row.testGridProjectArn) {
      refuse(`the cloud devices (${named}) run on AWS Device Farm in a desktop browser testing project, and none is set: an operator sets its testgrid-project ARN on the client’s page (Mobile devices)`);
    }
    const account = deviceFarmAccountOf(row, accessKey);
    return { kind, url: row.url, username: null, accessKey: null, testGrid: { projectArn: row.testGridProjectArn, client: deviceFarmClient(account, allowPrivate) } };
  }
  if (!row.username || !accessKey) refuse('the device provider has no user name and access key: an operator must set them');
  return { kind, url: row.url, username: row.username, accessKey };
}

/**
 * The client's device cloud for a browser test that has cloud devices, as its run's `target.appium` (with which
 * provider it is), or null when the test has none. Refused with words (a validation error: not retried) when the
 * client has no device cloud, when it lacks what the cells need, or when it does not offer a device the test names
 * (with the names it offers that are close). The cells' sessions of this attempt are kept under `attemptKey`.
 */
export async function browserCloudFor(
  db: Db,
  keys: ServerKeys,
  clientId: string,
  test: Pick<TestDefinition, 'name' | 'kind' | 'options'>,
  o: { allowPrivate: boolean; attemptKey: string; runId?: string; runDir: string; log: (message: string, data?: Record<string, unknown>) => void },
): Promise<CloudHub | null> {
  if (test.kind !== 'browser') return null;
  const devices = cloudDevicesIn(test.options);
  if (devices.length === 0) return null;
  const cells = cloudCellsOf(devices);
  const named = cells.map((c) => c.label).join(', ');
  const row = await findMobileProvider(db, clientId);
  if (!row) refuse(`the test “${test.name}” has cloud devices (${named}), which need a device cloud: an operator sets one on the client’s page (Mobile devices: BrowserStack, Sauce Labs or AWS Device Farm)`);
  if (!isMobileCloudKind(row.kind)) {
    refuse(`the test “${test.name}” has cloud devices (${named}), which need a device cloud (BrowserStack, Sauce Labs or AWS Device Farm); this client’s device provider is an Appium server, for mobile UI tests only: an operator sets a device cloud on the client’s page`);
  }
  const kind = row.kind;
  const account = cellAccountOf(keys, row, kind, o.allowPrivate, named);
  // What the provider offers, asked from its own list (kept 10 minutes): a device it lacks is said before any session.
  const offers = await offersOf(kind, row, account, o.allowPrivate, o.log);
  const problems = offers ? devices.map((d) => notOffered(kind, d, offers)).filter((p): p is string => p !== null) : [];
  if (problems.length) refuse(`the test “${test.name}” names cloud devices its device cloud does not offer: ${problems.join('; ')}`);
  // The hub, user name and key as the mobile kind gets them (opened for this attempt, never written to a file).
  const endpoint = await appiumEndpointFor(db, keys, clientId);
  if (!endpoint) refuse('no device provider is set for this client');
  if (o.runId) {
    cloudCellAttempts.set(
      o.attemptKey,
      new CloudCellAttempt(db, account, { clientId, runId: o.runId, attemptId: o.attemptKey, runDir: o.runDir, cells: cells.map((c) => ({ label: c.label, specs: cloudSpecsRefusal(kind, c) === null })), cap: row.cloudMinutesPerRun, allowPrivate: o.allowPrivate, log: o.log }),
    );
  }
  const capabilities = vendorCapabilities(row.capabilities);
  return {
    url: endpoint.url,
    provider: kind,
    ...(kind !== 'devicefarm' && endpoint.username ? { username: endpoint.username } : {}),
    ...(kind !== 'devicefarm' && endpoint.accessKey ? { accessKey: endpoint.accessKey } : {}),
    ...(Object.keys(capabilities).length ? { capabilities } : {}),
    ...(kind === 'devicefarm' ? { sessionPerDevice: true } : {}),
  };
}

/**
 * The provider's list (kept 10 minutes per account), or null when it cannot be read: the list is a courtesy, and
 * without it the provider's own refusal of a session says what is wrong. A refused key is an error of its own.
 */
async function offersOf(
  kind: BrowserCloudKind,
  row: MobileProviderRow,
  account: CloudCellAccount,
  allowPrivate: boolean,
  log: (message: string, data?: Record<string, unknown>) => void,
): Promise<readonly CloudOffer[] | null> {
  try {
    return await browserCatalogue(kind === 'devicefarm' ? { kind } : { kind, apiUrl: row.apiUrl ?? row.url, username: account.username!, accessKey: account.accessKey! }, allowPrivate);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'validation_error') throw err;
    log('the provider’s list of browsers and devices could not be read; the cloud cells go ahead', { provider: CLOUD_TITLES[kind], error: (err as Error).message });
    return null;
  }
}

/** Where a suite's issue about one of a test's cloud devices points: the manifest, the test's devices option. */
export interface CloudDeviceIssue {
  testName: string;
  /** The device's place in the test's `devices`. */
  index: number;
  reason: string;
}

/**
 * At a suite's import (issue 44): the cloud devices its browser tests name that the client's device cloud does not
 * offer, with the names it offers that are close. Nothing is said when the client has no device cloud yet, lacks what
 * its cells need, or its list cannot be read: the suite may come before the provider, and the run says what is
 * missing then. A key the provider refuses is not the suite's fault either.
 */
export async function cloudDevicesNotOffered(
  db: Db,
  keys: ServerKeys,
  clientId: string,
  tests: readonly Pick<TestDefinition, 'name' | 'kind' | 'options'>[],
  o: { allowPrivate: boolean; log: (message: string, data?: Record<string, unknown>) => void },
): Promise<CloudDeviceIssue[]> {
  const named = tests.filter((t) => t.kind === 'browser').map((t) => ({ name: t.name, options: t.options, devices: cloudDevicesIn(t.options) })).filter((t) => t.devices.length > 0);
  if (named.length === 0) return [];
  const row = await findMobileProvider(db, clientId);
  if (!row || !isMobileCloudKind(row.kind)) return [];
  const kind = row.kind;
  let offers: readonly CloudOffer[] | null;
  try {
    offers = await offersOf(kind, row, cellAccountOf(keys, row, kind, o.allowPrivate, ''), o.allowPrivate, o.log);
  } catch (err) {
    if (!(err instanceof CloudStorageError)) throw err;
    o.log('the cloud devices of an imported suite were not checked', { error: err.message });
    return [];
  }
  if (!offers) return [];
  return named.flatMap((t) => {
    // The k-th cloud device is the k-th object with `cloud` among the test's devices (the others name local cells).
    const places = (t.options.devices as unknown[]).flatMap((d, i) => (typeof d === 'object' && d !== null && 'cloud' in d ? [i] : []));
    return t.devices.flatMap((d, k) => {
      const reason = notOffered(kind, d, offers);
      return reason ? [{ testName: t.name, index: places[k] ?? k, reason }] : [];
    });
  });
}

/** What the runner of a browser attempt with cloud cells calls to ask for each cell's sessions (page checks', spec files') and let them go. */
export function cloudCellSessionsFor(
  attemptKey: string,
): { openDevice: (request: DeviceSessionRequest) => Promise<{ url: string }>; closeDevice: (index: number, part?: DeviceSessionPart) => Promise<void> } | Record<string, never> {
  const cells = cloudCellAttempts.get(attemptKey);
  if (!cells) return {};
  return { openDevice: (request) => cells.openCell(request), closeDevice: (index, part) => cells.closeCell(index, part) };
}

/** The attempt has ended: its cells' time stops, a session a killed runner left is ended. */
export async function endCloudCellAttempt(attemptKey: string): Promise<void> {
  const cells = cloudCellAttempts.get(attemptKey);
  if (!cells) return;
  try {
    await cells.endAll();
  } finally {
    cloudCellAttempts.delete(attemptKey);
  }
}

/**
 * The provider's pages of each cloud cell's session (the session, its video and logs), added to a browser test's
 * summary after the run, as mobile UI tests' are, and what the provider billed for the cell's sessions (its page
 * checks' and its spec files', decision 0106): `billedMinutes`, null when it did not answer. Nothing here fails the
 * attempt or throws.
 */
export async function addCloudCellLinks(db: Db, keys: ServerKeys, clientId: string, summary: RunnerSummary | null | undefined, o: { allowPrivate: boolean; log?: (message: string, data?: Record<string, unknown>) => void }): Promise<void> {
  if (summary?.kind !== 'browser' || !summary.cloudCells?.length) return;
  const cells = summary.cloudCells.filter((c) => c.sessionId || c.specFiles?.connections);
  if (!cells.length) return;
  try {
    const row = await findMobileProvider(db, clientId);
    if (!row || !isMobileCloudKind(row.kind)) return;
    const key = storedKey(keys, row);
    await Promise.all(
      cells.map(async (c) => {
        // Each of the cell's sessions adds what the provider billed for it; one it did not answer for leaves the sum unknown.
        const billed: (number | undefined)[] = [];
        try {
          if (row.kind === 'devicefarm') {
            if (!row.testGridProjectArn || !key || !c.sessionId) return;
            const client = deviceFarmClient(deviceFarmAccountOf(row, key), o.allowPrivate);
            const found = await testGridSessionLinks(client, row.testGridProjectArn, c.sessionId, key);
            if (found.links.length) c.providerLinks = found.links;
            if (found.note) c.providerNote = found.note;
            billed.push(found.billedMinutes);
            return;
          }
          if (!row.username || !key || !row.apiUrl) {
            c.providerNote = 'the provider’s video and log links need its user name and access key, which are not set';
            billed.push(undefined);
            return;
          }
          const account = { kind: row.kind as 'browserstack' | 'saucelabs', apiUrl: row.apiUrl, username: row.username, accessKey: key };
          if (c.sessionId) {
            const found = await cloudSessionLinks(account, c.sessionId, o.allowPrivate, 'browser');
            if (found.links.length) c.providerLinks = found.links;
            if (found.note) c.providerNote = found.note;
            billed.push(found.billedMinutes);
          }
          if (c.specFiles?.connections && account.kind === 'browserstack') {
            const specs = await browserStackBuildSessions(account, c.specFiles.build, o.allowPrivate);
            if (specs) c.specSessionIds = specs.ids;
            billed.push(specs ? billedMinutesOf(specs.seconds) : undefined);
          }
        } catch (err) {
          c.providerNote = 'the provider’s video and log links could not be fetched';
          billed.push(undefined);
          o.log?.('the provider’s session links could not be fetched', { cell: c.label, error: (err as Error).message });
        } finally {
          c.billedMinutes = billed.length && billed.every((m) => m !== undefined) ? Math.round(billed.reduce((sum: number, m) => sum + m!, 0) * 10) / 10 : null;
        }
      }),
    );
    o.log?.('cloud cell session links', { cells: cells.map((c) => ({ cell: c.label, links: c.providerLinks?.length ?? 0, billedMinutes: c.billedMinutes ?? null, ...(c.providerNote ? { note: c.providerNote } : {}) })) });
  } catch (err) {
    o.log?.('the provider’s session links could not be fetched', { error: (err as Error).message });
  }
}
