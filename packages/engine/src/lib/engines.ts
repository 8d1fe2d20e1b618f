import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { EngineCheck, EngineReadiness } from '@fullstop/contracts';
import { EngineMissingError } from '../errors.ts';
import { factsOf, kinds } from '../runners/kinds.ts';
import { DEFAULT_WAPITI_PATH } from '../runners/security-scan/wapiti.ts';
import { childEnv } from '../sandbox/child-env.ts';
import { ENGINE_NAMES, type EngineName, TEST_KINDS, type TestKind } from '../types.ts';
import { DEFAULT_CHROMIUM_PATH } from './chromium.ts';
import { DEFAULT_FIREFOX_PATH } from './firefox.ts';
import { WEBKIT_INSTALL, webkitPaths } from './webkit.ts';

/**
 * The programs and packages the kinds need beyond the engine's code (`@fullstop/engine/engines`, light: no
 * runner is loaded). The server and `fullstop worker` check them all at start (`checkEngines`: each program
 * answers `--version` within a bounded time); each run checks its own before it starts (`missingEngine`, in
 * defineRunner), so a test whose engine is missing ends `engine_missing` with what to install, not ENOENT.
 */

/** Where the programs are; unset: where Debian installs them. */
export interface EnginePaths {
  chromiumPath?: string | undefined;
  wapitiPath?: string | undefined;
  firefoxPath?: string | undefined;
  webkitDriverPath?: string | undefined;
  miniBrowserPath?: string | undefined;
  xvfbPath?: string | undefined;
}

/** How long a program gets to answer `--version` at start before it counts as broken. */
export const VERSION_TIMEOUT_MS = 10_000;

interface ProgramEngine {
  type: 'program';
  title: string;
  /** The setting that points the server at it; none: only where Debian installs it. */
  setting?: string;
  install: string;
  path(paths: EnginePaths): string;
  /**
   * Needed only by tests that ask for it (Firefox: a browser test whose `engines` name it): when it is missing,
   * the machine is still ready, and such a test ends `engine_missing` saying how to install it.
   */
  optional?: { for: string };
  /** Other programs it starts, checked with it (WebKit: MiniBrowser and Xvfb beside WebKitWebDriver). */
  alsoNeeds?(paths: EnginePaths): string[];
  /**
   * How it tells it works, when not `--version` (WebKitWebDriver has none: `--help` must answer), and where its
   * version is read instead (WebKit: Debian's package database).
   */
  versionBy?: { args: string[]; version(): string | null };
}
interface PackageEngine {
  type: 'package';
  title: string;
  packages: readonly string[];
  install: string;
  /** Needed only by some setups (a local Appium server): when it is missing, the machine is still ready. */
  optional?: { for: string };
}

const NPM_INSTALL = 'npm ci (in the Fullstop QA folder)';

export const ENGINES: Readonly<Record<EngineName, ProgramEngine | PackageEngine>> = {
  chromium: { type: 'program', title: 'Chromium', setting: 'CHROMIUM_PATH', install: 'apt-get install chromium-headless-shell (or chromium)', path: (p) => p.chromiumPath ?? DEFAULT_CHROMIUM_PATH },
  firefox: {
    type: 'program',
    title: 'Firefox',
    install: 'apt-get install -y firefox-esr',
    path: (p) => p.firefoxPath ?? DEFAULT_FIREFOX_PATH,
    optional: { for: "browser, accessibility and visual tests with engines: ['firefox']" },
  },
  // WebKitWebDriver answers --version; MiniBrowser and Xvfb are checked to be there (decision 0079).
  webkit: {
    type: 'program',
    title: 'WebKit',
    install: WEBKIT_INSTALL,
    path: (p) => webkitPaths(p).driver,
    alsoNeeds: (p) => [webkitPaths(p).miniBrowser, webkitPaths(p).xvfb],
    versionBy: { args: ['--help'], version: () => debianPackageVersion('webkit2gtk-driver') },
    optional: { for: "browser tests with engines: ['webkit']" },
  },
  wapiti: { type: 'program', title: 'wapiti', setting: 'WAPITI_PATH', install: 'apt-get install wapiti', path: (p) => p.wapitiPath ?? DEFAULT_WAPITI_PATH },
  playwright: { type: 'package', title: 'the Playwright packages', packages: ['@playwright/test', 'playwright-core'], install: NPM_INSTALL },
  lighthouse: { type: 'package', title: 'the Lighthouse packages', packages: ['lighthouse', 'chrome-launcher'], install: NPM_INSTALL },
  axe: { type: 'package', title: 'the axe package', packages: ['@axe-core/playwright'], install: NPM_INSTALL },
  webdriverio: { type: 'package', title: 'the WebdriverIO packages', packages: ['webdriverio', 'mocha'], install: NPM_INSTALL },
  // A mobile UI test talks to its provider's Appium endpoint; a local Appium serves a device lab, an emulator host
  // and CI (with @appium/fake-driver): docs/mobile-ui.md.
  appium: {
    type: 'package',
    title: 'Appium',
    packages: ['appium'],
    install: 'npm ci (in the Fullstop QA folder, dev dependencies included), or npm i -g appium@3 and its drivers',
    optional: { for: 'mobile UI tests on a local Appium server (a device lab, an emulator host, CI)' },
  },
};

const require = createRequire(import.meta.url);

/** A package's package.json, or null when the package is not installed where the engine resolves its own. */
function packageJson(name: string): { found: boolean; version: string | null } {
  try {
    const file = require.resolve(`${name}/package.json`);
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    return { found: true, version: typeof parsed.version === 'string' ? parsed.version : null };
  } catch (error) {
    // The package is there but does not export its package.json: its version from the package.json above its entry.
    if ((error as { code?: unknown }).code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return { found: true, version: versionAboveEntry(name) };
    return { found: false, version: null };
  }
}

/** The version in the package.json of `name` found above its entry file (webdriverio, @axe-core/playwright); null when none is. */
function versionAboveEntry(name: string): string | null {
  let dir: string;
  try {
    dir = path.dirname(require.resolve(name));
  } catch {
    return null;
  }
  for (let i = 0; i < 5; i++, dir = path.dirname(dir)) {
    try {
      const parsed = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (parsed.name === name) return typeof parsed.version === 'string' ? parsed.version : null;
    } catch {
      // No package.json here (or not one we can read): the folder above.
    }
  }
  return null;
}

/** Why a program at `file` cannot be started, checked without starting it; null when it can. */
function programProblem(file: string): string | null {
  try {
    if (!statSync(file).isFile()) return `not installed at ${file} (that is not a file)`;
    accessSync(file, constants.X_OK);
    return null;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EACCES' ? `not executable at ${file}` : `not installed at ${file}`;
  }
}

/** Why a program engine cannot be started: its own program's problem, else the first of the others it needs. */
function engineProblem(engine: ProgramEngine, paths: EnginePaths): string | null {
  for (const file of [engine.path(paths), ...(engine.alsoNeeds?.(paths) ?? [])]) {
    const problem = programProblem(file);
    if (problem) return problem;
  }
  return null;
}

/** The packages of a package engine that are not installed. */
function missingPackages(engine: PackageEngine): string[] {
  return engine.packages.filter((name) => !packageJson(name).found);
}

/** What a run of `kind` with these manifest options needs. */
export function enginesOf(kind: TestKind, options: Readonly<Record<string, unknown>> = {}): readonly EngineName[] {
  const facts = kinds[kind];
  return facts.enginesFor ? facts.enginesFor(options) : facts.engines;
}

/**
 * Before a run: the first engine it needs that is not there, as the error the run ends with (not retried), or
 * null. Cheap: a stat per program, a resolve per package; nothing is started.
 */
export function missingEngine(kind: TestKind, options: Readonly<Record<string, unknown>>, paths: EnginePaths): EngineMissingError | null {
  const needs = `The ${kinds[kind].title} needs`;
  for (const name of enginesOf(kind, options)) {
    const engine = ENGINES[name];
    if (engine.type === 'program') {
      const problem = engineProblem(engine, paths);
      if (problem) return new EngineMissingError(name, `${needs} ${engine.title}, which is ${problem}. Install it with: ${engine.install}`);
    } else {
      const missing = missingPackages(engine);
      if (missing.length > 0) {
        return new EngineMissingError(name, `${needs} ${missing.join(' and ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed. Install ${missing.length === 1 ? 'it' : 'them'} with: ${engine.install}`);
      }
    }
  }
  return null;
}

/**
 * During a run: a program of the kind's engines that could not be started after all (its file is there, but the
 * interpreter its first line names is not, or it lost its rights), as the error the run ends with; null for any
 * other error.
 */
export function engineErrorOf(kind: TestKind, error: unknown, paths: EnginePaths): EngineMissingError | null {
  const { code, path: file, syscall } = (error ?? {}) as { code?: unknown; path?: unknown; syscall?: unknown };
  if ((code !== 'ENOENT' && code !== 'EACCES') || typeof file !== 'string' || typeof syscall !== 'string' || !syscall.startsWith('spawn')) return null;
  for (const name of kinds[kind].engines) {
    const engine = ENGINES[name];
    if (engine.type === 'program' && (engine.path(paths) === file || engine.alsoNeeds?.(paths).includes(file))) {
      return new EngineMissingError(name, `The ${kinds[kind].title} needs ${engine.title}, which could not be started at ${file}. Install it with: ${engine.install}`);
    }
  }
  return null;
}

/** The version number in a program's `--version` answer ("Chromium 156.0.8078.79 built on ...", "Wapiti 3.0.4"). */
export function versionIn(output: string): string | null {
  const lines = output.split('\n').filter((line) => /\d+\.\d+/.test(line));
  return lines.at(-1)?.match(/\d+(?:\.\d+)+/)?.[0] ?? null;
}

/** The upstream version of a Debian package that is installed ("2.50.6" of "2.50.6-1~deb12u2"), from dpkg's database; null elsewhere. */
export function debianPackageVersion(name: string, statusFile = '/var/lib/dpkg/status'): string | null {
  let status: string;
  try {
    status = readFileSync(statusFile, 'utf8');
  } catch {
    return null;
  }
  const entry = status.split('\n\n').find((block) => block.startsWith(`Package: ${name}\n`) && /^Status: install ok installed$/m.test(block));
  const version = entry?.match(/^Version: (?:\d+:)?([^\s-]+)/m)?.[1];
  return version ?? null;
}

/** Starts `file --version` (or the engine's own `args`) and reads its answer; a program that fails, or takes longer than `timeoutMs`, is broken. */
function askVersion(file: string, timeoutMs: number, by?: ProgramEngine['versionBy']): Promise<{ version: string | null; problem: string | null }> {
  return new Promise((resolve) => {
    const args = by?.args ?? ['--version'];
    const child = execFile(file, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 256 * 1024, env: childEnv(), windowsHide: true }, (error, stdout) => {
      if (!error) return resolve({ version: by ? by.version() : versionIn(String(stdout)), problem: null });
      const e = error as NodeJS.ErrnoException & { killed?: boolean; code?: unknown };
      if (e.killed) return resolve({ version: null, problem: `broken: ${file} did not answer ${args.join(' ')} within ${Math.round(timeoutMs / 1000)} s` });
      // The file is there (checked before): the interpreter its first line names is not.
      if (e.code === 'ENOENT') return resolve({ version: null, problem: `broken: ${file} cannot be started (the program it runs with is missing)` });
      if (e.code === 'EACCES') return resolve({ version: null, problem: `not executable at ${file}` });
      resolve({ version: null, problem: `broken: ${file} ${args.join(' ')} failed (${typeof e.code === 'number' ? `exit code ${e.code}` : e.message})` });
    });
    child.stdin?.end();
  });
}

/** Which kinds need each engine. */
function kindsNeeding(name: EngineName): TestKind[] {
  return TEST_KINDS.filter((kind) => kinds[kind].engines.includes(name));
}

async function checkOne(name: EngineName, paths: EnginePaths, timeoutMs: number): Promise<EngineCheck> {
  const engine = ENGINES[name];
  const common = { engine: name, title: engine.title, install: engine.install, kinds: kindsNeeding(name) };
  if (engine.type === 'program') {
    const file = engine.path(paths);
    const problem = engineProblem(engine, paths);
    const answer = problem ? { version: null, problem } : await askVersion(file, timeoutMs, engine.versionBy);
    return {
      ...common,
      ok: answer.problem === null,
      version: answer.version,
      location: file,
      problem: answer.problem,
      setting: engine.setting ?? null,
      ...(engine.optional ? { optional: true } : {}),
    };
  }
  const missing = missingPackages(engine);
  const first = engine.packages[0]!;
  return {
    ...common,
    ok: missing.length === 0,
    version: missing.length === 0 ? packageJson(first).version : null,
    location: engine.packages.join(', '),
    problem: missing.length === 0 ? null : `not installed: ${missing.join(', ')}`,
    setting: null,
    ...(engine.optional ? { optional: true } : {}),
  };
}

/**
 * Every engine, checked now: programs answer `--version` (at once, each within `timeoutMs`), packages resolve.
 * Ready when every engine but the optional ones (Firefox) is there.
 */
export async function checkEngines(paths: EnginePaths, options: { timeoutMs?: number } = {}): Promise<EngineReadiness> {
  const timeoutMs = options.timeoutMs ?? VERSION_TIMEOUT_MS;
  const engines = await Promise.all(ENGINE_NAMES.map((name) => checkOne(name, paths, timeoutMs)));
  return { status: engines.every((e) => e.ok || e.optional) ? 'ready' : 'degraded', checkedAt: new Date().toISOString(), engines };
}

const plural = (title: string) => (title.endsWith('is') ? `${title.slice(0, -2)}es` : `${title}s`);

/** One line for the log or the console about an engine that is not usable: what cannot run, why, and the fix. */
export function engineProblemLine(check: EngineCheck): string {
  const optional = ENGINES[check.engine as EngineName];
  const tests = optional?.optional ? optional.optional.for : check.kinds.map((kind) => plural(factsOf(kind)?.title ?? kind)).join(', ');
  const setting = check.setting ? ` (or set ${check.setting} to where it is)` : '';
  return `${check.title} is ${check.problem ?? 'not usable'}: ${tests || 'no test'} cannot run. Install it with: ${check.install}${setting}`;
}
