import { defineRunner } from '../../lib/define-runner.ts';
import { guardedRequest } from '../../lib/http.ts';
import { errorMessage, totalsFromCases, writeJsonArtifact } from '../../lib/result.ts';
import { RunAbortedError } from '../../errors.ts';
import type { CaseResult } from '../../types.ts';
import { apiInput, type ApiRequest } from './options.ts';
import { deepEqual, jsonTypeOf, readJsonPath } from './json-path.ts';
import { facts } from './facts.ts';
import { expectedActual, shownHeader, shownValue } from '../expected-actual.ts';

/** One assertion on a response: what was expected and what came, in words, and the problem when they differ. */
interface Assertion {
  expected: string;
  actual: string;
  problem?: string;
}

function assertResponse(req: ApiRequest, status: number, headers: Headers, body: string, latencyMs: number, maxLatencyMs?: number): Assertion[] {
  const checks: Assertion[] = [];
  const statuses = Array.isArray(req.expect.status) ? req.expect.status : [req.expect.status];
  checks.push({
    expected: `status ${statuses.join(' or ')}`,
    actual: `status ${status}`,
    ...(statuses.includes(status) ? {} : { problem: `status ${status}, expected ${statuses.join(' or ')}` }),
  });
  const latencyLimit = req.expect.maxLatencyMs ?? maxLatencyMs;
  if (latencyLimit !== undefined) {
    checks.push({
      expected: `within ${latencyLimit} ms`,
      actual: `${latencyMs.toFixed(1)} ms`,
      ...(latencyMs > latencyLimit ? { problem: `took ${latencyMs.toFixed(1)} ms, limit ${latencyLimit} ms` } : {}),
    });
  }
  for (const [name, text] of Object.entries(req.expect.headers ?? {})) {
    const actual = headers.get(name);
    checks.push({
      expected: `header ${name} containing ${shownValue(text)}`,
      actual: actual === null ? `header ${name} missing` : shownHeader(name, actual),
      ...(actual === null || !actual.includes(text) ? { problem: `header ${name} is ${actual === null ? 'missing' : `"${actual}"`}, expected to contain "${text}"` } : {}),
    });
  }
  if (req.expect.json || req.expect.jsonTypes) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      checks.push({ expected: 'a JSON body', actual: 'a body that is not JSON', problem: 'the body is not JSON' });
      return checks;
    }
    for (const [path, expected] of Object.entries(req.expect.json ?? {})) {
      const actual = readJsonPath(parsed, path);
      checks.push({
        expected: `${path} = ${shownValue(expected)}`,
        actual: actual === undefined ? `${path} missing` : `${path} = ${shownValue(actual)}`,
        ...(deepEqual(actual, expected) ? {} : { problem: `${path} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}` }),
      });
    }
    for (const [path, type] of Object.entries(req.expect.jsonTypes ?? {})) {
      const actual = readJsonPath(parsed, path);
      const article = type === 'array' || type === 'object' ? 'an' : 'a';
      const found = actual === undefined ? undefined : jsonTypeOf(actual);
      checks.push({
        expected: `${path}: ${article} ${type}`,
        actual: found === undefined ? `${path} missing` : `${path}: ${found === 'array' || found === 'object' ? 'an' : 'a'} ${found}`,
        ...(found === undefined ? { problem: `${path} is missing, expected ${article} ${type}` } : found !== type ? { problem: `${path} is a ${found}, expected ${type}` } : {}),
      });
    }
  }
  return checks;
}

/**
 * A case's `expected` and `actual`: the failed assertions when there are any (why it failed), else all of them.
 * Built from the manifest's expectations and the response only: the request's own headers (Authorization,
 * cookies) never appear.
 */
function describeAssertions(checks: Assertion[]): { expected: string; actual: string } {
  const failed = checks.filter((c) => c.problem);
  const shown = failed.length > 0 ? failed : checks;
  return expectedActual(shown.map((c) => c.expected).join('; '), shown.map((c) => c.actual).join('; '));
}

/** Each request is one case: status, JSON fields and latency asserted; requests run in order (a flow). */
export const apiRunner = defineRunner({
  facts,
  schema: apiInput,
  async execute({ options, thresholds }, { ctx, guard }) {
    for (const req of options.requests) await guard.check(req.path);
    const cases: CaseResult[] = [];
    const details: Record<string, unknown>[] = [];
    for (const [index, req] of options.requests.entries()) {
      const name = req.name ?? `${req.method} ${req.path}`;
      const isJson = req.body !== undefined && typeof req.body !== 'string';
      const headers = { ...(isJson ? { 'content-type': 'application/json' } : {}), ...req.headers };
      try {
        const response = await guardedRequest(guard, req.path, {
          method: req.method,
          headers,
          ...(req.body !== undefined ? { body: isJson ? JSON.stringify(req.body) : (req.body as string) } : {}),
          timeoutMs: req.timeoutMs,
          signal: ctx.signal,
        });
        const checks = assertResponse(req, response.status, response.headers, response.body, response.durationMs, thresholds.maxLatencyMs);
        const problems = checks.flatMap((c) => (c.problem ? [c.problem] : []));
        cases.push({
          name,
          status: problems.length === 0 ? 'passed' : 'failed',
          durationMs: response.durationMs,
          ...(problems.length ? { error: problems.join('; ') } : {}),
          ...describeAssertions(checks),
        });
        details.push({ name, url: response.url, status: response.status, durationMs: response.durationMs, problems, body: response.body.slice(0, 2000) });
      } catch (error) {
        if (ctx.signal.aborted) throw new RunAbortedError();
        cases.push({ name, status: 'failed', durationMs: 0, error: errorMessage(error) });
        details.push({ name, error: errorMessage(error) });
      }
      ctx.progress?.({ done: index + 1, total: options.requests.length, message: name });
    }
    const totals = totalsFromCases(cases);
    const artifact = await writeJsonArtifact(ctx, 'api/results.json', details, 'API requests and responses');
    return { status: totals.failedTests > 0 ? 'failed' : 'passed', totals, summary: { kind: 'api', cases }, artifacts: [artifact] };
  },
});

/** The name the registry and the runner processes load a kind's runner by. */
export { apiRunner as runner };
