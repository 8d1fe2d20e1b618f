import { access, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { harmlessBody, type JsonShape } from '../../lib/call-shape.ts';
import { runChild } from '../../lib/child-process.ts';
import { withLoginHeaders } from '../../lib/login-session.ts';
import type { NetJail } from '../../sandbox/net-jail.ts';
import type { Finding, RunContext } from '../../types.ts';
import type { ScanCallCoverage } from './facts.ts';
import { parseSqlmapLog, parseSqlmapOutput } from './sqlmap-log.ts';
import { proxiedEnv } from './wapiti.ts';
import { ZAP_RULES } from './zap-rules.ts';

/** Where Debian installs sqlmap (package `sqlmap`). */
export const DEFAULT_SQLMAP_PATH = '/usr/bin/sqlmap';
/** JSON calls attacked in one scan, at most; the others are listed as not run. */
export const MAX_SQLMAP_CALLS = 10;
/** One request's time-out, and no retry: a call that hangs is the site's answer, not a reason to wait longer. */
export const SQLMAP_REQUEST_TIMEOUT_SECONDS = 10;
/** Seconds one call needs at least; with less of the scan's time left it is not started. */
export const MIN_SQLMAP_CALL_SECONDS = 5;
/**
 * Boolean-based blind and error-based only, level 1 and risk 1: the payloads that neither sleep (time-based costs
 * seconds a request) nor write (risk 1 has no OR or stacked queries), so a scan of a login stays within seconds.
 */
const SQLMAP_TECHNIQUES = 'BE';

export interface SqlmapCall {
  method: string;
  url: string;
  json: JsonShape;
}

export interface SqlmapOptions {
  calls: SqlmapCall[];
  /** The scan's time left for sqlmap, in all. */
  seconds: number;
  /** The policy proxy as sqlmap reaches it (inside the jail: JAIL_PROXY_PORT). */
  proxyUrl: string;
  jail: NetJail | null;
}

export interface SqlmapResult {
  findings: Finding[];
  calls: ScanCallCoverage[];
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** An SQL injection in a JSON field, under ZAP's rule 40018. */
function sqlFinding(url: string, param: string, evidence: string): Finding {
  const { id, name, risk } = ZAP_RULES.sqlInjection;
  return {
    ruleId: id,
    name,
    risk,
    url: url.split('?')[0]!,
    param,
    evidence,
    description: 'A field of a JSON call reaches an SQL query as text: a value can change the query, read or change data it should not.',
    solution: 'Pass every value to the database as a bound parameter (a prepared statement), never joined into the query\'s text; answer errors without the database\'s message.',
  };
}

/** sqlmap's log file of one call: `<output dir>/<host>/log`. */
async function readLog(outputDir: string): Promise<string> {
  const hosts = await readdir(outputDir, { withFileTypes: true }).catch(() => []);
  for (const host of hosts) {
    if (!host.isDirectory()) continue;
    const text = await readFile(path.join(outputDir, host.name, 'log'), 'utf8').catch(() => '');
    if (text) return text;
  }
  return '';
}

/**
 * Attacks each JSON call the browser crawl saw with Debian's sqlmap, one process per call, one after the other,
 * through the policy proxy and inside the attempt's network jail as wapiti is. The body sqlmap starts from is made
 * of the call's shape with harmless values (lib/call-shape.ts), never what the page sent. Each call gets an equal
 * share of the time left; a call sqlmap could not test to the end is said so in the coverage.
 */
export async function runSqlmap(options: SqlmapOptions, ctx: RunContext): Promise<SqlmapResult> {
  const dir = path.join(ctx.runDir, 'sqlmap');
  await mkdir(dir, { recursive: true });
  const file = DEFAULT_SQLMAP_PATH;
  const installed = await access(file).then(() => true, () => false);
  const deadline = Date.now() + options.seconds * 1000;
  const findings: Finding[] = [];
  const calls: ScanCallCoverage[] = [];
  const logs: string[] = [];
  const todo = options.calls.slice(0, MAX_SQLMAP_CALLS);
  for (const [i, call] of todo.entries()) {
    const params = Object.keys(call.json);
    const left = Math.floor((deadline - Date.now()) / 1000);
    if (!installed || left < MIN_SQLMAP_CALL_SECONDS) {
      calls.push({ method: call.method, url: call.url, params, status: 'not-run', error: installed ? 'no time was left in the scan (maxScanSeconds)' : `${file} is not installed (apt-get install sqlmap)` });
      continue;
    }
    const share = Math.max(MIN_SQLMAP_CALL_SECONDS, Math.floor(left / (todo.length - i)));
    const outputDir = path.join(dir, String(i + 1));
    const headers = Object.entries(withLoginHeaders(ctx.login, call.url)).map(([name, value]) => `${name}: ${value}`);
    const args = [
      '-u', call.url,
      '--method', call.method,
      '--data', JSON.stringify(harmlessBody(call.json)),
      ...(headers.length ? ['--headers', headers.join('\n')] : []),
      '--batch',
      '--level', '1',
      '--risk', '1',
      '--technique', SQLMAP_TECHNIQUES,
      // A login answers 401 to every attempt: sqlmap goes on whatever the status.
      '--ignore-code', '*',
      '--skip-waf',
      '--timeout', String(SQLMAP_REQUEST_TIMEOUT_SECONDS),
      '--retries', '0',
      '--flush-session',
      '--disable-coloring',
      '--output-dir', outputDir,
      // Every request goes through the policy proxy: sqlmap never resolves a name or reaches an origin itself.
      '--proxy', options.proxyUrl,
    ];
    const started = Date.now();
    let output = '';
    const result = await runChild('/bin/sh', ['-c', 'exec "$0" "$@" 2>&1', file, ...args], {
      cwd: dir,
      // HOME inside the attempt (sqlmap keeps its data there); TERM=dumb: no terminal escapes in the log.
      env: proxiedEnv(options.proxyUrl, { HOME: dir, PYTHONUNBUFFERED: '1', TERM: 'dumb' }),
      signal: ctx.signal,
      timeoutMs: share * 1000,
      onOutput: (chunk) => {
        output += chunk;
      },
      jail: options.jail,
    });
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    logs.push(`===== sqlmap ${call.method} ${call.url} (${params.join(', ')}), ${share} s at most =====\n${output}${result.timedOut ? '\n===== stopped at its share of the scan time =====\n' : ''}\n`);
    const said = parseSqlmapOutput(output);
    const injections = parseSqlmapLog(await readLog(outputDir));
    const where = `${call.method} ${pathOf(call.url)}`;
    for (const x of injections) {
      findings.push(sqlFinding(call.url, x.param, `sqlmap confirmed ${x.types.join(', ')} SQL injection in the JSON field ${x.param}${x.dbms ? ` (${x.dbms})` : ''} · ${where}`));
    }
    for (const hint of said.errorHints) {
      if (injections.some((x) => x.param === hint.param)) continue;
      // As ZAP's rule 40018 reports it: a quote in the field made the server answer with the database's error.
      findings.push(sqlFinding(call.url, hint.param, `a quote in the JSON field ${hint.param} made the server answer with a ${hint.dbms} error (sqlmap's error check) · ${where}`));
    }
    const status: ScanCallCoverage['status'] = result.timedOut ? 'time-limit' : said.finished ? 'finished' : 'failed';
    const error = status === 'failed' ? (said.error ?? (result.code === 0 ? 'sqlmap ended without testing every parameter' : `sqlmap stopped with exit code ${result.code}`)) : undefined;
    calls.push({ method: call.method, url: call.url, params, status, seconds, ...(error ? { error } : {}) });
    await writeFile(path.join(dir, 'sqlmap.log'), logs.join(''));
  }
  for (const call of options.calls.slice(MAX_SQLMAP_CALLS)) {
    calls.push({ method: call.method, url: call.url, params: Object.keys(call.json), status: 'not-run', error: `over the ${MAX_SQLMAP_CALLS} calls a scan attacks` });
  }
  return { findings, calls };
}
