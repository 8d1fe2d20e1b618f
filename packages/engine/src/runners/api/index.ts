import { defineRunner } from '../../lib/define-runner.ts';
import { guardedRequest } from '../../lib/http.ts';
import { errorMessage, totalsFromCases, writeJsonArtifact } from '../../lib/result.ts';
import { RunAbortedError } from '../../errors.ts';
import type { CaseResult } from '../../types.ts';
import { apiInput, type ApiRequest } from './options.ts';
import { deepEqual, jsonTypeOf, readJsonPath } from './json-path.ts';

function assertResponse(req: ApiRequest, status: number, headers: Headers, body: string, latencyMs: number, maxLatencyMs?: number): string[] {
  const problems: string[] = [];
  const statuses = Array.isArray(req.expect.status) ? req.expect.status : [req.expect.status];
  if (!statuses.includes(status)) problems.push(`status ${status}, expected ${statuses.join(' or ')}`);
  const latencyLimit = req.expect.maxLatencyMs ?? maxLatencyMs;
  if (latencyLimit !== undefined && latencyMs > latencyLimit) problems.push(`took ${latencyMs.toFixed(1)} ms, limit ${latencyLimit} ms`);
  for (const [name, text] of Object.entries(req.expect.headers ?? {})) {
    const actual = headers.get(name);
    if (actual === null || !actual.includes(text)) problems.push(`header ${name} is ${actual === null ? 'missing' : `"${actual}"`}, expected to contain "${text}"`);
  }
  if (req.expect.json || req.expect.jsonTypes) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      problems.push('the body is not JSON');
      return problems;
    }
    for (const [path, expected] of Object.entries(req.expect.json ?? {})) {
      const actual = readJsonPath(parsed, path);
      if (!deepEqual(actual, expected)) problems.push(`${path} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
    }
    for (const [path, type] of Object.entries(req.expect.jsonTypes ?? {})) {
      const actual = readJsonPath(parsed, path);
      if (actual === undefined) problems.push(`${path} is missing, expected a${type === 'array' || type === 'object' ? 'n' : ''} ${type}`);
      else if (jsonTypeOf(actual) !== type) problems.push(`${path} is a ${jsonTypeOf(actual)}, expected ${type}`);
    }
  }
  return problems;
}

/** Each request is one case: status, JSON fields and latency asserted; requests run in order (a flow). */
export const apiRunner = defineRunner({
  kind: 'api',
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
        const problems = assertResponse(req, response.status, response.headers, response.body, response.durationMs, thresholds.maxLatencyMs);
        cases.push({ name, status: problems.length === 0 ? 'passed' : 'failed', durationMs: response.durationMs, ...(problems.length ? { error: problems.join('; ') } : {}) });
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
