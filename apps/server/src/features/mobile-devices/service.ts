import type { AppiumEndpoint } from '@fullstop/engine';
import type { ClientMobileProviderResponse, MobileProvider, MobileProviderTestResponse, SetMobileProviderBody } from '@fullstop/contracts';
import type { Db } from '../../db/database.ts';
import { openApiKey, sealApiKey } from '../../lib/api-keys.ts';
import { ValidationError } from '../../lib/errors.ts';
import { OutboundUnreachableError, outboundRequest, outboundUrlRefusal } from '../../lib/outbound-http.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { deleteMobileProvider, findMobileProvider, type MobileProviderRow, upsertMobileProvider } from './repository.ts';

const USER_AGENT = 'FullstopQA-MobileDevices';
const TEST_DEADLINE_MS = 10_000;

export interface MobileDevicesDeps {
  db: Db;
  keys: ServerKeys;
  /** Whether this client's endpoint may be a loopback or private address (the target policy of its runs). */
  allowPrivate: (clientId: string) => boolean;
}

const originOf = (url: string) => new URL(url).origin;

export function mobileProviderView(row: MobileProviderRow): MobileProvider {
  return {
    kind: row.kind as MobileProvider['kind'],
    url: row.url,
    username: row.username,
    accessKeyHint: row.accessKeyHint ? `••••${row.accessKeyHint}` : null,
    capabilities: row.capabilities ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The stored key, opened only while the endpoint is still on the origin it was given for (decision 0076). */
function storedKey(keys: ServerKeys, row: MobileProviderRow): string | null {
  if (!row.accessKey || row.accessKeyBoundTo !== originOf(row.url)) return null;
  return openApiKey(keys, row.accessKey);
}

/** The client's provider as a run's Appium endpoint (the key opened), or null when none is set. */
export async function appiumEndpointFor(db: Db, keys: ServerKeys, clientId: string): Promise<AppiumEndpoint | null> {
  const row = await findMobileProvider(db, clientId);
  if (!row) return null;
  const accessKey = storedKey(keys, row);
  return {
    url: row.url,
    ...(row.username ? { username: row.username } : {}),
    ...(accessKey ? { accessKey } : {}),
    ...(row.capabilities ? { capabilities: row.capabilities } : {}),
  };
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
    const refusal = await outboundUrlRefusal(body.url, this.deps.allowPrivate(clientId));
    if (refusal) throw new ValidationError(`url is refused: ${refusal}`, 'url');
    const existing = await findMobileProvider(this.deps.db, clientId);
    const origin = originOf(body.url);
    let key: { accessKey: string | null; accessKeyHint: string | null; accessKeyBoundTo: string | null };
    if (body.accessKey) {
      key = { accessKey: sealApiKey(this.deps.keys, body.accessKey), accessKeyHint: body.accessKey.slice(-4), accessKeyBoundTo: origin };
    } else if (body.accessKey === null || !existing?.accessKey) {
      key = { accessKey: null, accessKeyHint: null, accessKeyBoundTo: null };
    } else if (existing.accessKeyBoundTo === origin) {
      key = { accessKey: existing.accessKey, accessKeyHint: existing.accessKeyHint, accessKeyBoundTo: existing.accessKeyBoundTo };
    } else {
      throw new ValidationError(`the access key is required again: the stored key was given for ${existing.accessKeyBoundTo ?? 'another address'} only`, 'accessKey');
    }
    const row = await upsertMobileProvider(this.deps.db, {
      clientId,
      kind: body.kind,
      url: body.url,
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
