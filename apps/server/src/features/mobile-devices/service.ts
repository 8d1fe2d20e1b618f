import { type AppiumEndpoint, type DeviceSessionRequest, KIND_SCHEMAS, type RunnerSummary, type TestDefinition } from '@fullstop/engine';
import path from 'node:path';
import { AWS_ACCESS_KEY_ID, type ClientMobileProviderResponse, isMobileCloudKind, type MobileProvider, mobileCloudEndpoints, type MobileProviderTestResponse, SAUCE_REGIONS, type SetMobileProviderBody } from '@fullstop/contracts';
import { GetProjectCommand } from '@aws-sdk/client-device-farm';
import type { Db } from '../../db/database.ts';
import { openApiKey, sealApiKey } from '../../lib/api-keys.ts';
import { ValidationError } from '../../lib/errors.ts';
import { OutboundUnreachableError, outboundRequest, outboundUrlRefusal } from '../../lib/outbound-http.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { currentBuild } from '../uploads/index.ts';
import { DeviceFarmAttempt, type DeviceFarmAccount, deviceFarmClient, deviceFarmError, uploadToDeviceFarm } from './clouds/device-farm.ts';
import { cloudSessionLinks } from './clouds/session-links.ts';
import { type CloudKind, CloudStorageError, fileSha256, uploadToCloud } from './clouds/storage.ts';
import { deleteMobileProvider, findAppUpload, findMobileProvider, type MobileProviderRow, saveAppUpload, upsertMobileProvider } from './repository.ts';

const USER_AGENT = 'FullstopQA-MobileDevices';
const TEST_DEADLINE_MS = 10_000;

export interface MobileDevicesDeps {
  db: Db;
  keys: ServerKeys;
  /** Whether this client's endpoint may be a loopback or private address (the target policy of its runs). */
  allowPrivate: (clientId: string) => boolean;
}

const originOf = (url: string) => new URL(url).origin;
/** The origins a key is bound to: the hub's, and a cloud's REST API's after a space. */
const bindingOf = (url: string, apiUrl: string | null | undefined) => (apiUrl ? `${originOf(url)} ${originOf(apiUrl)}` : originOf(url));
/** Sauce Labs' data center of a hub on its own domain. */
const regionOf = (url: string) => SAUCE_REGIONS.find((r) => new URL(url).host === `ondemand.${r}.saucelabs.com`) ?? null;
/**
 * How long a build's app id is reused. BrowserStack deletes an upload 30 days after it (browserstack.com/docs/
 * app-automate/appium/upload-app-from-filesystem); Sauce Labs keeps files longer. Older: uploaded again.
 */
const APP_ID_REUSE_MS = 25 * 24 * 3600_000;

export function mobileProviderView(row: MobileProviderRow): MobileProvider {
  return {
    kind: row.kind as MobileProvider['kind'],
    url: row.url,
    apiUrl: row.apiUrl,
    region: row.kind === 'saucelabs' ? regionOf(row.url) : null,
    username: row.username,
    projectArn: row.projectArn,
    testGridProjectArn: row.testGridProjectArn,
    cloudMinutesPerRun: row.cloudMinutesPerRun,
    accessKeyHint: row.accessKeyHint ? `••••${row.accessKeyHint}` : null,
    capabilities: row.capabilities ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The stored key, opened only while the endpoint is still on the origin it was given for (decision 0076). */
export function storedKey(keys: ServerKeys, row: MobileProviderRow): string | null {
  if (!row.accessKey || row.accessKeyBoundTo !== bindingOf(row.url, row.apiUrl)) return null;
  return openApiKey(keys, row.accessKey);
}

/** The build a mobile UI test runs: its file on this machine (null when none is uploaded) and the target policy. */
export interface MobileBuild {
  file: string | null;
  platform: 'android' | 'ios';
  allowPrivate: boolean;
  log?: (message: string, data?: Record<string, unknown>) => void;
  /** The attempt (its row's id): a provider that opens a session per device keeps them under it (deviceSessionsFor). */
  attemptKey?: string;
  /** The attempt's signal: aborted, no session is opened any more. */
  signal?: AbortSignal;
}

/** The Device Farm sessions of the attempts running in this process, by attempt; removed when the attempt ends. */
const deviceFarmAttempts = new Map<string, DeviceFarmAttempt>();

/** The Device Farm account of a provider row, or why it cannot be used (a validation error: not retried). */
export function deviceFarmAccountOf(row: MobileProviderRow, secretAccessKey: string | null): DeviceFarmAccount {
  if (!row.username || !secretAccessKey || !row.projectArn || !row.apiUrl) {
    throw new CloudStorageError('the AWS Device Farm provider has no access key ID, secret access key or project ARN: an operator must set them', 'validation_error');
  }
  return { apiUrl: row.apiUrl, accessKeyId: row.username, secretAccessKey, projectArn: row.projectArn };
}

/**
 * The client's provider as a run's Appium endpoint (the key opened), or null when none is set. On a cloud the build
 * goes to the provider's app storage first, only when this account has no copy of it (by sha256), and the session's
 * `appium:app` is the provider's app id.
 */
export async function appiumEndpointFor(db: Db, keys: ServerKeys, clientId: string, build?: MobileBuild): Promise<AppiumEndpoint | null> {
  const row = await findMobileProvider(db, clientId);
  if (!row) return null;
  const accessKey = storedKey(keys, row);
  let capabilities = row.capabilities ?? null;
  if (row.kind === 'devicefarm') {
    // The build goes to the project; each device is a remote access session opened when the runner reaches it.
    const { app: _app, 'appium:app': _appiumApp, ...rest } = capabilities ?? {};
    const endpoint: AppiumEndpoint = { url: row.url, sessionPerDevice: true, ...(Object.keys(rest).length ? { capabilities: rest } : {}) };
    if (!build?.file) return endpoint;
    const account = deviceFarmAccountOf(row, accessKey);
    const client = deviceFarmClient(account, build.allowPrivate);
    const file = build.file;
    const appArn = await cloudAppId(db, { clientId, storage: `devicefarm ${originOf(account.apiUrl)} ${account.projectArn}` }, file, build, () =>
      uploadToDeviceFarm(client, account, { file, filename: path.basename(file), platform: build.platform }, build.allowPrivate, build.signal),
    );
    if (build.attemptKey) deviceFarmAttempts.set(build.attemptKey, new DeviceFarmAttempt(client, account, appArn, build.platform, build.signal ?? new AbortController().signal, build.log ?? (() => {})));
    return endpoint;
  }
  if ((row.kind === 'browserstack' || row.kind === 'saucelabs') && build?.file && row.apiUrl) {
    if (!row.username || !accessKey) throw new CloudStorageError('the device provider has no user name and access key: an operator must set them', 'validation_error');
    const account = { kind: row.kind as CloudKind, apiUrl: row.apiUrl, username: row.username, accessKey };
    const file = build.file;
    const appId = await cloudAppId(db, { clientId, storage: `${account.kind} ${originOf(account.apiUrl)} ${account.username}` }, file, build, () =>
      uploadToCloud(account, { file, filename: path.basename(file) }, build.allowPrivate),
    );
    const { app: _app, 'appium:app': _appiumApp, ...rest } = capabilities ?? {};
    capabilities = { ...rest, 'appium:app': appId };
  }
  return {
    url: row.url,
    ...(row.username ? { username: row.username } : {}),
    ...(accessKey ? { accessKey } : {}),
    ...(capabilities ? { capabilities } : {}),
  };
}

/**
 * The provider's video and log pages of each device's session, added to a mobile UI test's summary (its report
 * header) after the run, where the provider gives them: BrowserStack and Sauce Labs by the Appium session's id. A
 * provider that answers nothing useful leaves a one-line note; nothing here fails the attempt or throws.
 */
export async function addProviderLinks(
  db: Db,
  keys: ServerKeys,
  clientId: string,
  summary: RunnerSummary | null | undefined,
  options: { allowPrivate: boolean; attemptKey?: string; log?: (message: string, data?: Record<string, unknown>) => void },
): Promise<void> {
  if (summary?.kind !== 'mobile-ui') return;
  // Device Farm: each device's session is stopped (it bills until then), its artifacts are the links.
  const farm = options.attemptKey ? deviceFarmAttempts.get(options.attemptKey) : undefined;
  if (farm) {
    await farm.stopAll();
    for (const opened of farm.devices()) {
      const d = summary.devices[opened.index];
      const found = farm.linksOf(opened.index);
      if (!d) continue;
      if (found?.links.length) d.providerLinks = found.links;
      if (found?.note) d.providerNote = found.note;
      else if (!found) d.providerNote = 'AWS Device Farm’s session could not be stopped to list its video and logs';
    }
    return;
  }
  const devices = summary.devices.filter((d) => d.sessionId);
  if (!devices.length) return;
  try {
    const row = await findMobileProvider(db, clientId);
    if (!row || (row.kind !== 'browserstack' && row.kind !== 'saucelabs') || !row.apiUrl) return;
    const accessKey = storedKey(keys, row);
    if (!row.username || !accessKey) {
      for (const d of devices) d.providerNote = 'the provider’s video and log links need its user name and access key, which are not set';
      return;
    }
    const account = { kind: row.kind as CloudKind, apiUrl: row.apiUrl, username: row.username, accessKey };
    await Promise.all(
      devices.map(async (d) => {
        try {
          const found = await cloudSessionLinks(account, d.sessionId!, options.allowPrivate);
          if (found.links.length) d.providerLinks = found.links;
          if (found.note) d.providerNote = found.note;
        } catch (err) {
          d.providerNote = 'the provider’s video and log links could not be fetched';
          options.log?.('the provider’s session links could not be fetched', { device: d.label, error: (err as Error).message });
        }
      }),
    );
    options.log?.('provider session links', { devices: devices.map((d) => ({ device: d.label, links: d.providerLinks?.length ?? 0, ...(d.providerNote ? { note: d.providerNote } : {}) })) });
  } catch (err) {
    options.log?.('the provider’s session links could not be fetched', { error: (err as Error).message });
  }
}

/**
 * The build's id in the cloud account's storage: the one remembered for its sha256, or a new upload's. BrowserStack
 * deletes an upload after 30 days and Device Farm lets one expire after 30 days: reused for 25.
 */
async function cloudAppId(db: Db, account: { clientId: string; storage: string }, file: string, build: MobileBuild, upload: () => Promise<string>): Promise<string> {
  // The upload recorded the build's sha256: a build of hundreds of MB is not read again for every attempt.
  const sha256 = (await currentBuild(db, account.clientId, build.platform))?.sha256 ?? (await fileSha256(file));
  const { storage } = account;
  const known = await findAppUpload(db, account.clientId, storage, sha256, new Date(Date.now() - APP_ID_REUSE_MS));
  if (known) {
    build.log?.(`the build (sha256 ${sha256.slice(0, 12)}…) is in the provider's app storage already: ${known}`);
    return known;
  }
  const started = Date.now();
  const appId = await upload();
  build.log?.(`the build (sha256 ${sha256.slice(0, 12)}…) was uploaded to the provider's app storage in ${Date.now() - started} ms: ${appId}`);
  await saveAppUpload(db, { clientId: account.clientId, storage, sha256, appId });
  return appId;
}

/**
 * How many devices a mobile UI test lists, from its options as its runner reads them (the kind's schema: one device
 * when it lists none); 0 when they are not valid (its runner then refuses the test before it opens any device).
 */
export function devicesOfTest(test: Pick<TestDefinition, 'options' | 'thresholds'>): number {
  const parsed = KIND_SCHEMAS['mobile-ui'].safeParse({ options: test.options ?? {}, thresholds: test.thresholds ?? {} });
  const devices = parsed.success ? (parsed.data as { options?: { devices?: unknown } }).options?.devices : undefined;
  return Array.isArray(devices) ? devices.length : 0;
}

/**
 * What the runner of an attempt of `test` calls to open and let go a device's session (AppiumEndpoint.sessionPerDevice),
 * or nothing when the attempt's provider opens none. A session is opened only for one of the test's own devices
 * (issue 37): the runner is the hostile side, and each session bills the client.
 */
export function deviceSessionsFor(
  attemptKey: string,
  test: Pick<TestDefinition, 'options' | 'thresholds'>,
): { openDevice: (request: DeviceSessionRequest) => Promise<{ url: string }>; closeDevice: (index: number) => Promise<void> } | Record<string, never> {
  const farm = deviceFarmAttempts.get(attemptKey);
  if (!farm) return {};
  const devices = devicesOfTest(test);
  return { openDevice: (request) => farm.open(request, devices), closeDevice: (index) => farm.close(index) };
}

/** The attempt has ended, however: every device session it opened is stopped (a running one bills the client). */
export async function endMobileAttempt(attemptKey: string): Promise<void> {
  const farm = deviceFarmAttempts.get(attemptKey);
  if (!farm) return;
  try {
    await farm.stopAll();
  } finally {
    deviceFarmAttempts.delete(attemptKey);
  }
}

/** A client's device provider (issue 28): set by an operator, its access key sealed and bound to the endpoint's origin. */
export class MobileDevicesService {
  constructor(private readonly deps: MobileDevicesDeps) {}

  async get(clientId: string): Promise<MobileProvider | null> {
    const row = await findMobileProvider(this.deps.db, clientId);
    return row ? mobileProviderView(row) : null;
  }

  /** What the client's people see: whether one is set, its kind and host. */
  async summary(clientId: string): Promise<ClientMobileProviderResponse> {
    const row = await findMobileProvider(this.deps.db, clientId);
    return row ? { set: true, kind: row.kind as MobileProvider['kind'], host: new URL(row.url).host } : { set: false, kind: null, host: null };
  }

  async set(clientId: string, body: SetMobileProviderBody): Promise<{ provider: MobileProvider; newKey: boolean }> {
    const cloud = isMobileCloudKind(body.kind) ? mobileCloudEndpoints(body.kind, body.region ?? undefined) : null;
    if (!cloud && (body.apiUrl || body.region)) throw new ValidationError(`${body.apiUrl ? 'apiUrl' : 'region'} is only for a cloud provider`, body.apiUrl ? 'apiUrl' : 'region');
    if (body.kind !== 'saucelabs' && body.region) throw new ValidationError('region is only for Sauce Labs', 'region');
    const farm = body.kind === 'devicefarm';
    if (!farm && body.projectArn) throw new ValidationError('projectArn is only for AWS Device Farm', 'projectArn');
    if (!farm && body.testGridProjectArn) throw new ValidationError('testGridProjectArn is only for AWS Device Farm (BrowserStack and Sauce Labs run browsers on their hub)', 'testGridProjectArn');
    if (!cloud && body.cloudMinutesPerRun != null) throw new ValidationError('cloudMinutesPerRun is only for a device cloud (an Appium server runs no cloud cells)', 'cloudMinutesPerRun');
    if (farm) {
      // Each device's Appium endpoint is its remote access session's: there is no hub URL to give.
      if (body.url) throw new ValidationError('url is not used for AWS Device Farm (each device’s Appium endpoint is its remote access session’s); apiUrl overrides the API', 'url');
      if (!body.username) throw new ValidationError('username (the AWS access key ID) is required for AWS Device Farm', 'username');
      if (!AWS_ACCESS_KEY_ID.test(body.username)) throw new ValidationError('username must be an AWS access key ID (16 to 128 capital letters and digits, e.g. AKIAIOSFODNN7EXAMPLE)', 'username');
      if (!body.projectArn) throw new ValidationError('projectArn is required for AWS Device Farm (arn:aws:devicefarm:us-west-2:<12-digit account>:project:<id>)', 'projectArn');
    }
    const apiUrl = cloud ? (body.apiUrl ?? cloud.apiUrl) : null;
    const url = farm ? apiUrl : (body.url ?? cloud?.url);
    if (!url) throw new ValidationError('the Appium URL is required', 'url');
    if (cloud && !body.username) throw new ValidationError('username is required for a cloud provider (its user name, with the access key)', 'username');
    const allowPrivate = this.deps.allowPrivate(clientId);
    // Device Farm's `url` is its API's: judged (and named) as `apiUrl`.
    for (const [field, value] of farm ? ([['apiUrl', apiUrl]] as const) : ([['url', url], ['apiUrl', apiUrl]] as const)) {
      const refusal = value ? await outboundUrlRefusal(value, allowPrivate) : null;
      if (refusal) throw new ValidationError(`${field === 'url' ? (cloud ? 'the hub URL' : 'the Appium URL') : farm ? 'the API URL' : 'the REST API URL'} is refused: ${refusal}`, field);
    }
    const existing = await findMobileProvider(this.deps.db, clientId);
    const origin = bindingOf(url, apiUrl);
    let key: { accessKey: string | null; accessKeyHint: string | null; accessKeyBoundTo: string | null };
    if (body.accessKey) {
      key = { accessKey: sealApiKey(this.deps.keys, body.accessKey), accessKeyHint: body.accessKey.slice(-4), accessKeyBoundTo: origin };
    } else if (body.accessKey === null || !existing?.accessKey) {
      if (cloud) throw new ValidationError(farm ? 'accessKey (the AWS secret access key) is required for AWS Device Farm' : 'accessKey is required for a cloud provider', 'accessKey');
      key = { accessKey: null, accessKeyHint: null, accessKeyBoundTo: null };
    } else if (existing.accessKeyBoundTo === origin) {
      key = { accessKey: existing.accessKey, accessKeyHint: existing.accessKeyHint, accessKeyBoundTo: existing.accessKeyBoundTo };
    } else {
      throw new ValidationError(`the access key is required again: the stored key was given for ${existing.accessKeyBoundTo ?? 'another address'} only`, 'accessKey');
    }
    const row = await upsertMobileProvider(this.deps.db, {
      clientId,
      kind: body.kind,
      url,
      apiUrl,
      username: body.username || null,
      projectArn: farm ? body.projectArn! : null,
      testGridProjectArn: farm ? (body.testGridProjectArn ?? null) : null,
      cloudMinutesPerRun: cloud ? (body.cloudMinutesPerRun ?? null) : null,
      capabilities: body.capabilities ?? null,
      ...key,
    });
    return { provider: mobileProviderView(row), newKey: Boolean(body.accessKey) };
  }

  async remove(clientId: string): Promise<boolean> {
    return deleteMobileProvider(this.deps.db, clientId);
  }

  /**
   * `GET <url>/status` through the target policy, with the provider's credentials; what Appium answered. AWS Device
   * Farm: its project (GetProject), which proves the keys, the region and the ARN at once.
   */
  async test(row: MobileProviderRow): Promise<MobileProviderTestResponse> {
    if (row.kind === 'devicefarm') {
      try {
        const account = deviceFarmAccountOf(row, storedKey(this.deps.keys, row));
        const project = (await deviceFarmClient(account, this.deps.allowPrivate(row.clientId)).send(new GetProjectCommand({ arn: account.projectArn }))).project;
        return { ok: true, status: 200, message: `AWS Device Farm answered: project “${project?.name ?? account.projectArn}”` };
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? null;
        return { ok: false, status, message: deviceFarmError(err, 'when asked for the project').message };
      }
    }
    const statusUrl = `${row.url.replace(/\/+$/, '')}/status`;
    const key = storedKey(this.deps.keys, row);
    const headers: Record<string, string> = {};
    if (row.username && key) headers.authorization = `Basic ${Buffer.from(`${row.username}:${key}`).toString('base64')}`;
    try {
      const res = await outboundRequest(statusUrl, { method: 'GET', headers, allowPrivate: this.deps.allowPrivate(row.clientId), userAgent: USER_AGENT, deadlineMs: TEST_DEADLINE_MS });
      const value = res.json<{ value?: { ready?: boolean; message?: string; build?: { version?: string } } }>()?.value;
      if (res.status !== 200) return { ok: false, status: res.status, message: `${statusUrl} answered ${res.status}${res.status === 401 || res.status === 403 ? ': check the user name and access key' : ''}` };
      if (!value) return { ok: false, status: 200, message: `${statusUrl} answered 200, but not as an Appium server (no "value" in its JSON)` };
      const ready = value.ready !== false;
      const version = value.build?.version ? `Appium ${value.build.version}` : 'the server';
      return { ok: ready, status: 200, message: `${version} answered: ${ready ? 'ready' : 'not ready'}${value.message ? ` (${value.message})` : ''}` };
    } catch (err) {
      if (err instanceof OutboundUnreachableError) return { ok: false, status: null, message: `${statusUrl} could not be reached: ${err.message}` };
      throw err;
    }
  }
}
