import type { Finding, Risk } from '../../types.ts';
import { zapRuleFor } from './zap-rules.ts';

export interface WapitiEntry {
  method: string;
  path: string;
  info: string;
  level: number | string;
  parameter: string;
  /** The request that showed it, as sent (request line, headers, body). */
  http_request?: string;
}
export interface WapitiReport {
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

/**
 * Wapiti's JSON report as findings, one per instance (rule, URL, parameter), each under ZAP's plugin id, name and
 * risk for its kind of flaw (zap-rules.ts). The few categories ZAP has no rule for keep a `wapiti:` id: a
 * vulnerability at wapiti's own level, an anomaly (a payload that made the site time out) as Informational, since
 * ZAP raises nothing for it.
 */
export function parseWapitiReport(report: WapitiReport, origin: string): Finding[] {
  const out: Finding[] = [];
  const add = (entries: Record<string, WapitiEntry[]> | undefined, anomaly: boolean) => {
    for (const [category, list] of Object.entries(entries ?? {})) {
      const about = report.classifications?.[category];
      for (const entry of list) {
        const zap = zapRuleFor(category, entry);
        out.push({
          ruleId: zap?.id ?? `wapiti:${slug(category)}`,
          name: zap?.name ?? category,
          risk: zap?.risk ?? (anomaly ? 'Informational' : riskOf(entry.level)),
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
