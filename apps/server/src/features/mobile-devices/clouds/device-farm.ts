import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CreateRemoteAccessSessionCommand,
  CreateUploadCommand,
  type Device,
  DeviceFarmClient,
  type DeviceFilter,
  GetRemoteAccessSessionCommand,
  GetUploadCommand,
  ListArtifactsCommand,
  ListDevicesCommand,
  type RemoteAccessSession,
  StopRemoteAccessSessionCommand,
} from '@aws-sdk/client-device-farm';
import { DEVICE_FARM_REGION } from '@fullstop/contracts';
import type { DeviceSessionRequest } from '@fullstop/engine';
import { MAX_DEVICES_PER_TEST } from '@fullstop/engine/kinds';
import { OutboundUnreachableError, outboundRequest } from '../../../lib/outbound-http.ts';
import type { ProviderLink, SessionLinks } from './session-links.ts';
import { CloudStorageError } from './storage.ts';

// AWS Device Farm (issue 28, decision 0085), through its API with the AWS SDK (SigV4 is the SDK's), every call sent
// through the target policy (lib/outbound-http.ts) by the client's request handler below:
// - the build: CreateUpload (ANDROID_APP / IOS_APP) → PUT of the file to the presigned URL → GetUpload until SUCCEEDED;
// - each device of a test: a device picked with ListDevices (or an ARN given), CreateRemoteAccessSession with the
//   build's upload ARN, GetRemoteAccessSession until RUNNING, then its `endpoints.remoteDriverEndpoint` is the
//   device's Appium endpoint; StopRemoteAccessSession always (the device bills until it is stopped), then its
//   artifacts (ListArtifacts: video, Appium and device logs) are the report's links.

const USER_AGENT = 'FullstopQA-MobileDevices';
/** One API call, from the lookup to the body's last byte. */
const API_CALL_DEADLINE_MS = 30_000;
/** The build's PUT to the presigned URL: up to 4 GB (Device Farm's limit) takes minutes. */
const UPLOAD_PUT_DEADLINE_MS = 15 * 60_000;
/** How long Device Farm may process an upload before the attempt gives up on it. */
const UPLOAD_PROCESSING_MS = 10 * 60_000;
/** How long the artifacts of a stopped session may take to be listed (the session moves to COMPLETED first). */
const ARTIFACTS_WAIT_MS = 30_000;

/** Between two polls of an upload or a session; tests make it short. */
export const deviceFarmTiming = { pollMs: 2_000 };

export interface DeviceFarmAccount {
  /** The API's base, `https://devicefarm.us-west-2.amazonaws.com` unless overridden (a test's fake). */
  apiUrl: string;
  accessKeyId: string;
  secretAccessKey: string;
  projectArn: string;
}

/**
 * The SDK's HTTP handler: each request through `outboundRequest` (the target policy: http(s), no private address
 * unless allowed, the judged address pinned for the connection, a deadline), its answer handed back as the SDK
 * reads it. The SDK signs the request before it gets here; only `accept` and the user agent's default are added,
 * neither of them signed.
 */
export function outboundHttpHandler(allowPrivate: boolean) {
  return {
    metadata: { handlerProtocol: 'http/1.1' },
    async handle(request: { method: string; protocol: string; hostname: string; port?: number; path: string; query?: Record<string, string | string[] | null>; headers: Record<string, string>; body?: unknown }) {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(request.query ?? {})) {
        for (const v of Array.isArray(value) ? value : [value]) query.append(name, v ?? '');
      }
      const qs = query.toString();
      const url = `${request.protocol}//${request.hostname}${request.port ? `:${request.port}` : ''}${request.path}${qs ? `?${qs}` : ''}`;
      // The SDK's JSON body is a Uint8Array (of its own class): read as its bytes, never through valueOf().
      const raw = request.body;
      const body = raw === undefined || raw === null ? undefined : typeof raw === 'string' ? raw : raw instanceof Uint8Array ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8') : String(raw);
      const res = await outboundRequest(url, { method: request.method, headers: request.headers, ...(body !== undefined ? { body } : {}), allowPrivate, userAgent: USER_AGENT, deadlineMs: API_CALL_DEADLINE_MS });
      return { response: { statusCode: res.status, headers: res.headers, body: Buffer.from(res.body, 'utf8') } };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs() {
      return {};
    },
    destroy() {},
  };
}

export function deviceFarmClient(account: DeviceFarmAccount, allowPrivate: boolean): DeviceFarmClient {
  return new DeviceFarmClient({
    region: DEVICE_FARM_REGION,
    endpoint: account.apiUrl,
    credentials: { accessKeyId: account.accessKeyId, secretAccessKey: account.secretAccessKey },
    requestHandler: outboundHttpHandler(allowPrivate) as never,
    // One try: a retried CreateRemoteAccessSession could open a second device that bills.
    maxAttempts: 1,
  });
}

/** What the SDK threw, in words, and whether it is the account's fault (not retried) or not. */
export function deviceFarmError(err: unknown, doing: string): CloudStorageError {
  if (err instanceof CloudStorageError) return err;
  if (err instanceof OutboundUnreachableError) return new CloudStorageError(`AWS Device Farm could not be reached ${doing}: ${err.message}`);
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const name = e.name ?? 'Error';
  const credentials = /UnrecognizedClient|InvalidSignature|InvalidClientTokenId|SignatureDoesNotMatch|AccessDenied|NotAuthorized|ExpiredToken|MissingAuthenticationToken/i.test(name);
  if (credentials) return new CloudStorageError(`AWS Device Farm refused the access key ID and secret access key (${name}) ${doing}: an operator must check the client’s device provider`, 'validation_error');
  const said = (e.message ?? '').slice(0, 300);
  if (status !== undefined && status >= 400 && status < 500) return new CloudStorageError(`AWS Device Farm refused ${doing} (${name})${said ? `: ${said}` : ''}`, 'validation_error');
  return new CloudStorageError(`AWS Device Farm failed ${doing} (${name}${status ? ` ${status}` : ''})${said ? `: ${said}` : ''}`);
}

/**
 * Uploads the build to the project and answers its upload ARN once Device Farm has processed it: CreateUpload, the
 * file streamed to the presigned URL (through the target policy, no credentials: the URL carries its signature),
 * GetUpload until SUCCEEDED. FAILED is the build's fault: a validation error with Device Farm's reason.
 */
export async function uploadToDeviceFarm(
  client: DeviceFarmClient,
  account: DeviceFarmAccount,
  build: { file: string; filename: string; platform: 'android' | 'ios' },
  allowPrivate: boolean,
  signal?: AbortSignal,
): Promise<string> {
  let upload;
  try {
    upload = (await client.send(new CreateUploadCommand({ projectArn: account.projectArn, name: build.filename, type: build.platform === 'android' ? 'ANDROID_APP' : 'IOS_APP', contentType: 'application/octet-stream' }))).upload;
  } catch (err) {
    throw deviceFarmError(err, 'when the build’s upload was created');
  }
  if (!upload?.arn || !upload.url) throw new CloudStorageError('AWS Device Farm answered CreateUpload without an upload ARN and URL');
  const { size } = await stat(build.file);
  let put;
  try {
    put = await outboundRequest(upload.url, {
      method: 'PUT',
      allowPrivate,
      userAgent: USER_AGENT,
      deadlineMs: UPLOAD_PUT_DEADLINE_MS,
      headers: { 'content-type': 'application/octet-stream' },
      body: { length: size, stream: () => createReadStream(build.file) },
    });
  } catch (err) {
    throw deviceFarmError(err, 'when the build was sent to its upload URL');
  }
  if (put.status !== 200) throw new CloudStorageError(`AWS Device Farm's upload URL answered ${put.status} to the build`);
  const until = Date.now() + UPLOAD_PROCESSING_MS;
  for (;;) {
    signal?.throwIfAborted();
    let got;
    try {
      got = (await client.send(new GetUploadCommand({ arn: upload.arn }))).upload;
    } catch (err) {
      throw deviceFarmError(err, 'when the build’s upload was checked');
    }
    if (got?.status === 'SUCCEEDED') return upload.arn;
    if (got?.status === 'FAILED') {
      const why = [got.message, got.metadata].filter((v) => typeof v === 'string' && v).join(' — ').slice(0, 1000);
      throw new CloudStorageError(`AWS Device Farm could not process the build${why ? `: ${why}` : ''}`, 'validation_error');
    }
    if (Date.now() > until) throw new CloudStorageError(`AWS Device Farm was still processing the build after ${UPLOAD_PROCESSING_MS / 60_000} minutes (status ${got?.status ?? 'unknown'})`);
    await sleep(deviceFarmTiming.pollMs, undefined, signal ? { signal } : {});
  }
}

const capability = (caps: Record<string, unknown>, name: string): string | null => {
  const v = caps[name] ?? caps[`appium:${name}`] ?? caps[`df:${name}`];
  return typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : null;
};
/** A device ARN in the device's (or the provider's) capabilities: `df:deviceArn` or `appium:deviceArn`. */
const DEVICE_ARN = /^arn:aws:devicefarm:us-west-2::device:[A-Za-z0-9]+$/;

/**
 * The device a test's device runs on: the ARN its capabilities give, else the first of the project's devices for the
 * platform, with remote access, available, of the OS version asked, whose name or model is the device name asked.
 */
export async function pickDevice(client: DeviceFarmClient, account: DeviceFarmAccount, platform: 'android' | 'ios', caps: Record<string, unknown>): Promise<{ arn: string; name: string }> {
  const given = capability(caps, 'deviceArn');
  if (given) {
    if (!DEVICE_ARN.test(given)) throw new CloudStorageError(`deviceArn must be a Device Farm device ARN (arn:aws:devicefarm:us-west-2::device:<id>), not ${JSON.stringify(given.slice(0, 100))}`, 'validation_error');
    return { arn: given, name: given };
  }
  const name = capability(caps, 'deviceName');
  const version = capability(caps, 'platformVersion');
  const filters: DeviceFilter[] = [
    { attribute: 'PLATFORM', operator: 'EQUALS', values: [platform === 'android' ? 'ANDROID' : 'IOS'] },
    { attribute: 'REMOTE_ACCESS_ENABLED', operator: 'EQUALS', values: ['TRUE'] },
    { attribute: 'AVAILABILITY', operator: 'IN', values: ['AVAILABLE', 'HIGHLY_AVAILABLE'] },
    ...(version ? [{ attribute: 'OS_VERSION' as const, operator: 'EQUALS' as const, values: [version] }] : []),
  ];
  const found: Device[] = [];
  let nextToken: string | undefined;
  try {
    do {
      const page = await client.send(new ListDevicesCommand({ arn: account.projectArn, filters, ...(nextToken ? { nextToken } : {}) }));
      found.push(...(page.devices ?? []));
      nextToken = page.nextToken;
    } while (nextToken && found.length < 1000);
  } catch (err) {
    throw deviceFarmError(err, 'when its devices were listed');
  }
  const wanted = name?.toLowerCase();
  const match = found.find((d) => d.arn && (!wanted || d.name?.toLowerCase() === wanted || d.model?.toLowerCase() === wanted)) ?? (wanted ? found.find((d) => d.arn && d.name?.toLowerCase().includes(wanted)) : undefined);
  if (!match?.arn) {
    const asked = [platform === 'android' ? 'Android' : 'iOS', name, version].filter(Boolean).join(' ');
    throw new CloudStorageError(`AWS Device Farm has no available device with remote access for ${asked} (${found.length} listed for the platform and version)`, 'validation_error');
  }
  return { arn: match.arn, name: match.name ?? match.arn };
}

/** The artifacts of a session as the report's links; a presigned URL, valid for a while (the provider's login is not needed). */
const ARTIFACT_LABELS: Record<string, string> = { VIDEO: 'Video', APPIUM_SERVER_OUTPUT: 'Appium log', DEVICE_LOG: 'Device log' };

interface OpenedDevice {
  index: number;
  label: string;
  sessionArn: string;
  stopped: boolean;
  links?: SessionLinks;
}

/**
 * The remote access sessions of one attempt: opened one device at a time as the runner reaches it, each stopped when
 * the runner lets it go, and every one still open stopped when the attempt ends (`stopAll`, whatever happened).
 */
export class DeviceFarmAttempt {
  private readonly opened = new Map<number, OpenedDevice>();
  /** The attempt has ended: a session whose creation was under way is stopped as soon as its ARN is known. */
  private ended = false;

  constructor(
    private readonly client: DeviceFarmClient,
    private readonly account: DeviceFarmAccount,
    private readonly appArn: string,
    private readonly platform: 'android' | 'ios',
    private readonly signal: AbortSignal,
    private readonly log: (message: string, data?: Record<string, unknown>) => void,
  ) {}

  /**
   * Opens the device's remote access session and answers its Appium endpoint once it runs. `devices`: how many the
   * test lists (its validated options), the most this attempt ever opens.
   */
  async open(request: DeviceSessionRequest, devices: number): Promise<{ url: string }> {
    if (this.ended || this.signal.aborted) throw new CloudStorageError('the attempt has ended');
    // The runner is the hostile side: whatever it asks, an attempt bills at most one session per device of its own
    // test (never more than a test may list), one at a time (the runner takes its devices one after another).
    const bound = Number.isInteger(devices) ? Math.max(0, Math.min(devices, MAX_DEVICES_PER_TEST)) : 0;
    if (!Number.isInteger(request.index) || request.index < 0 || request.index >= bound || this.opened.has(request.index)) {
      throw new CloudStorageError(
        `device ${String(request.index)} cannot have a session: this test lists ${bound} device${bound === 1 ? '' : 's'}, and each of them gets one session at most`,
      );
    }
    if ([...this.opened.values()].some((e) => !e.stopped)) throw new CloudStorageError('another device of this attempt still has its session: one at a time');
    const device = await pickDevice(this.client, this.account, this.platform, request.capabilities);
    let session: RemoteAccessSession | undefined;
    try {
      session = (
        await this.client.send(
          new CreateRemoteAccessSessionCommand({ projectArn: this.account.projectArn, deviceArn: device.arn, appArn: this.appArn, name: `Fullstop QA: ${request.label}`.slice(0, 256) }),
        )
      ).remoteAccessSession;
    } catch (err) {
      throw deviceFarmError(err, `when a session on ${device.name} was created`);
    }
    if (!session?.arn) throw new CloudStorageError('AWS Device Farm answered CreateRemoteAccessSession without a session ARN');
    const entry: OpenedDevice = { index: request.index, label: request.label, sessionArn: session.arn, stopped: false };
    this.opened.set(request.index, entry);
    this.log('device farm session created', { device: request.label, on: device.name, session: session.arn });
    // The attempt ended while the session was being created: it goes at once.
    if (this.ended || this.signal.aborted) {
      await this.stop(entry);
      throw new CloudStorageError('the attempt ended while the device’s session was being created');
    }
    for (;;) {
      const endpoint = session?.endpoints?.remoteDriverEndpoint;
      if (session?.status === 'RUNNING' && endpoint) return { url: endpoint };
      if (session?.status === 'COMPLETED' || session?.status === 'STOPPING') {
        await this.stop(entry);
        throw new CloudStorageError(`the session on ${device.name} ended before it ran (${session.result ?? session.status}${session.message ? `: ${session.message}` : ''})`);
      }
      const left = request.deadline - Date.now();
      if (left <= 0 || this.ended || this.signal.aborted) {
        await this.stop(entry);
        throw new CloudStorageError(`the session on ${device.name} was not running by the test's deadline (status ${session?.status ?? 'unknown'}); it was stopped`);
      }
      await sleep(Math.min(deviceFarmTiming.pollMs, left)).catch(() => {});
      try {
        session = (await this.client.send(new GetRemoteAccessSessionCommand({ arn: entry.sessionArn }))).remoteAccessSession;
      } catch (err) {
        await this.stop(entry);
        throw deviceFarmError(err, `when the session on ${device.name} was checked`);
      }
    }
  }

  /** The runner is done with the device: its session is stopped and its artifacts listed. */
  async close(index: number): Promise<void> {
    const entry = this.opened.get(index);
    if (entry) await this.stop(entry);
  }

  /** Stops every session still open (the attempt ended: passed, failed, timed out, aborted or crashed). */
  async stopAll(): Promise<void> {
    this.ended = true;
    await Promise.all([...this.opened.values()].map((e) => this.stop(e)));
  }

  /** The links of the device at `index` (its place in the test's list), once its session was stopped. */
  linksOf(index: number): SessionLinks | undefined {
    return this.opened.get(index)?.links;
  }

  /** The devices, by label, that had a session. */
  devices(): { index: number; label: string; sessionArn: string; stopped: boolean }[] {
    return [...this.opened.values()].map(({ index, label, sessionArn, stopped }) => ({ index, label, sessionArn, stopped }));
  }

  private async stop(entry: OpenedDevice): Promise<void> {
    if (entry.stopped) return;
    entry.stopped = true;
    try {
      await this.client.send(new StopRemoteAccessSessionCommand({ arn: entry.sessionArn }));
      this.log('device farm session stopped', { device: entry.label, session: entry.sessionArn });
    } catch (err) {
      // Said loudly: a session left running bills the client until Device Farm's own limit (150 minutes).
      entry.stopped = false;
      this.log('the device farm session could not be stopped', { device: entry.label, session: entry.sessionArn, error: deviceFarmError(err, 'when the session was stopped').message });
      return;
    }
    entry.links = await this.artifacts(entry.sessionArn).catch((err: unknown) => ({ links: [], note: deviceFarmError(err, 'when the session’s artifacts were listed').message }));
  }

  /** The stopped session's video and logs, once it is COMPLETED (bounded: the links are not worth holding the attempt). */
  private async artifacts(sessionArn: string): Promise<SessionLinks> {
    const until = Date.now() + ARTIFACTS_WAIT_MS;
    for (;;) {
      const s = (await this.client.send(new GetRemoteAccessSessionCommand({ arn: sessionArn }))).remoteAccessSession;
      if (s?.status === 'COMPLETED' || Date.now() > until) break;
      await sleep(deviceFarmTiming.pollMs);
    }
    const links: ProviderLink[] = [];
    for (const type of ['FILE', 'LOG'] as const) {
      const listed = await this.client.send(new ListArtifactsCommand({ arn: sessionArn, type }));
      for (const a of listed.artifacts ?? []) {
        const label = a.type ? ARTIFACT_LABELS[a.type] : undefined;
        if (label && a.url && /^https?:\/\//.test(a.url) && !a.url.includes(this.account.secretAccessKey) && !links.some((l) => l.label === label)) links.push({ label, url: a.url });
      }
    }
    const order = Object.values(ARTIFACT_LABELS);
    links.sort((a, b) => order.indexOf(a.label) - order.indexOf(b.label));
    return links.length ? { links } : { links, note: 'AWS Device Farm listed no video or logs for this session' };
  }
}
