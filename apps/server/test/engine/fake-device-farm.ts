import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AppiumServer, FAKE_APP } from '../../../../packages/engine/test/fixtures/appium-server.ts';
import type { LocalBrowsers } from './fake-cloud-browsers.ts';

/** One call to the API: its operation (X-Amz-Target's) and JSON body. */
export interface FarmCall {
  op: string;
  body: Record<string, unknown>;
}

interface FarmUpload {
  arn: string;
  name: string;
  type: string;
  status: 'INITIALIZED' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED';
  sha256: string | null;
  token: string;
}

interface FarmSession {
  arn: string;
  deviceArn: string;
  appArn: string | null;
  status: 'PENDING' | 'RUNNING' | 'STOPPING' | 'COMPLETED';
  token: string;
  gets: number;
  /** The Appium sessions opened on its endpoint, and the `appium:app` each asked for. */
  appiumSessions: string[];
  appsAsked: unknown[];
}

export interface FakeDevice {
  arn: string;
  name: string;
  model: string;
  platform: 'ANDROID' | 'IOS';
  os: string;
  /** A device whose sessions never start running (a device that is never ready). */
  neverReady?: boolean;
}

export const FAKE_FARM_DEVICES: FakeDevice[] = [
  { arn: 'arn:aws:devicefarm:us-west-2::device:FAKEPIXEL14', name: 'Fake Pixel', model: 'Fake Pixel', platform: 'ANDROID', os: '14' },
  { arn: 'arn:aws:devicefarm:us-west-2::device:SLOWPHONE14', name: 'Slow Phone', model: 'Slow Phone', platform: 'ANDROID', os: '14', neverReady: true },
  { arn: 'arn:aws:devicefarm:us-west-2::device:FAKEIPHONE17', name: 'Fake iPhone', model: 'Fake iPhone', platform: 'IOS', os: '17' },
];

/**
 * AWS Device Farm's API as its reference says it answers (awsJson1_1: `POST /` with `X-Amz-Target:
 * DeviceFarm_20150623.<Operation>`, JSON in and out, errors as `{ "__type", "message" }` with a 4xx), on loopback:
 * CreateUpload (a presigned-style PUT URL of its own), GetUpload (PROCESSING, then SUCCEEDED once the file came),
 * ListDevices (filters on PLATFORM, OS_VERSION, REMOTE_ACCESS_ENABLED, AVAILABILITY), CreateRemoteAccessSession /
 * GetRemoteAccessSession (PENDING, then RUNNING with `endpoints.remoteDriverEndpoint`), StopRemoteAccessSession
 * (STOPPING, then COMPLETED), ListArtifacts (video, Appium and device logs) and GetProject. A request not signed by
 * SigV4 for the account's key ID in us-west-2 gets `UnrecognizedClientException`. The session's endpoint hands the
 * Appium session to a real Appium with the fake driver, the app injected as Device Farm injects the session's app.
 *
 * Desktop browser testing (a browser test's cloud cells, decision 0100): CreateTestGridUrl (for the account's
 * testgrid project) answers a signed hub URL of its own that expires, whose W3C sessions (chrome, firefox,
 * MicrosoftEdge on Windows) go to a local browser (`browsers`); GetTestGridSession by the WebDriver session's id and
 * ListTestGridSessionArtifacts (its video and Selenium log) answer as documented.
 */
export async function startFakeDeviceFarm(
  appium: AppiumServer | null,
  account: { accessKeyId: string; secretAccessKey: string; projectArn: string; testGridProjectArn?: string },
  browsers?: LocalBrowsers,
) {
  const calls: FarmCall[] = [];
  const uploads = new Map<string, FarmUpload>();
  const sessions = new Map<string, FarmSession>();
  /** Bodies sent anywhere, to check the secret key never travels. */
  const seen: string[] = [];
  const behaviour = { failNextUpload: false };
  /** Desktop browser testing: the signed URLs made (their token and expiry), and the sessions opened on them. */
  const testGridUrls = new Map<string, number>();
  const testGridSessions = new Map<string, { arn: string; created: number; ended: number | null; browserName: unknown }>();

  const json = (res: http.ServerResponse, status: number, body: unknown, type = 'application/x-amz-json-1.1') => {
    res.writeHead(status, { 'content-type': type, 'x-amzn-requestid': randomUUID() });
    res.end(JSON.stringify(body));
  };
  const fail = (res: http.ServerResponse, status: number, type: string, message: string) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID(), 'x-amzn-errortype': type });
    res.end(JSON.stringify({ __type: type, message }));
  };
  const readBody = async (req: http.IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const signedByAccount = (req: http.IncomingMessage) => {
    const auth = String(req.headers.authorization ?? '');
    return auth.startsWith('AWS4-HMAC-SHA256 ') && new RegExp(`Credential=${account.accessKeyId}/\\d{8}/us-west-2/devicefarm/aws4_request`).test(auth) && /SignedHeaders=[^,]*x-amz-target/.test(auth);
  };
  const sessionView = (s: FarmSession, base: string) => ({
    arn: s.arn,
    name: 'Fullstop QA session',
    status: s.status,
    ...(s.status === 'COMPLETED' ? { result: 'PASSED' } : {}),
    created: Date.now() / 1000,
    device: { arn: s.deviceArn, name: FAKE_FARM_DEVICES.find((d) => d.arn === s.deviceArn)?.name },
    ...(s.appArn ? { appUpload: s.appArn } : {}),
    ...(s.status === 'RUNNING' ? { endpoints: { remoteDriverEndpoint: `${base}/remote-endpoint/${s.token}/wd/hub`, interactiveEndpoint: `${base}/interactive/${s.token}` } } : {}),
  });

  let base = '';
  const api = async (op: string, body: Record<string, unknown>, res: http.ServerResponse) => {
    const arnOf = (v: unknown) => (typeof v === 'string' ? v : '');
    switch (op) {
      case 'GetProject':
        if (body.arn !== account.projectArn) return fail(res, 400, 'NotFoundException', 'Project not found');
        return json(res, 200, { project: { arn: account.projectArn, name: 'Acme mobile', created: Date.now() / 1000 } });
      case 'CreateUpload': {
        if (body.projectArn !== account.projectArn) return fail(res, 400, 'NotFoundException', 'Project not found');
        if (body.type !== 'ANDROID_APP' && body.type !== 'IOS_APP') return fail(res, 400, 'ArgumentException', 'Invalid upload type');
        const id = randomUUID();
        const upload: FarmUpload = { arn: `${account.projectArn.replace(':project:', ':upload:')}/${id}`, name: String(body.name), type: String(body.type), status: 'INITIALIZED', sha256: null, token: id };
        uploads.set(upload.arn, upload);
        return json(res, 200, { upload: { arn: upload.arn, name: upload.name, type: upload.type, status: upload.status, url: `${base}/presigned/${id}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=fake`, category: 'PRIVATE' } });
      }
      case 'GetUpload': {
        const upload = uploads.get(arnOf(body.arn));
        if (!upload) return fail(res, 400, 'NotFoundException', 'Upload not found');
        const view = { arn: upload.arn, name: upload.name, type: upload.type, status: upload.status, category: 'PRIVATE' };
        // Processed on the poll after the one that saw it PROCESSING: the client polls at least twice.
        if (upload.status === 'PROCESSING') {
          upload.status = behaviour.failNextUpload ? 'FAILED' : 'SUCCEEDED';
          behaviour.failNextUpload = false;
        }
        if (view.status === 'FAILED') return json(res, 200, { upload: { ...view, message: 'Invalid application uploaded.', metadata: '{"errorMessage":"The app could not be parsed"}' } });
        return json(res, 200, { upload: view });
      }
      case 'ListDevices': {
        if (body.arn !== undefined && body.arn !== account.projectArn) return fail(res, 400, 'NotFoundException', 'Project not found');
        const filters = (body.filters ?? []) as { attribute: string; operator: string; values: string[] }[];
        const devices = FAKE_FARM_DEVICES.filter((d) =>
          filters.every((f) => {
            const value = f.attribute === 'PLATFORM' ? d.platform : f.attribute === 'OS_VERSION' ? d.os : f.attribute === 'REMOTE_ACCESS_ENABLED' ? 'TRUE' : f.attribute === 'AVAILABILITY' ? 'AVAILABLE' : null;
            if (value === null) return true;
            return f.operator === 'EQUALS' ? f.values[0] === value : f.operator === 'IN' ? f.values.includes(value) : true;
          }),
        );
        return json(res, 200, { devices: devices.map((d) => ({ arn: d.arn, name: d.name, model: d.model, platform: d.platform, os: d.os, formFactor: 'PHONE', remoteAccessEnabled: true, availability: 'AVAILABLE' })) });
      }
      case 'CreateRemoteAccessSession': {
        if (body.projectArn !== account.projectArn) return fail(res, 400, 'NotFoundException', 'Project not found');
        if (!FAKE_FARM_DEVICES.some((d) => d.arn === body.deviceArn)) return fail(res, 400, 'NotFoundException', 'Device not found');
        const app = body.appArn ? uploads.get(arnOf(body.appArn)) : null;
        if (body.appArn && app?.status !== 'SUCCEEDED') return fail(res, 400, 'ArgumentException', 'The app upload is not ready');
        const token = randomUUID().replace(/-/g, '');
        const s: FarmSession = { arn: `${account.projectArn.replace(':project:', ':session:')}/${randomUUID()}`, deviceArn: arnOf(body.deviceArn), appArn: app?.arn ?? null, status: 'PENDING', token, gets: 0, appiumSessions: [], appsAsked: [] };
        sessions.set(s.arn, s);
        return json(res, 200, { remoteAccessSession: sessionView(s, base) });
      }
      case 'GetRemoteAccessSession': {
        const s = sessions.get(arnOf(body.arn));
        if (!s) return fail(res, 400, 'NotFoundException', 'Session not found');
        s.gets += 1;
        const neverReady = FAKE_FARM_DEVICES.find((d) => d.arn === s.deviceArn)?.neverReady;
        if (s.status === 'PENDING' && !neverReady && s.gets >= 1) s.status = 'RUNNING';
        else if (s.status === 'STOPPING') s.status = 'COMPLETED';
        return json(res, 200, { remoteAccessSession: sessionView(s, base) });
      }
      case 'StopRemoteAccessSession': {
        const s = sessions.get(arnOf(body.arn));
        if (!s) return fail(res, 400, 'NotFoundException', 'Session not found');
        if (s.status !== 'COMPLETED') s.status = 'STOPPING';
        return json(res, 200, { remoteAccessSession: sessionView(s, base) });
      }
      case 'ListArtifacts': {
        const s = sessions.get(arnOf(body.arn));
        if (!s) return fail(res, 400, 'NotFoundException', 'Session not found');
        const id = s.arn.split('/').pop();
        const url = (file: string) => `https://prod-us-west-2-results.s3.dualstack.us-west-2.amazonaws.com/${id}/${file}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=86400&X-Amz-Signature=abc`;
        const artifacts =
          body.type === 'FILE'
            ? [{ arn: `${s.arn}/video`, name: 'Video', type: 'VIDEO', extension: 'mp4', url: url('video.mp4') }]
            : body.type === 'LOG'
              ? [
                  { arn: `${s.arn}/appium`, name: 'Appium Server Output', type: 'APPIUM_SERVER_OUTPUT', extension: 'txt', url: url('appium.txt') },
                  { arn: `${s.arn}/device`, name: 'Device Log', type: 'DEVICE_LOG', extension: 'txt', url: url('logcat.txt') },
                ]
              : [];
        return json(res, 200, { artifacts });
      }
      case 'CreateTestGridUrl': {
        if (!account.testGridProjectArn || body.projectArn !== account.testGridProjectArn) return fail(res, 400, 'NotFoundException', 'Project not found');
        const seconds = Number(body.expiresInSeconds);
        if (!Number.isInteger(seconds) || seconds < 60 || seconds > 86_400) return fail(res, 400, 'ArgumentException', 'expiresInSeconds must be between 60 and 86400');
        const token = `AQICAH${randomUUID().replace(/-/g, '')}`;
        const expires = Date.now() + seconds * 1000;
        testGridUrls.set(token, expires);
        return json(res, 200, { url: `${base}/testgrid/${token}/wd/hub`, expires: expires / 1000 });
      }
      case 'GetTestGridSession': {
        if (body.projectArn !== account.testGridProjectArn) return fail(res, 400, 'NotFoundException', 'Project not found');
        const s = testGridSessions.get(arnOf(body.sessionId));
        if (!s) return fail(res, 400, 'NotFoundException', 'Session not found');
        const minutes = Math.max(1, Math.ceil(((s.ended ?? Date.now()) - s.created) / 60_000));
        return json(res, 200, { testGridSession: { arn: s.arn, status: s.ended ? 'CLOSED' : 'ACTIVE', created: s.created / 1000, ...(s.ended ? { ended: s.ended / 1000 } : {}), billingMinutes: minutes, seleniumProperties: JSON.stringify({ browserName: s.browserName }) } });
      }
      case 'ListTestGridSessionArtifacts': {
        const s = [...testGridSessions.values()].find((x) => x.arn === body.sessionArn);
        if (!s) return fail(res, 400, 'NotFoundException', 'Session not found');
        const id = s.arn.split('/').pop();
        const url = (file: string) => `https://prod-us-west-2-testgrid.s3.us-west-2.amazonaws.com/${id}/${file}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature=def`;
        const artifacts = body.type === 'VIDEO' ? [{ filename: 'video.mp4', type: 'VIDEO', url: url('video.mp4') }] : body.type === 'LOG' ? [{ filename: 'selenium.log', type: 'SELENIUM_LOG', url: url('selenium.log') }] : [];
        return json(res, 200, { artifacts });
      }
      default:
        return fail(res, 400, 'UnknownOperationException', `Unknown operation ${op}`);
    }
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      const body = await readBody(req);
      seen.push(`${url} ${JSON.stringify(req.headers)} ${body.toString('latin1').slice(0, 10_000)}`);
      // The presigned upload URL: the file itself, no credentials (the URL is signed).
      const put = /^\/presigned\/([0-9a-f-]+)\?/.exec(url);
      if (req.method === 'PUT' && put) {
        const upload = [...uploads.values()].find((u) => u.token === put[1]);
        if (!upload || upload.status !== 'INITIALIZED') return json(res, 403, { error: 'AccessDenied' }, 'application/xml');
        if (req.headers.authorization) return json(res, 400, { error: 'Only one auth mechanism allowed' }, 'application/xml');
        upload.sha256 = createHash('sha256').update(body).digest('hex');
        upload.status = 'PROCESSING';
        res.writeHead(200, { etag: `"${upload.sha256.slice(0, 32)}"` });
        return res.end();
      }
      // A desktop browser testing URL: its sessions are a local browser's; the URL is its only credential, and expires.
      const grid = /^\/testgrid\/([A-Za-z0-9]+)\/wd\/hub(\/.*)$/.exec(url);
      if (grid) {
        const expires = testGridUrls.get(grid[1]!);
        const rest = grid[2]!;
        if (req.method === 'POST' && rest === '/session') {
          if (!expires || expires < Date.now()) return json(res, 403, { value: { error: 'session not created', message: 'The URL is invalid or has expired' } }, 'application/json');
          if (!browsers) return json(res, 500, { value: { error: 'session not created', message: 'this fake has no browsers' } }, 'application/json');
          const caps = (JSON.parse(body.toString()) as { capabilities: { alwaysMatch?: Record<string, unknown> } }).capabilities.alwaysMatch ?? {};
          if (!['chrome', 'firefox', 'MicrosoftEdge'].includes(String(caps.browserName)) || !['latest', 'latest-1', 'latest-2'].includes(String(caps.browserVersion))) {
            return json(res, 400, { value: { error: 'session not created', message: 'Unsupported browserName or browserVersion' } }, 'application/json');
          }
          const made = await browsers.create({ browser: String(caps.browserName), device: 'Windows', platform: 'Windows', osVersion: null });
          if (made.sessionId) testGridSessions.set(made.sessionId, { arn: `${account.testGridProjectArn!.replace(':testgrid-project:', ':testgrid-session:')}/${randomUUID()}`, created: Date.now(), ended: null, browserName: caps.browserName });
          res.writeHead(made.status, { 'content-type': 'application/json' });
          return res.end(made.body);
        }
        const id = /^\/session\/([^/]+)(.*)$/.exec(rest);
        if (!id || !browsers || !testGridUrls.has(grid[1]!)) return json(res, 404, { value: { error: 'invalid session id', message: 'No such session' } }, 'application/json');
        const answer = await browsers.forward(req.method ?? 'GET', id[1]!, id[2]!, body);
        if (req.method === 'DELETE' && id[2] === '') {
          const s = testGridSessions.get(id[1]!);
          if (s) s.ended = Date.now();
        }
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        return res.end(answer.body);
      }
      const remote = /^\/remote-endpoint\/([0-9a-f]+)\/wd\/hub(\/.*)$/.exec(url);
      if (remote) {
        const s = [...sessions.values()].find((x) => x.token === remote[1]);
        if (!s || s.status !== 'RUNNING') return json(res, 404, { value: { error: 'invalid session id', message: 'The remote access session is not running' } }, 'application/json');
        let forward = body;
        const path = remote[2]!;
        if (req.method === 'POST' && path === '/session') {
          const payload = JSON.parse(body.toString()) as { capabilities: { alwaysMatch?: Record<string, unknown>; firstMatch?: Record<string, unknown>[] } };
          const caps = payload.capabilities.alwaysMatch ?? {};
          s.appsAsked.push(caps['appium:app']);
          // The session's app is the default `appium:app` (Device Farm installs it): here, the fake driver's.
          if (s.appArn && caps['appium:app'] === undefined) caps['appium:app'] = FAKE_APP;
          payload.capabilities.alwaysMatch = caps;
          forward = Buffer.from(JSON.stringify(payload));
        }
        if (!appium) return json(res, 404, { value: { error: 'invalid session id', message: 'this fake has no Appium' } }, 'application/json');
        const upstream = http.request(new URL(path.slice(1), appium.url), { method: req.method, headers: { 'content-type': 'application/json', 'content-length': String(forward.length) } }, (up) => {
          const chunks: Buffer[] = [];
          up.on('data', (c: Buffer) => chunks.push(c));
          up.on('end', () => {
            const answer = Buffer.concat(chunks);
            if (req.method === 'POST' && path === '/session') {
              const id = (JSON.parse(answer.toString()) as { value?: { sessionId?: string } }).value?.sessionId;
              if (id) s.appiumSessions.push(id);
            }
            res.writeHead(up.statusCode ?? 502, { 'content-type': 'application/json' });
            res.end(answer);
          });
        });
        upstream.on('error', () => json(res, 502, { value: { error: 'unknown error', message: 'upstream' } }, 'application/json'));
        upstream.end(forward);
        return;
      }
      if (req.method === 'POST' && url === '/') {
        const target = String(req.headers['x-amz-target'] ?? '');
        if (!target.startsWith('DeviceFarm_20150623.')) return fail(res, 400, 'UnknownOperationException', 'Missing X-Amz-Target');
        if (!String(req.headers['content-type'] ?? '').startsWith('application/x-amz-json-1.1')) return fail(res, 400, 'SerializationException', 'Wrong content type');
        if (!signedByAccount(req)) return fail(res, 400, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
        const op = target.slice('DeviceFarm_20150623.'.length);
        const parsed = (body.length ? JSON.parse(body.toString()) : {}) as Record<string, unknown>;
        calls.push({ op, body: parsed });
        return api(op, parsed, res);
      }
      json(res, 404, { message: 'not found' }, 'application/json');
    })().catch((err: unknown) => fail(res, 500, 'ServiceException', String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: base,
    calls,
    uploads,
    sessions,
    seen,
    behaviour,
    testGridUrls,
    testGridSessions,
    /** The calls of one operation, in order. */
    of: (op: string) => calls.filter((c) => c.op === op),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
