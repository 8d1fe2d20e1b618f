import { promises as fs } from 'node:fs';
import path from 'node:path';
import { factsOf } from '../runners/kinds.ts';
import type { CaseResult } from '../types.ts';
import type { Reporter, RunReport } from './types.ts';

/** JUnit is made of cases: the kinds whose summary is a list of them (`casesKind`) write it. */
const hasCases = (kind: string) => 'cases' in (factsOf(kind)?.emptySummary() ?? {});

/** Characters XML 1.0 allows: tab, newline, carriage return, and everything from space up (minus surrogates and FFFE/FFFF). */
function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
}

export function escapeXml(s: string): string {
  let clean = '';
  for (const ch of s) if (isXmlChar(ch.codePointAt(0)!)) clean += ch;
  return clean.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** JUnit XML, the format every CI understands, for the kinds made of pass/fail cases. */
export const junitReporter: Reporter = {
  format: 'xml',
  contentType: 'application/xml',
  fileName: 'junit.xml',
  appliesTo: hasCases,
  async write(report, { outDir }) {
    const file = path.join(outDir, this.fileName);
    await fs.writeFile(file, toJunit(report));
    return file;
  },
};

export function toJunit(report: RunReport): string {
  const cases: CaseResult[] = (report.summary && 'cases' in report.summary ? report.summary.cases : undefined) ?? [];
  const failures = cases.filter((c) => c.status === 'failed').length;
  const skipped = cases.filter((c) => c.status === 'skipped').length;
  const errors = report.status === 'error' ? 1 : 0;
  const secs = (ms: number) => (ms / 1000).toFixed(3);
  const name = escapeXml(report.testName);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${secs(report.durationMs)}">`,
    `  <testsuite name="${name}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${secs(report.durationMs)}" timestamp="${escapeXml(report.startedAt)}">`,
  ];
  for (const c of cases) {
    lines.push(`    <testcase classname="${escapeXml(report.group)}.${name}" name="${escapeXml(c.name)}" time="${secs(c.durationMs)}">`);
    if (c.status === 'failed') {
      const msg = escapeXml((c.error ?? 'failed').split('\n')[0] ?? 'failed');
      lines.push(`      <failure message="${msg}">${escapeXml(c.error ?? '')}</failure>`);
    } else if (c.status === 'skipped') {
      lines.push('      <skipped/>');
    }
    lines.push('    </testcase>');
  }
  if (report.status === 'error') {
    lines.push(`    <testcase classname="${escapeXml(report.group)}.${name}" name="(run)" time="0">`);
    lines.push(`      <error message="${escapeXml(report.error ?? 'the run could not complete')}"/>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
