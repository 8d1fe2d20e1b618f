import type { AppiumEndpoint } from '@fullstop/engine';
import path from 'node:path';
import { type ClientMobileProviderResponse, isMobileCloudKind, type MobileProvider, mobileCloudEndpoints, type MobileProviderTestResponse, SAUCE_REGIONS, type SetMobileProviderBody } from '@fullstop/contracts';
import type { Db } from '../../db/database.ts';
import { openApiKey, sealApiKey } from '../../lib/api-keys.ts';
import { ValidationError } from '../../lib/errors.ts';
import { OutboundUnreachableError, outboundRequest, outboundUrlRefusal } from '../../lib/outbound-http.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { currentBuild } from '../uploads/index.ts';
import { CloudStorageError, fileSha256, uploadToCloud } from './clouds/storage.ts';
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
    accessKeyHint: row.accessKeyHint ? `••••${row.accessKeyHint}` : null,
    capabilities: row.capabilities ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The stored key, opened only while the endpoint is still on the origin it was given for (decision 0076). */
function storedKey(keys: ServerKeys, row: MobileProviderRow): string | null {
  if (!row.accessKey || row.accessKeyBoundTo !== bindingOf(row.url, row.apiUrl)) return null;
  return openApiKey(keys, row.accessKey);
}

/** The build a mobile UI test runs: its file on this machine (null when none is uploaded) and the target policy. */
export interface MobileBuild {
  file: string | null;
  platform: 'android' | 'ios';
  allowPrivate: boolean;
  log?: (message: string) => void;
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
  if (isMobileCloudKind(row.kind) && build?.file && row.apiUrl) {
    if (!row.username || !accessKey) throw new CloudStorageError('the device provider has no user name and access key: an operator must set them', 'validation_error');
    const appId = await cloudAppId(db, { clientId, kind: row.kind, apiUrl: row.apiUrl, username: row.username, accessKey }, build.file, build);
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

/** The build's id in the cloud account's storage: the one remembered for its sha256, or a new upload's. */
async function cloudAppId(
  db: Db,
  account: { clientId: string; kind: 'browserstack' | 'saucelabs'; apiUrl: string; username: string; accessKey: string },
  file: string,
  build: MobileBuild,
): Promise<string> {
  // The upload recorded the build's sha256: a build of hundreds of MB is not read again for every attempt.
  const sha256 = (await currentBuild(db, account.clientId, build.platform))?.sha256 ?? (await fileSha256(file));
  const storage = `${account.kind} ${originOf(account.apiUrl)} ${account.username}`;
  const known = await findAppUpload(db, account.clientId, storage, sha256, new Date(Date.now() - APP_ID_REUSE_MS));
  if (known) {
    build.log?.(`the build (sha256 ${sha256.slice(0, 12)}…) is in the provider's app storage already: ${known}`);
    return known;
  }
  const started = Date.now();
  const appId = await uploadToCloud(account, { file, filename: path.basename(file) }, build.allowPrivate);
  build.log?.(`the build (sha256 ${sha256.slice(0, 12)}…) was uploaded to the provider's app storage in ${Date.now() - started} ms: ${appId}`);
  await saveAppUpload(db, { clientId: account.clientId, storage, sha256, appId });
  return appId;
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
    const url = body.url ?? cloud?.url;
    if (!url) throw new ValidationError('the Appium URL is required', 'url');
    const apiUrl = cloud ? (body.apiUrl ?? cloud.apiUrl) : null;
    if (cloud && !body.username) throw new ValidationError('username is required for a cloud provider (its user name, with the access key)', 'username');
    const allowPrivate = this.deps.allowPrivate(clientId);
    for (const [field, value] of [['url', url], ['apiUrl', apiUrl]] as const) {
      const refusal = value ? await outboundUrlRefusal(value, allowPrivate) : null;
      if (refusal) throw new ValidationError(`${field} is refused: ${refusal}`, field);
    }
    const existing = await findMobileProvider(this.deps.db, clientId);
    const origin = bindingOf(url, apiUrl);
    let key: { accessKey: string | null; accessKeyHint: string | null; accessKeyBoundTo: string | null };
    if (body.accessKey) {
      key = { accessKey: sealApiKey(this.deps.keys, body.accessKey), accessKeyHint: body.accessKey.slice(-4), accessKeyBoundTo: origin };
    } else if (body.accessKey === null || !existing?.accessKey) {
      if (cloud) throw new ValidationError('accessKey is required for a cloud provider', 'accessKey');
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
      capabilities: body.capabilities ?? null,
      ...key,
    });
    return { provider: mobileProviderView(row), newKey: Boolean(body.accessKey) };
  }

  async remove(clientId: string): Promise<boolean> {
    return deleteMobileProvider(this.deps.db, clientId);
  }

  /** `GET <url>/status` through the target policy, with the provider's credentials; what Appium answered. */
  async test(row: MobileProviderRow): Promise<MobileProviderTestResponse> {
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
