import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runChild } from '../../lib/child-process.ts';
import type { NetJail } from '../../sandbox/net-jail.ts';
import type { Finding, RunContext } from '../../types.ts';
import { parseWapitiReport } from './wapiti-report.ts';
import { wapitiLoginArgs } from './wapiti-login.ts';
import type { ScanCoverage, ScanModuleCoverage, ScanModuleError } from './facts.ts';
import { parseWapitiLog, withoutColours } from './wapiti-log.ts';
import { forgetAttacks, leaveOut, readSession, resourceOf, type SessionResource } from './wapiti-session.ts';
import { wapitiPythonPath } from './wapiti-python.ts';

/** Where Debian installs wapiti; the server passes its WAPITI_PATH in the run's context. */
export const DEFAULT_WAPITI_PATH = '/usr/bin/wapiti';
/** Wapiti's attack modules we run by default: `ssrf` calls an outside service, and the header/cookie modules
 * duplicate the passive checks (which carry ZAP's ids). */
export const DEFAULT_WAPITI_MODULES = ['blindsql', 'exec', 'file', 'permanentxss', 'redirect', 'sql', 'xss'];
export const FORBIDDEN_WAPITI_MODULES = ['ssrf', 'wapp', 'nikto'];
/** Extra time over --max-scan-time for wapiti to write its report before it is killed. */
export const WAPITI_EXIT_GRACE_MS = 30_000;
export const WAPITI_REQUEST_TIMEOUT_SECONDS = 10;

/** The environment with no proxy exception: python-requests would bypass the proxy for NO_PROXY hosts. */
export function proxiedEnv(proxyUrl: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['NO_PROXY', 'no_proxy', 'ALL_PROXY', 'all_proxy']) delete env[name];
  for (const name of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy']) env[name] = proxyUrl;
  return env;
}

export interface WapitiOptions {
  startUrl: string;
  modules: string[];
  depth: number;
  maxScanSeconds: number;
  excludes: string[];
  /** The policy proxy every wapiti request goes through (`http://127.0.0.1:<port>`), as wapiti reaches it. */
  proxyUrl: string;
  /**
   * The network namespace wapiti runs in, whose only way out is the policy proxy (sandbox/net-jail.ts); `proxyUrl`
   * is then the proxy's address inside it. Null: wapiti shares the runner's network (the kernel refuses the jail).
   */
  jail?: NetJail | null;
  /** Extra start URLs (found by a browser crawl), each passed as -s. */
  seedUrls?: string[];
}

export interface WapitiResult {
  findings: Finding[];
  /** The last report wapiti wrote (each holds everything its session found), if any. */
  reportPath: string | null;
  /** Exit code and time-out of the first wapiti process (crawl and every module). */
  exitCode: number | null;
  timedOut: boolean;
  coverage: ScanCoverage;
}

/**
 * Modules that read what another module learnt in the same process: permanentxss looks for the payloads xss
 * injected. Run again, such a module runs with those, which attack everything again (their findings repeat and
 * are merged).
 */
const REQUIRES: Record<string, string[]> = { permanentxss: ['xss'] };

/** Times one module may run in all: its first run and this many minus one more after a crash. */
export const MAX_MODULE_RUNS = 3;
/** Seconds a module run again needs at least; with less of the scan's time left it is not started. */
const MIN_RERUN_SECONDS = 5;

interface ModuleState {
  name: string;
  status: ScanModuleCoverage['status'];
  runs: number;
  /** Run it again (alone, --skip-crawl): it crashed and the request that broke it was left out, or it never started. */
  again: boolean;
  /** Ran in a process of its own already. */
  isolated: boolean;
  /** Time spent in it over all its runs, from its "Launching module" line to the next section's. */
  ms: number;
}

interface WapitiRun {
  modules: string[];
  log: string;
  code: number | null;
  timedOut: boolean;
  reportPath: string;
  /** Milliseconds each module's section lasted in this process, in the order they ran. */
  times: { module: string; ms: number }[];
  /** Milliseconds before the first module started (the crawl, in the first run). */
  beforeModulesMs: number;
}

const LAUNCH_LINE = /^\[\*\] Launching module (\w+)/;

/**
 * Times each module's section as its lines arrive (wapiti prints no clock): a section lasts from its "Launching
 * module" line to the next one, or to the end of the process.
 */
function sectionClock(startedAt: number) {
  const marks: { module: string; at: number }[] = [];
  let pending = '';
  return {
    feed(chunk: string) {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = LAUNCH_LINE.exec(withoutColours(line));
        if (m) marks.push({ module: m[1]!, at: Date.now() });
      }
    },
    end(endedAt: number) {
      const times = marks.map((m, i) => ({ module: m.module, ms: (marks[i + 1]?.at ?? endedAt) - m.at }));
      return { times, beforeModulesMs: (marks[0]?.at ?? endedAt) - startedAt };
    },
  };
}

/**
 * Runs wapiti with its session and config folders inside the run folder, the Wappalyzer database seeded empty
 * (it downloads one at start otherwise), and the scope held to the target's folder. The first process crawls and
 * runs every module (wapiti catches a module's crash and goes on to the next); a module that crashed is run again
 * alone on the same session with the URL it crashed on left out (at most MAX_MODULE_RUNS times), and the modules
 * a process that died never finished run again each in a process of its own. See docs/decisions/0058.
 */
export async function runWapiti(options: WapitiOptions, ctx: RunContext): Promise<WapitiResult> {
  const dir = path.join(ctx.runDir, 'wapiti');
  const configDir = path.join(dir, 'config');
  const sessionDir = path.join(dir, 'session');
  await mkdir(configDir, { recursive: true });
  await mkdir(sessionDir, { recursive: true });
  await writeFile(path.join(configDir, 'apps.json'), JSON.stringify({ technologies: {}, categories: {} }));
  const pythonPath = await wapitiPythonPath(dir, process.env.PYTHONPATH);
  const startedAt = Date.now();
  // The scan's own time (maxScanSeconds): a module run again after a crash gets what is left of it, never more.
  const scanDeadline = startedAt + options.maxScanSeconds * 1000;
  const deadline = scanDeadline + WAPITI_EXIT_GRACE_MS;
  const attackSeconds = Math.max(5, Math.floor(options.maxScanSeconds / 2));
  const logs: string[] = [];

  const run = async (own: string[], helpers: string[], n: number): Promise<WapitiRun> => {
    const modules = [...helpers, ...own];
    const reportPath = path.join(dir, n === 1 ? 'report.json' : `report-${n}.json`);
    const crawl = n === 1;
    const leftSeconds = Math.max(1, Math.floor((scanDeadline - Date.now()) / 1000));
    const args = [
      '-u', options.startUrl,
      ...(options.seedUrls ?? []).flatMap((u) => ['-s', u]),
      '--scope', 'folder',
      '-m', modules.join(','),
      '-d', String(options.depth),
      '--max-scan-time', String(crawl ? options.maxScanSeconds : leftSeconds),
      '--max-attack-time', String(crawl ? attackSeconds : Math.min(attackSeconds, leftSeconds)),
      '-t', String(WAPITI_REQUEST_TIMEOUT_SECONDS),
      // The first run crawls into a fresh session; the later ones attack what it found, skipping what each
      // module already attacked to the end (and what was left out).
      ...(crawl ? ['--flush-session'] : ['--skip-crawl']),
      '--store-session', sessionDir,
      '--store-config', configDir,
      '--no-bugreport',
      '-v', '1',
      '-f', 'json',
      '-o', reportPath,
      // wapiti would resolve the target's name itself: through the proxy it connects only to the pinned address,
      // and any URL a payload or module sends it to outside the target's origins is refused.
      '--proxy', `${options.proxyUrl}/`,
      ...options.excludes.flatMap((x) => ['-x', x]),
      ...wapitiLoginArgs(ctx.login, options.startUrl),
    ];
    let log = '';
    const clock = sectionClock(Date.now());
    // One pipe for both streams, unbuffered: wapiti prints a crashed module's exception on stdout and its traceback
    // on stderr, and the log must keep them in order, inside the module's section.
    const result = await runChild('/bin/sh', ['-c', 'exec "$0" "$@" 2>&1', ctx.wapitiPath ?? DEFAULT_WAPITI_PATH, ...args], {
      cwd: dir,
      env: proxiedEnv(options.proxyUrl, { HOME: dir, XDG_CONFIG_HOME: configDir, PYTHONUNBUFFERED: '1', PYTHONPATH: pythonPath }),
      signal: ctx.signal,
      // Every run ends by the scan's time and the grace to write its report.
      timeoutMs: Math.max(1000, deadline - Date.now()),
      onOutput: (chunk) => {
        log += chunk;
        clock.feed(chunk);
      },
      jail: options.jail ?? null,
    });
    const { times, beforeModulesMs } = clock.end(Date.now());
    const header = n === 1 ? '' : `\n===== wapiti run ${n}: ${own.join(', ')} alone${helpers.length ? ` (with ${helpers.join(', ')}, which it needs)` : ''}, on the first run's session =====\n`;
    logs.push(`${header}${log}${result.code === 0 ? '' : `\n===== wapiti ended with exit code ${result.code}${result.timedOut ? ' (time limit)' : ''} =====\n`}`);
    await writeFile(path.join(dir, 'wapiti.log'), logs.join(''));
    return { modules, log, code: result.code, timedOut: result.timedOut, reportPath, times, beforeModulesMs };
  };

  const states = new Map<string, ModuleState>(options.modules.map((name) => [name, { name, status: 'not-run', runs: 0, again: false, isolated: false, ms: 0 }]));
  const errors: ScanModuleError[] = [];
  const leftOut: { module: string; pathId: number }[] = [];
  const reports: string[] = [];
  const origin = new URL(options.startUrl).origin;

  const settle = async (r: WapitiRun, own: string[]) => {
    const parsed = parseWapitiLog(r.log);
    for (const t of r.times) {
      const state = states.get(t.module);
      if (state && own.includes(t.module)) state.ms += t.ms;
    }
    if (parsed.reportWritten || (await readFile(r.reportPath, 'utf8').then(() => true, () => false))) reports.push(r.reportPath);
    const died = r.code !== 0 || r.timedOut || !parsed.reportWritten;
    const why = r.timedOut
      ? 'the scan reached its time limit'
      : parsed.fatal
        ? `wapiti stopped with ${parsed.fatal}`
        : r.code === null
          ? 'wapiti was killed'
          : r.code !== 0
            ? `wapiti stopped with exit code ${r.code}`
            : 'wapiti stopped before it wrote its report';
    for (const name of own) {
      const state = states.get(name)!;
      const section = parsed.sections.filter((s) => s.module === name).at(-1);
      if (!section) {
        // Never started: run it again on its own unless it just had a process of its own.
        state.again = died && !state.isolated && !r.timedOut;
        if (!state.again) errors.push({ module: name, error: died ? `it never started: ${why}` : 'wapiti did not start it', retried: false });
        continue;
      }
      state.runs++;
      if (section.timeLimit) {
        state.status = 'time-limit';
        state.again = false;
        continue;
      }
      if (!section.crash && section.ended) {
        state.status = 'finished';
        state.again = false;
        continue;
      }
      // Crashed: inside the module (wapiti printed the exception), or wapiti itself died while it ran.
      const crash = section.crash ?? { error: why, ...(section.started.length ? { at: section.started.at(-1)! } : {}) };
      const resources = await readSession(sessionDir);
      const broke = crash.at ? resourceOf(resources, crash.at, name) : firstOpen(resources, name);
      const error: ScanModuleError = { module: name, error: crash.error, retried: false };
      if (broke) Object.assign(error, { method: broke.method, url: broke.url, params: [...broke.getParams, ...broke.postParams] });
      else if (crash.at) Object.assign(error, { ...(crash.at.method ? { method: crash.at.method } : {}), url: crash.at.url.split('?')[0] });
      errors.push(error);
      state.status = 'crashed';
      state.again = false;
      if (r.timedOut || state.runs >= MAX_MODULE_RUNS || !broke) continue;
      if (await leaveOut(sessionDir, broke.pathId, name)) {
        leftOut.push({ module: name, pathId: broke.pathId });
        error.retried = true;
        state.again = true;
      }
    }
  };

  const first = await run(options.modules, [], 1);
  // The shell's exec could not start wapiti (126: not executable, 127: it or the interpreter it names is missing):
  // the same failure as a direct spawn's, which the run reports as an engine to install (lib/engines.ts).
  if ((first.code === 126 || first.code === 127) && /\bexec: /.test(first.log)) {
    const file = ctx.wapitiPath ?? DEFAULT_WAPITI_PATH;
    throw Object.assign(new Error(`${file} could not be started: ${first.log.trim().slice(0, 200)}`), {
      code: first.code === 126 ? 'EACCES' : 'ENOENT',
      path: file,
      syscall: `spawn ${file}`,
    });
  }
  const crawlStopped = parseWapitiLog(first.log).crawlTimeLimit;
  const crawlMs = first.beforeModulesMs;
  await settle(first, options.modules);
  for (let n = 2; ; n++) {
    const next = [...states.values()].find((s) => s.again);
    if (!next) break;
    if (scanDeadline - Date.now() < MIN_RERUN_SECONDS * 1000) {
      next.again = false;
      errors.push({ module: next.name, error: 'no time was left in the scan (maxScanSeconds) to run it again', retried: false });
      continue;
    }
    // A module it needs that is due to run again runs with it, as one of its own.
    const needed = REQUIRES[next.name] ?? [];
    const own = [...needed.filter((m) => states.get(m)?.again), next.name];
    const helpers = needed.filter((m) => !own.includes(m));
    for (const m of own) Object.assign(states.get(m)!, { again: false, isolated: true });
    ctx.log('running wapiti modules again on their own', { modules: own, with: helpers, run: n });
    if (needed.length) await forgetAttacks(sessionDir, needed, leftOut);
    await settle(await run(own, helpers, n), own);
  }

  // Each report holds everything its session found: the last one written is the whole scan's.
  const findings: Finding[] = [];
  for (const reportPath of reports) {
    try {
      findings.push(...parseWapitiReport(JSON.parse(await readFile(reportPath, 'utf8')) as Parameters<typeof parseWapitiReport>[0], origin));
    } catch {
      // A report cut short (killed while writing it): the others still count.
    }
  }
  const last = reports.at(-1) ?? null;
  const reportPath = path.join(dir, 'report.json');
  if (last && last !== reportPath) await copyFile(last, reportPath);
  const coverage = coverageOf([...states.values()], errors, leftOut, await readSession(sessionDir), origin, last !== null);
  if (crawlStopped) coverage.crawlStoppedAtTimeLimit = true;
  coverage.time = { budgetSeconds: options.maxScanSeconds, crawlSeconds: seconds(crawlMs), totalSeconds: seconds(Date.now() - startedAt) };
  return { findings, reportPath: last ? reportPath : null, exitCode: first.code, timedOut: first.timedOut, coverage };
}

/** The first URL or form with parameters `module` has not finished: where a module that prints no URLs crashed. */
function firstOpen(resources: SessionResource[], module: string): SessionResource | undefined {
  const open = resources.filter((r) => r.getParams.length + r.postParams.length > 0 && !r.attackedBy.includes(module));
  return open.find((r) => r.method === 'GET') ?? open[0];
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;
/** "1 module", "3 modules". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "GET /go (url)": a request the way the scan's status names it, path only when it is on the target's origin. */
function where(origin: string, e: Pick<ScanModuleError, 'method' | 'url' | 'params'>, withParams = true): string {
  if (!e.url) return 'a URL it did not name';
  const url = e.url.startsWith(origin) ? e.url.slice(origin.length) || '/' : e.url;
  const params = withParams && e.params?.length ? ` (${e.params.join(', ')})` : '';
  return `${e.method ? `${e.method} ` : ''}${url}${params}`;
}

/**
 * The coverage table and, when anything was not attacked, why in words: `incomplete` says what was not attacked
 * ("sql did not finish on GET /go (url)"), `progress` counts the modules that attacked everything ("6 of 7 modules
 * finished; sql stopped at GET /go"). A module that crashed on a URL did not finish, even when it was run again
 * around it and attacked the rest.
 */
function coverageOf(
  states: ModuleState[],
  errors: ScanModuleError[],
  leftOut: { module: string; pathId: number }[],
  resources: SessionResource[],
  origin: string,
  reported: boolean,
): ScanCoverage {
  // attack_log lists what was left out of a module too: that URL was not attacked by it.
  const attackedBy = (r: SessionResource) => r.attackedBy.filter((m) => !leftOut.some((x) => x.module === m && x.pathId === r.pathId)).sort();
  const crashesOf = (s: ModuleState) => errors.filter((e) => e.module === s.name && (e.url !== undefined || e.retried || s.status === 'crashed'));
  const modules: ScanModuleCoverage[] = states.map((s) => ({
    name: s.name,
    status: s.status,
    runs: s.runs,
    attacked: resources.filter((r) => attackedBy(r).includes(s.name)).length,
    seconds: seconds(s.ms),
    ...(s.status === 'finished' && crashesOf(s).length ? { leftOut: crashesOf(s).filter((e) => e.retried).length } : {}),
  }));
  const targets = resources
    .filter((r) => r.getParams.length + r.postParams.length > 0)
    .map((r) => ({ method: r.method, url: r.url, params: [...new Set([...r.getParams, ...r.postParams])], modules: attackedBy(r) }));
  const missed: string[] = [];
  const stopped: string[] = [];
  for (const s of states) {
    const crashes = crashesOf(s);
    if (s.status === 'not-run') {
      const why = errors.filter((e) => e.module === s.name).at(-1)?.error ?? 'wapiti did not start it';
      missed.push(`${s.name} did not run (${why})`);
      stopped.push(`${s.name} did not run`);
    } else if (s.status === 'time-limit') {
      missed.push(`${s.name} ran out of its share of the scan time`);
      stopped.push(`${s.name} ran out of time`);
    } else if (crashes.length) {
      missed.push(`${s.name} did not finish on ${[...new Set(crashes.map((e) => where(origin, e)))].join(' and ')}`);
      stopped.push(`${s.name} stopped at ${[...new Set(crashes.map((e) => where(origin, e, false)))].join(' and ')}`);
    }
  }
  if (!reported) missed.push('wapiti wrote no report');
  const finished = states.filter((s) => s.status === 'finished' && crashesOf(s).length === 0).length;
  const complete = missed.length === 0;
  const progress = `${finished} of ${plural(states.length, 'module')} finished${stopped.length ? `; ${stopped.join('; ')}` : ''}`;
  return {
    complete,
    ...(complete ? {} : { incomplete: missed.join('; ') }),
    progress,
    modules,
    targets,
    errors,
  };
}
