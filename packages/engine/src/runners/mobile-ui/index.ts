import { glob, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../../errors.ts';
import { runChild } from '../../lib/child-process.ts';
import { defineRunner } from '../../lib/define-runner.ts';
import { totalsFromCases } from '../../lib/result.ts';
import { createTargetGuard } from '../../policy/target-guard.ts';
import { childEnv } from '../../sandbox/child-env.ts';
import { entryFile } from '../../sandbox/entry-file.ts';
import { netJailOn, type SocketForward, startSocketForward } from '../../sandbox/net-jail.ts';
import type { AppiumEndpoint, Artifact, CaseResult, RunContext } from '../../types.ts';
import { readApk } from '../mobile-static/read-apk.ts';
import { readIpa } from '../mobile-static/read-ipa.ts';
import { ANALYSIS_ARCHIVE_LIMITS } from '../mobile-static/zip-archive.ts';
import { APPIUM_KEY_VAR, APPIUM_USER_VAR, type ChildResult, type SessionNote, type SpecChildConfig } from './child-protocol.ts';
import { MobileUiError } from './errors.ts';
import { type MobileDevice, type PageSourceAtFailure, facts } from './facts.ts';
import { capabilityName, deviceLabel, type MobileUiOptions, mobileUiInput } from './options.ts';
import { endSession } from './session-end.ts';

/** Of a page source at a failure, what the report shows inline; the whole file is an artifact. */
export const PAGE_SOURCE_EXCERPT_CHARS = 20_000;
/** Time the spec process gets past the test's time to end its session and write its result. */
const CHILD_EXIT_GRACE_MS = 20_000;

/** The spec files the globs name in the suite folder, in order, each once; none outside it. */
async function specFilesOf(suiteDir: string, specs: string | string[]): Promise<string[]> {
  const root = path.resolve(suiteDir);
  const found = new Set<string>();
  for (const pattern of Array.isArray(specs) ? specs : [specs]) {
    const matches: string[] = [];
    for await (const rel of glob(pattern, { cwd: root })) matches.push(rel);
    for (const rel of matches.sort()) {
      const abs = path.resolve(root, rel);
      if (abs.startsWith(`${root}${path.sep}`) && !abs.split(path.sep).includes('node_modules') && (await stat(abs)).isFile()) found.add(abs);
    }
  }
  return [...found];
}

/** The app's version from the uploaded build (APK: versionName; IPA: CFBundleShortVersionString); null when unreadable. */
async function appVersionOf(file: string, platform: MobileUiOptions['platform'], signal: AbortSignal): Promise<string | null> {
  try {
    if (platform === 'android') return (await readApk(file, ANALYSIS_ARCHIVE_LIMITS, signal)).versionName ?? null;
    return (await readIpa(file, ANALYSIS_ARCHIVE_LIMITS, signal)).CFBundleShortVersionString ?? null;
  } catch {
    return null;
  }
}

/**
 * A device's capabilities: the provider's, the test's shared ones, the device's own, the uploaded app, and an idle
 * limit. A suite never names the app; the provider (set by an operator) may: an app already in its storage, or
 * Appium's fake driver's XML app in CI (docs/mobile-ui.md).
 */
export function capabilitiesOf(p: { endpoint: AppiumEndpoint; options: MobileUiOptions; device: MobileUiOptions['devices'][number]; app: string }): Record<string, unknown> {
  const prefixed = (caps: Record<string, unknown>) => Object.fromEntries(Object.entries(caps).map(([name, value]) => [capabilityName(name), value]));
  const provider = prefixed(p.endpoint.capabilities ?? {});
  return {
    platformName: p.options.platform === 'android' ? 'Android' : 'iOS',
    // Appium ends a session left idle this long: the last way a session ends when neither process could end it.
    'appium:newCommandTimeout': p.options.stepTimeoutSeconds + 60,
    ...provider,
    ...prefixed(p.options.capabilities),
    ...prefixed(p.device.capabilities),
    'appium:app': typeof provider['appium:app'] === 'string' && provider['appium:app'] ? provider['appium:app'] : p.app,
  };
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : null);

interface DeviceOutcome {
  device: MobileDevice;
  cases: CaseResult[];
  pageSources: PageSourceAtFailure[];
  artifacts: Artifact[];
  timedOut: boolean;
  /** The Appium session started (a spec that would not load is the suite's fault, not the provider's). */
  sessionStarted: boolean;
}

/** One device: its spec process, then its session ended by this process if the spec process did not end it. */
async function runDevice(p: {
  index: number;
  label: string;
  capabilities: Record<string, unknown>;
  specFiles: string[];
  suiteDir: string;
  endpoint: AppiumEndpoint;
  url: URL;
  addresses: { address: string; family: number }[];
  options: MobileUiOptions;
  appVersion: string | null;
  timeoutMs: number;
  ctx: RunContext;
  lookup: Parameters<typeof endSession>[0]['lookup'];
}): Promise<DeviceOutcome> {
  const { ctx, options } = p;
  const relDir = path.posix.join('mobile-ui', `device-${p.index + 1}`);
  const outDir = path.join(ctx.runDir, relDir);
  await mkdir(outDir, { recursive: true });
  const work = path.join(ctx.runDir, 'mobile-ui', `.device-${p.index + 1}`);
  await mkdir(work, { recursive: true });
  const config: SpecChildConfig = {
    endpoint: p.url.href,
    pinned: { hostname: p.url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), addresses: p.addresses },
    capabilities: p.capabilities,
    specFiles: p.specFiles,
    stepTimeoutMs: options.stepTimeoutSeconds * 1000,
    deadline: Date.now() + p.timeoutMs,
    waitforTimeoutMs: options.waitforTimeoutSeconds * 1000,
    commandTimeoutMs: Math.max(30_000, options.stepTimeoutSeconds * 1000),
    outDir,
    relDir,
    sessionFile: path.join(work, 'session.json'),
    resultFile: path.join(work, 'result.json'),
  };
  const configFile = path.join(work, 'config.json');
  await writeFile(configFile, JSON.stringify(config));
  const device: MobileDevice = {
    label: p.label,
    platformName: str(p.capabilities.platformName),
    deviceName: str(p.capabilities['appium:deviceName']),
    platformVersion: str(p.capabilities['appium:platformVersion']),
    appVersion: p.appVersion,
    coldStartMs: null,
    memoryKb: null,
    cpuPercent: null,
    performanceNote: 'not reported by this device',
  };
  let output = '';
  let timedOut = false;
  let result: ChildResult | null = null;
  // The spec process runs the client's code: in a network namespace (sandbox/net-jail.ts) whose only ways out are
  // the endpoint's judged addresses, each at the same address and port inside (added to the namespace's lo), carried
  // by this process to the real one. Names, TLS (SNI, certificate) and the Host header stay the endpoint's; its own
  // pinned lookup answers the same addresses. Unjailed where the kernel refuses the namespace, as before.
  const forwards: SocketForward[] = [];
  try {
    const port = Number(p.url.port || (p.url.protocol === 'https:' ? 443 : 80));
    const jail = netJailOn()
      ? {
          forwards: await Promise.all(
            [...new Set(p.addresses.map((a) => a.address))].map(async (address) => {
              const forward = await startSocketForward(address, port);
              forwards.push(forward);
              return { address, port, socket: forward.socketPath };
            }),
          ),
        }
      : null;
    // The credentials go to the spec process in its environment, never into the run folder.
    const env = childEnv(process.env, {
      ...(p.endpoint.username ? { [APPIUM_USER_VAR]: p.endpoint.username } : {}),
      ...(p.endpoint.accessKey ? { [APPIUM_KEY_VAR]: p.endpoint.accessKey } : {}),
    });
    const child = await runChild(process.execPath, [entryFile('mobile-ui-specs'), configFile], {
      cwd: p.suiteDir,
      env,
      signal: ctx.signal,
      timeoutMs: p.timeoutMs + CHILD_EXIT_GRACE_MS,
      onOutput: (chunk) => {
        if (output.length < 20_000) output += chunk;
      },
      jail,
    });
    timedOut = child.timedOut;
    result = await readFile(config.resultFile, 'utf8')
      .then((text) => JSON.parse(text) as ChildResult)
      .catch(() => null);
    if (!result && !timedOut) throw new Error(`the spec process wrote no result (exit ${child.code}): ${output.slice(-1000)}`);
  } finally {
    await Promise.all(forwards.map((f) => f.close()));
    // The kill path: a session the spec process started and did not end (killed at the time limit, the run
    // cancelled, a crash) is ended here.
    const note = await readFile(config.sessionFile, 'utf8')
      .then((text) => JSON.parse(text) as SessionNote)
      .catch(() => null);
    device.sessionId = note?.sessionId ?? null;
    if (note && !note.ended) {
      const ended = await endSession({ url: p.url, sessionId: note.sessionId, endpoint: p.endpoint, lookup: p.lookup });
      ctx.log('mobile UI session ended by the runner', { device: p.label, sessionId: note.sessionId, ended });
    }
    await rm(work, { recursive: true, force: true });
  }

  timedOut ||= result?.timedOut === true;
  const caps = result?.sessionCapabilities ?? {};
  device.platformName = str(caps.platformName) ?? device.platformName;
  device.deviceName = str(caps.deviceName ?? caps['appium:deviceName'] ?? caps.deviceModel) ?? device.deviceName;
  device.platformVersion = str(caps.platformVersion ?? caps['appium:platformVersion']) ?? device.platformVersion;
  device.coldStartMs = result?.coldStartMs ?? null;
  if (result?.performance) {
    device.memoryKb = result.performance.memoryKb;
    device.cpuPercent = result.performance.cpuPercent;
    device.performanceNote = result.performance.note;
  }
  if (timedOut) device.error = `the test's time ran out (testTimeoutSeconds: ${options.testTimeoutSeconds}) on this device; its session was ended`;
  else if (result?.error) device.error = result.error;

  const cases: CaseResult[] = [];
  const pageSources: PageSourceAtFailure[] = [];
  const artifacts: Artifact[] = [];
  for (const c of result?.cases ?? []) {
    const name = c.name;
    cases.push({
      name,
      status: c.status,
      durationMs: c.durationMs,
      ...(c.error ? { error: c.error } : {}),
      ...(c.steps.length ? { steps: c.steps } : {}),
      ...(c.screenshot ? { screenshot: c.screenshot } : {}),
    });
    if (c.screenshot) artifacts.push({ path: c.screenshot, kind: 'screenshot', contentType: 'image/png', label: `${p.label}: after "${name}"` });
    if (c.pageSource) {
      artifacts.push({ path: c.pageSource, kind: 'other', contentType: 'application/xml', label: `${p.label}: page source when "${name}" failed` });
      const text = await readFile(path.join(ctx.runDir, c.pageSource), 'utf8').catch(() => '');
      pageSources.push({ case: name, path: c.pageSource, excerpt: text.slice(0, PAGE_SOURCE_EXCERPT_CHARS), truncated: text.length > PAGE_SOURCE_EXCERPT_CHARS });
    }
  }
  return { device, cases, pageSources, artifacts, timedOut, sessionStarted: result?.sessionStartMs != null };
}

/**
 * WebdriverIO specs in Mocha style on an Appium endpoint (issue 28), one device after another: each device a
 * spec process of its own (spec-child.ts) with one Appium session, the client's uploaded build as its app. A
 * screenshot after every step (`it`), the page source at a failed one; device, OS, app version, cold start and
 * the app's memory and CPU where the driver reports them. The endpoint's address is judged by the target policy
 * and every connection to it pinned to the addresses judged; the session always ends (decision 0084).
 */
export const mobileUiRunner = defineRunner({
  facts,
  schema: mobileUiInput,
  async execute({ options }, { test, target, ctx }) {
    if (!test.suiteDir) throw new ValidationError({ field: 'suiteDir', reason: 'a mobile UI test needs the folder of its spec files' });
    const app = options.platform === 'android' ? target.androidApp : target.iosApp;
    if (!app) throw new MobileUiError('no_app', `no ${options.platform === 'android' ? 'Android (APK)' : 'iOS (IPA)'} build has been uploaded`);
    const endpoint = target.appium;
    if (!endpoint) throw new MobileUiError('no_appium_endpoint', 'no device provider is set for this client: an operator sets its Appium endpoint (docs/mobile-ui.md)');
    // The endpoint is an outbound address like any other: http(s), and not private unless the target allows it.
    // A session per device (Device Farm): each device's own endpoint is judged when the server has opened it.
    const judge = async (endpointUrl: string) => {
      const guard = createTargetGuard({ baseUrl: endpointUrl, allowedOrigins: [], allowPrivateAddresses: target.allowPrivateAddresses }, ctx.network);
      const url = await guard.check(endpointUrl);
      const addresses = (await guard.addresses(url.hostname)).map((a) => ({ address: a.address, family: a.family }));
      return { url, addresses, lookup: guard.lookup };
    };
    const shared = endpoint.sessionPerDevice ? null : await judge(endpoint.url);
    if (endpoint.sessionPerDevice && (!ctx.openDevice || !ctx.closeDevice)) throw new MobileUiError('no_appium_endpoint', 'the device provider opens a session per device, which this runner cannot ask for');
    const specFiles = await specFilesOf(test.suiteDir, options.specs);
    if (specFiles.length === 0) throw new ValidationError({ field: 'options.specs', reason: `no spec file matches ${JSON.stringify(options.specs)} in the suite` });
    const appVersion = await appVersionOf(app, options.platform, ctx.signal);

    const started = performance.now();
    const deadline = Date.now() + options.testTimeoutSeconds * 1000;
    const several = options.devices.length > 1;
    const devices: MobileDevice[] = [];
    const cases: CaseResult[] = [];
    const pageSources: PageSourceAtFailure[] = [];
    const artifacts: Artifact[] = [];
    let timedOut = false;
    let anySession = false;
    for (const [index, spec] of options.devices.entries()) {
      const label = deviceLabel(spec, index, options.capabilities);
      const capabilities = capabilitiesOf({ endpoint, options, device: spec, app });
      const left = deadline - Date.now();
      if (left <= 0 || timedOut) {
        devices.push({ label, platformName: str(capabilities.platformName), deviceName: str(capabilities['appium:deviceName']), platformVersion: str(capabilities['appium:platformVersion']), appVersion, coldStartMs: null, memoryKb: null, cpuPercent: null, performanceNote: null, error: "not run: the test's time ran out on the devices before it" });
        continue;
      }
      ctx.progress?.({ done: index, total: options.devices.length, message: label });
      let outcome: DeviceOutcome;
      if (shared) {
        outcome = await runDevice({ index, label, capabilities, specFiles, suiteDir: test.suiteDir, endpoint, ...shared, options, appVersion, timeoutMs: left, ctx });
      } else {
        // The provider installs the app in the device's session; the session always goes, whatever happened.
        delete capabilities['appium:app'];
        try {
          let opened: Awaited<ReturnType<typeof judge>>;
          try {
            opened = await judge((await ctx.openDevice!({ index, label, capabilities, deadline })).url);
          } catch (error) {
            devices.push({ label, platformName: str(capabilities.platformName), deviceName: str(capabilities['appium:deviceName']), platformVersion: str(capabilities['appium:platformVersion']), appVersion, coldStartMs: null, memoryKb: null, cpuPercent: null, performanceNote: null, error: `the device's session could not be opened: ${(error as Error).message}` });
            if (Date.now() >= deadline) timedOut = true;
            continue;
          }
          outcome = await runDevice({ index, label, capabilities, specFiles, suiteDir: test.suiteDir, endpoint, ...opened, options, appVersion, timeoutMs: Math.max(1, deadline - Date.now()), ctx });
        } finally {
          await ctx.closeDevice!(index).catch((error: unknown) => ctx.log('the device session could not be let go', { device: label, error: (error as Error).message }));
        }
      }
      devices.push(outcome.device);
      cases.push(...outcome.cases.map((c) => (several ? { ...c, name: `${label} › ${c.name}`, cell: label } : c)));
      pageSources.push(...outcome.pageSources.map((s) => (several ? { ...s, case: `${label} › ${s.case}` } : s)));
      artifacts.push(...outcome.artifacts);
      timedOut ||= outcome.timedOut;
      anySession ||= outcome.sessionStarted;
    }
    const totals = totalsFromCases(cases);
    const errors = devices.filter((d) => d.error).map((d) => `${d.label}: ${d.error}`);
    // No device ran a step: the session never started anywhere, nothing was tested.
    if (cases.length === 0 && errors.length > 0 && !timedOut && !anySession) throw new MobileUiError('session_not_started', errors.join('\n').slice(0, 4000));
    return {
      status: totals.failedTests > 0 || errors.length > 0 ? 'failed' : 'passed',
      totals,
      durationMs: performance.now() - started,
      summary: { kind: 'mobile-ui', cases, devices, pageSources },
      artifacts,
      ...(errors.length ? { error: errors.join('\n').slice(0, 4000) } : {}),
    };
  },
});

/** The name the registry and the runner processes load a kind's runner by. */
export { mobileUiRunner as runner };
