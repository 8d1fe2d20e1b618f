import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Finding, RunnerSummary } from '../types.ts';
import type { Reporter, RunReport } from './types.ts';

/** One self-contained page (inline styles, no scripts, no outside requests) a person can read and forward. */
export const htmlReporter: Reporter = {
  format: 'html',
  contentType: 'text/html; charset=utf-8',
  fileName: 'report.html',
  appliesTo: () => true,
  async write(report, { runDir, outDir }) {
    const file = path.join(outDir, this.fileName);
    const logs = await Promise.all(
      report.attempts.map(async (a) =>
        a.logPath ? fs.readFile(path.join(runDir, a.logPath), 'utf8').catch(() => '') : '',
      ),
    );
    await fs.writeFile(file, toHtml(report, logs));
    return file;
  },
};

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
main{max-width:980px;margin:0 auto;padding:24px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px}
.meta{color:#57606a}.badge{display:inline-block;padding:2px 10px;border-radius:12px;font-weight:600;color:#fff}
.passed{background:#1a7f37}.failed{background:#cf222e}.error{background:#9a6700}.skipped{background:#6e7781}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #d0d7de;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#eef1f4}.num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#fff;border:1px solid #d0d7de;padding:8px;overflow:auto;max-height:400px;font-size:12px;white-space:pre-wrap}
.cards{display:flex;gap:12px;flex-wrap:wrap}.card{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:10px 14px;min-width:120px}
.card b{display:block;font-size:20px}`;

function toHtml(r: RunReport, logs: string[]): string {
  const e = escapeHtml;
  const badge = (s: string) => `<span class="badge ${e(s)}">${e(s)}</span>`;
  const card = (label: string, value: string | number) => `<div class="card"><b>${e(String(value))}</b>${e(label)}</div>`;
  const parts: string[] = [];
  parts.push(`<h1>${e(r.testName)} ${badge(r.status)}</h1>`);
  parts.push(
    `<p class="meta">${e(r.clientName)} · group ${e(r.group)} · ${e(r.kind)} · target ${e(r.target)}<br>` +
      `run ${e(r.runId)} · started ${e(r.startedAt)} · finished ${e(r.finishedAt)} · ${(r.durationMs / 1000).toFixed(1)} s</p>`,
  );
  parts.push(
    `<div class="cards">${card('tests', r.totals.totalTests)}${card('passed', r.totals.passedTests)}` +
      `${card('failed', r.totals.failedTests)}${card('skipped', r.totals.skippedTests)}</div>`,
  );
  if (r.error) parts.push(`<h2>Error</h2><pre>${e(r.error)}</pre>`);
  if (r.summary) parts.push(summaryHtml(r.summary, r.falsePositives ?? []));
  parts.push('<h2>Attempts</h2><table><tr><th>#</th><th>status</th><th>started</th><th>finished</th><th>error</th></tr>');
  for (const a of r.attempts) {
    parts.push(
      `<tr><td class="num">${a.attempt}</td><td>${badge(a.status)}</td><td>${e(a.startedAt)}</td><td>${e(a.finishedAt ?? '')}</td><td>${e(a.error ?? '')}</td></tr>`,
    );
  }
  parts.push('</table>');
  r.attempts.forEach((a, i) => {
    if (logs[i]) parts.push(`<h2>Log of attempt ${a.attempt}</h2><pre>${e(logs[i] ?? '')}</pre>`);
  });
  if (r.artifacts.length) {
    parts.push('<h2>Artifacts (in the zip report)</h2><ul>');
    for (const a of r.artifacts) parts.push(`<li>${e(a.label ?? a.kind)}: <code>artifacts/${e(a.path)}</code></li>`);
    parts.push('</ul>');
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(r.testName)}: ${e(r.status)}</title><style>${STYLE}</style></head><body><main>${parts.join('\n')}</main></body></html>\n`;
}

function findingsTable(title: string, findings: Finding[]): string {
  const e = escapeHtml;
  if (!findings.length) return `<h2>${e(title)}</h2><p>None.</p>`;
  const rows = findings
    .map(
      (f) =>
        `<tr><td>${e(f.risk)}</td><td>${e(f.ruleId)}</td><td>${e(f.name)}</td><td>${e(f.url ?? '')}</td><td>${e(f.evidence ?? '')}</td><td>${e(f.solution ?? '')}</td></tr>`,
    )
    .join('');
  return `<h2>${e(title)}</h2><table><tr><th>risk</th><th>rule</th><th>alert</th><th>url</th><th>evidence</th><th>solution</th></tr>${rows}</table>`;
}

function summaryHtml(s: RunnerSummary, falsePositives: Finding[]): string {
  const e = escapeHtml;
  switch (s.kind) {
    case 'browser':
    case 'api':
    case 'security-checks': {
      const rows = s.cases
        .map(
          (c) =>
            `<tr><td>${e(c.name)}</td><td><span class="badge ${e(c.status)}">${e(c.status)}</span></td><td class="num">${c.durationMs} ms</td><td><pre>${e(c.error ?? '')}</pre></td></tr>`,
        )
        .join('');
      return `<h2>Cases</h2><table><tr><th>case</th><th>status</th><th>duration</th><th>error</th></tr>${rows}</table>`;
    }
    case 'load': {
      const rows = Object.entries(s.load)
        .map(([k, v]) => `<tr><td>${e(k)}</td><td class="num">${e(String(typeof v === 'number' ? Math.round(v * 100) / 100 : v))}</td></tr>`)
        .join('');
      const fails = s.failuresByUrl
        .map((f) => `<tr><td>${e(f.url)}</td><td>${e(String(f.status))}</td><td class="num">${f.count}</td></tr>`)
        .join('');
      return `<h2>Load</h2><table>${rows}</table>${fails ? `<h2>Failures by URL</h2><table><tr><th>url</th><th>status</th><th>count</th></tr>${fails}</table>` : ''}`;
    }
    case 'lighthouse': {
      const rows = s.pages
        .map((p) => `<tr><td>${e(p.url)}</td>${Object.entries(p.scores).map(([k, v]) => `<td>${e(k)}: ${Math.round(v * 100) / 100}</td>`).join('')}</tr>`)
        .join('');
      return `<h2>Lighthouse scores</h2><table>${rows}</table>`;
    }
    case 'accessibility': {
      const rows = s.pages
        .map(
          (p) =>
            `<tr><td>${e(p.url)}</td><td><span class="badge ${p.passed ? 'passed' : 'failed'}">${p.passed ? 'passed' : 'failed'}</span></td><td>${e(
              Object.entries(p.violationsByImpact).map(([k, v]) => `${k}: ${v}`).join(', ') || 'no violations',
            )}</td></tr>`,
        )
        .join('');
      return `<h2>Pages</h2><table><tr><th>page</th><th>result</th><th>violations by impact</th></tr>${rows}</table>`;
    }
    case 'security-scan':
      return findingsTable('Alerts', s.findings) + (falsePositives.length ? findingsTable('False positives', falsePositives) : '');
    case 'mobile-static':
      return findingsTable('Findings', s.findings);
  }
}
