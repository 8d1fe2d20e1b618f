import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runChild } from '../../lib/child-process.ts';
import type { Finding, Risk, RunContext } from '../../types.ts';

/** Where Debian installs wapiti; the server passes its WAPITI_PATH in the run's context. */
export const DEFAULT_WAPITI_PATH = '/usr/bin/wapiti';
/** Wapiti's attack modules we run by default: `ssrf` calls an outside service, and the header/cookie modules
 * duplicate the passive checks (which carry ZAP's ids). */
export const DEFAULT_WAPITI_MODULES = ['blindsql', 'exec', 'file', 'permanentxss', 'redirect', 'sql', 'xss'];
export const FORBIDDEN_WAPITI_MODULES = ['ssrf', 'wapp', 'nikto'];
/** Extra time over --max-scan-time for wapiti to write its report before it is killed. */
export const WAPITI_EXIT_GRACE_MS = 30_000;
export const WAPITI_REQUEST_TIMEOUT_SECONDS = 10;

interface WapitiEntry {
  method: string;
  path: string;
  info: string;
  level: number | string;
  parameter: string;
  /** The request that showed it, as sent (request line, headers, body). */
  http_request?: string;
}
interface WapitiReport {
  classifications?: Record<string, { desc?: string; sol?: string }>;
  vulnerabilities?: Record<string, WapitiEntry[]>;
  anomalies?: Record<string, WapitiEntry[]>;
}

function riskOf(level: number | string): Risk {
  const n = Number(level);
  if (n >= 3) return 'High';
  if (n === 2) return 'Medium';
  if (n === 1) return 'Low';
  return 'Informational';
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/**
 * What wapiti saw and the request that showed it: its request line only (the payload is in the URL or named by
 * the parameter; headers hold nothing a reader needs), e.g. "XSS vulnerability found via injection in the
 * parameter q · GET /search?q=%3CScRiPt%3E… HTTP/1.1".
 */
function evidenceOf(entry: WapitiEntry): string {
  const requestLine = entry.http_request?.split('\n', 1)[0]?.trim();
  return (requestLine ? `${entry.info} · ${requestLine}` : `${entry.method} ${entry.info}`).slice(0, 500);
}

/** Wapiti's JSON report as findings; anomalies (errors and timeouts its payloads caused) count at most Low. */
export function parseWapitiReport(report: WapitiReport, origin: string): Finding[] {
  const out: Finding[] = [];
  const add = (entries: Record<string, WapitiEntry[]> | undefined, anomaly: boolean) => {
    for (const [category, list] of Object.entries(entries ?? {})) {
      const about = report.classifications?.[category];
      for (const entry of list) {
        let risk = riskOf(entry.level);
        if (anomaly && (risk === 'High' || risk === 'Medium')) risk = 'Low';
        out.push({
          ruleId: `wapiti:${slug(category)}`,
          name: category,
          risk,
          url: new URL(entry.path, origin).href,
          ...(entry.parameter ? { param: entry.parameter } : {}),
          evidence: evidenceOf(entry),
          ...(about?.desc ? { description: about.desc.trim() } : {}),
          ...(about?.sol ? { solution: about.sol.trim() } : {}),
        });
      }
    }
  };
  add(report.vulnerabilities, false);
  add(report.anomalies, true);
  return out;
}

/** The environment with no proxy exception: python-requests would bypass the proxy for NO_PROXY hosts. */
function proxiedEnv(proxyUrl: string, extra: Record<string, string>): NodeJS.ProcessEnv {
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
  /** The policy proxy every wapiti request goes through (`http://127.0.0.1:<port>`). */
  proxyUrl: string;
  /** Extra start URLs (found by a browser crawl), each passed as -s. */
  seedUrls?: string[];
}

/**
 * Runs wapiti with its session and config folders inside the run folder, the Wappalyzer database seeded empty
 * (it downloads one at start otherwise), and the scope held to the target's folder.
 */
export async function runWapiti(options: WapitiOptions, ctx: RunContext): Promise<{ findings: Finding[]; reportPath: string; exitCode: number | null; timedOut: boolean }> {
  const dir = path.join(ctx.runDir, 'wapiti');
  const configDir = path.join(dir, 'config');
  const sessionDir = path.join(dir, 'session');
  await mkdir(configDir, { recursive: true });
  await mkdir(sessionDir, { recursive: true });
  await writeFile(path.join(configDir, 'apps.json'), JSON.stringify({ technologies: {}, categories: {} }));
  const reportPath = path.join(dir, 'report.json');
  const args = [
    '-u', options.startUrl,
    ...(options.seedUrls ?? []).flatMap((u) => ['-s', u]),
    '--scope', 'folder',
    '-m', options.modules.join(','),
    '-d', String(options.depth),
    '--max-scan-time', String(options.maxScanSeconds),
    '--max-attack-time', String(Math.max(5, Math.floor(options.maxScanSeconds / 2))),
    '-t', String(WAPITI_REQUEST_TIMEOUT_SECONDS),
    '--flush-session',
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
  ];
  let log = '';
  const result = await runChild(ctx.wapitiPath ?? DEFAULT_WAPITI_PATH, args, {
    cwd: dir,
    env: proxiedEnv(options.proxyUrl, { HOME: dir, XDG_CONFIG_HOME: configDir }),
    signal: ctx.signal,
    timeoutMs: options.maxScanSeconds * 1000 + WAPITI_EXIT_GRACE_MS,
    onOutput: (chunk) => (log += chunk),
  });
  await writeFile(path.join(dir, 'wapiti.log'), log);
  let report: WapitiReport;
  try {
    report = JSON.parse(await readFile(reportPath, 'utf8')) as WapitiReport;
  } catch {
    throw new Error(`wapiti wrote no report (exit ${result.code}${result.timedOut ? ', timed out' : ''}): ${log.slice(-500)}`);
  }
  return { findings: parseWapitiReport(report, new URL(options.startUrl).origin), reportPath, exitCode: result.code, timedOut: result.timedOut };
}
