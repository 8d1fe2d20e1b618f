import path from 'node:path';
import type { BugPrefill, BugSeverity } from '@fullstop/contracts';
import type { CaseResult, Finding, RunnerSummary } from '@fullstop/engine';
import type { Db } from '../../db/database.ts';
import type { ArtifactStore } from '../../lib/artifact-store/index.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { listEvidence, objectInside } from '../evidence/index.ts';
import { attemptFolder, runTestKey } from '../../lib/run-paths.ts';
import { findClientRunTestById, type RunTestRow } from '../runs/index.ts';

/** One file the bug gets from the run: a copy of a screenshot or trace, or the finding written out as JSON. */
export interface EvidenceSource {
  name: string;
  kind: 'screenshot' | 'trace' | 'finding' | 'page-source';
  contentType: string;
  from: { key: string } | { content: string };
}

export async function clientRunTest(db: Db, clientId: string, runTestId: string): Promise<RunTestRow> {
  const row = await findClientRunTestById(db, clientId, runTestId);
  if (!row) throw new NotFoundError('Run test not found');
  return row;
}

// eslint-disable-next-line no-control-regex -- terminal colours in Playwright's messages
const ANSI = /\u001b\[[0-9;]*m/g;
const plain = (s: string | undefined | null) => (s ?? '').replace(ANSI, '').trim();
const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

const RISK_SEVERITY: Record<Finding['risk'], BugSeverity> = { High: 'high', Medium: 'medium', Low: 'low', Informational: 'low' };
const IMPACT_SEVERITY: Record<string, BugSeverity> = { critical: 'critical', serious: 'high', moderate: 'medium', minor: 'low' };
const RISK_ORDER: Finding['risk'][] = ['High', 'Medium', 'Low', 'Informational'];

type Fields = Omit<BugPrefill, 'runTestId' | 'evidence'>;

/** Expected and actual from a failure message: Playwright's "Expected: … / Received: …" when it says so. */
function expectedActual(c: CaseResult): { expected: string; actual: string } {
  const message = plain(c.error);
  const expected = plain(c.expected) || /^\s*Expected[^:\n]*:\s*(.+)$/m.exec(message)?.[1]?.trim() || `"${c.name}" passes`;
  // A manual case's failed step says what the tester saw in its note (Playwright says "Received").
  const received = plain(c.actual) || /^\s*(?:Received|Note)[^:\n]*:\s*(.+)$/m.exec(message)?.[1]?.trim();
  const actual = received ? `${received}\n\n${message}`.trim() : message || `"${c.name}" fails`;
  return { expected: cut(expected, 10_000), actual: cut(actual, 10_000) };
}

function fromCases(rt: RunTestRow, website: string, cases: CaseResult[]): Fields {
  const failed = cases.find((c) => c.status === 'failed') ?? null;
  const steps = (failed?.steps ?? []).map((s) => cut(plain(s.title), 2000)).filter(Boolean).slice(0, 100);
  const ea = failed ? expectedActual(failed) : { expected: `"${rt.testName}" passes`, actual: cut(plain(rt.error) || `"${rt.testName}" fails`, 10_000) };
  const browser = rt.kind === 'browser';
  // A manual case: what the tester really used on the failed execution (its case's `cell`).
  const manual = rt.kind === 'manual' && failed?.cell ? { device: cut(failed.cell, 200) } : null;
  return {
    title: cut(`${rt.testName} fails`, 200),
    severity: 'high',
    source: 'test',
    ruleId: null,
    url: website,
    environment: browser ? { browser: 'Chromium', viewport: '1280×720' } : (manual ?? {}),
    steps: steps.length ? steps : failed ? [`Run the test "${rt.testName}" (case "${cut(failed.name, 500)}")`] : [`Run the test "${rt.testName}"`],
    ...ea,
  };
}

function fromAlert(summary: RunnerSummary & { kind: 'security-scan' }, ruleId: string): { fields: Fields; finding: Finding[] } {
  const instances = summary.findings.filter((f) => f.ruleId === ruleId);
  if (instances.length === 0) throw new NotFoundError('Security alert not found in this run test');
  const first = [...instances].sort((a, b) => RISK_ORDER.indexOf(a.risk) - RISK_ORDER.indexOf(b.risk))[0]!;
  return {
    fields: {
      title: cut(plain(first.name) || `Security alert ${ruleId}`, 200).padEnd(3, '.'),
      severity: RISK_SEVERITY[first.risk],
      source: 'security-alert',
      ruleId,
      url: cut(first.url ?? '', 2000),
      environment: {},
      steps: instances.slice(0, 100).map((f) => cut(`Request ${f.url ?? '(the site)'}${f.param ? ` (parameter ${f.param})` : ''}`, 2000)),
      expected: cut(plain(first.solution) || 'The site does not show this alert', 10_000),
      actual: cut(instances.map((f) => plain(f.evidence) || plain(f.description)).filter(Boolean).join('\n') || plain(first.name), 10_000),
    },
    finding: instances,
  };
}

function fromViolation(summary: RunnerSummary & { kind: 'accessibility' }, ruleId: string): { fields: Fields; finding: unknown[] } {
  const hits = summary.pages.flatMap((p) => (p.violations ?? []).filter((v) => v.id === ruleId).map((v) => ({ url: p.url, ...v })));
  if (hits.length === 0) throw new NotFoundError('Accessibility violation not found in this run test');
  const first = hits[0]!;
  const nodes = hits.flatMap((h) => (h.targets ?? []).map((t) => `${h.url}: ${t}`));
  const total = hits.reduce((n, h) => n + h.nodes, 0);
  return {
    fields: {
      title: cut(plain(first.help) || `Accessibility rule ${ruleId}`, 200).padEnd(3, '.'),
      severity: IMPACT_SEVERITY[first.impact] ?? 'medium',
      source: 'accessibility',
      ruleId,
      url: cut(first.url, 2000),
      environment: { browser: 'Chromium' },
      steps: hits.slice(0, 100).map((h) => cut(`Open ${h.url} and check the rule "${ruleId}"`, 2000)),
      expected: cut(`${plain(first.help)}${first.helpUrl ? ` (${first.helpUrl})` : ''}`, 10_000),
      actual: cut(`${total} element${total === 1 ? '' : 's'} affected${nodes.length ? `:\n${nodes.join('\n')}` : ''}`, 10_000),
    },
    finding: hits,
  };
}

/** The fields a run test's evidence fills in, and the files the bug will get from it. */
export async function prefillOf(
  store: ArtifactStore,
  rt: RunTestRow,
  website: string,
  ruleId: string | undefined,
): Promise<{ prefill: BugPrefill; files: EvidenceSource[] }> {
  const summary = rt.summary;
  let fields: Fields;
  let finding: unknown[] | null = null;
  if (ruleId && summary?.kind === 'security-scan') ({ fields, finding } = fromAlert(summary, ruleId));
  else if (ruleId && summary?.kind === 'accessibility') ({ fields, finding } = fromViolation(summary, ruleId));
  else if (ruleId) throw new NotFoundError('This run test has no alert or violation with that rule');
  else {
    const cases = summary && 'cases' in summary && Array.isArray(summary.cases) ? (summary.cases as CaseResult[]) : [];
    fields = fromCases(rt, website, cases);
  }

  const files: EvidenceSource[] = [];
  const root = runTestKey(rt.clientId, rt.runId, rt.id);
  const evidence = await listEvidence(store, rt);
  const failedCase = fields.source === 'test' ? evidence.find((e) => e.caseError)?.caseName : undefined;
  for (const e of evidence) {
    if (failedCase && e.caseName && e.caseName !== failedCase) continue;
    const found = await objectInside(store, root, e.path);
    if (!found || (e.kind !== 'screenshot' && e.kind !== 'trace')) continue;
    files.push({ name: path.basename(e.path), kind: e.kind, contentType: e.contentType, from: { key: found.key } });
  }
  // A mobile UI test's failed step: the page source of the screen at the failure goes with its screenshot (decision 0084).
  if (fields.source === 'test' && summary?.kind === 'mobile-ui') {
    const failedName = summary.cases.find((c) => c.status === 'failed')?.name;
    const source = summary.pageSources.find((p) => p.case === failedName);
    const found = source ? ((await objectInside(store, root, `${attemptFolder(rt.attempts)}/${source.path}`)) ?? (await objectInside(store, root, source.path))) : null;
    if (source && found) files.push({ name: path.basename(source.path), kind: 'page-source', contentType: 'application/xml', from: { key: found.key } });
  }
  if (finding) {
    files.push({ name: `finding-${ruleId}.json`, kind: 'finding', contentType: 'application/json', from: { content: `${JSON.stringify(finding, null, 2)}\n` } });
  }
  return {
    prefill: { ...fields, runTestId: rt.id, evidence: files.map((f) => ({ name: f.name, kind: f.kind })) },
    files,
  };
}
