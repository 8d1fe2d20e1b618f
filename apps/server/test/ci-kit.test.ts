import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToJunit } from '../src/cli/junit.ts';
import type { TestClient } from './helpers/app.ts';
import { buildEngineApp, clientWithSuite, OPERATOR_TOKEN } from './engine/helpers.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/fullstop.js');

/** Parses the XML strictly; throws on anything a CI's JUnit reader would refuse. */
function parseXml(xml: string): { name: string; attributes: Record<string, string> }[] {
  const parser = new SaxesParser();
  const elements: { name: string; attributes: Record<string, string> }[] = [];
  parser.on('opentag', (tag) => elements.push({ name: tag.name, attributes: tag.attributes as Record<string, string> }));
  parser.on('error', (err) => {
    throw err;
  });
  parser.write(xml).close();
  return elements;
}

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('fullstop run with a client API key (the CI kit)', () => {
  let app: FastifyInstance;
  let server: string;
  let passing: TestClient;
  let failing: TestClient;
  let broken: TestClient;
  let incomplete: TestClient;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-ci-'));

  /** The CLI as a client's CI runs it: the key in FULLSTOP_API_KEY, the server in FULLSTOP_SERVER, CI set. */
  const ci = (apiKey: string, ...args: string[]): Promise<CliResult> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [BIN, 'run', ...args],
        { timeout: 60_000, env: { ...process.env, FULLSTOP_API_KEY: apiKey, FULLSTOP_SERVER: server, CI: 'true', FULLSTOP_POLL_MS: '200' } },
        (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
      );
    });

  beforeAll(async () => {
    app = await buildEngineApp(2);
    await app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    [passing, failing, broken, incomplete] = await Promise.all([
      clientWithSuite(app, {
        Frontend: [{ name: 'marketing pages', kind: 'browser', options: { outcome: 'pass' } }],
        'API & <Backend>': [{ name: 'orders api', kind: 'api', options: { outcome: 'pass' } }],
      }),
      clientWithSuite(app, {
        Frontend: [
          { name: 'marketing pages', kind: 'browser', options: { outcome: 'pass' } },
          { name: 'checkout', kind: 'browser', options: { outcome: 'fail' } },
        ],
      }),
      // The runner errors on every attempt, as it does when the target cannot be reached.
      clientWithSuite(app, { Frontend: [{ name: 'unreachable site', kind: 'browser', options: { errorOnAttempts: [1, 2, 3, 4, 5] } }] }),
      // A scan whose sql module did not finish on the redirect, nothing over its thresholds (decision 0058).
      clientWithSuite(app, { Security: [{ name: 'redirect scan', kind: 'security-scan', options: { incomplete: 'sql did not finish on GET /go (url)' } }] }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 when every test passed and writes one testsuite per group, one testcase per test; the run says CI', async () => {
    const junit = path.join(dir, 'passing.xml');
    const res = await ci(passing.apiKey, '--wait', '--junit', junit);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/Fullstop QA run \S+: 2 passed, 0 failed, 0 could not run, 0 not run \(exit 0\)/);
    const elements = parseXml(readFileSync(junit, 'utf8'));
    expect(elements.filter((e) => e.name === 'testsuite').map((e) => e.attributes.name)).toEqual(['API & <Backend>', 'Frontend']);
    const cases = elements.filter((e) => e.name === 'testcase');
    expect(cases.map((e) => e.attributes.name)).toEqual(['orders api', 'marketing pages']);
    expect(cases.every((e) => /^\d+\.\d{3}$/.test(e.attributes.time ?? ''))).toBe(true);
    expect(elements.some((e) => e.name === 'failure' || e.name === 'error')).toBe(false);

    const history = await app.inject({ url: '/test/history', headers: { 'x-api-key': passing.apiKey } });
    expect(history.json().runs[0]).toMatchObject({ trigger: 'ci', status: 'passed' });
  }, 90_000);

  it('exits 1 when a test failed, with the failure in the JUnit file', async () => {
    const junit = path.join(dir, 'failing.xml');
    const res = await ci(failing.apiKey, '--wait', '--junit', junit);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stdout).toMatch(/1 passed, 1 failed, 0 could not run, 0 not run \(exit 1\)/);
    const elements = parseXml(readFileSync(junit, 'utf8'));
    expect(elements.find((e) => e.name === 'testsuite')?.attributes).toMatchObject({ tests: '2', failures: '1', errors: '0' });
    expect(elements.filter((e) => e.name === 'failure')).toHaveLength(1);

    // One test by name: it passed, so 0.
    const one = await ci(failing.apiKey, '--wait', '--test', 'marketing pages');
    expect(one.code, one.stderr).toBe(0);
  }, 90_000);

  it('exits 2 when a test could not run, with an error case', async () => {
    const junit = path.join(dir, 'broken.xml');
    const res = await ci(broken.apiKey, '--wait', '--junit', junit);
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stdout).toMatch(/0 passed, 0 failed, 1 could not run, 0 not run \(exit 2\)/);
    const errors = parseXml(readFileSync(junit, 'utf8')).filter((e) => e.name === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.attributes.type).toBe('could-not-run');
  }, 90_000);

  it('says an incomplete scan is incomplete, not that it could not run: no verdict (2), an error case of its own type', async () => {
    const junit = path.join(dir, 'incomplete.xml');
    const res = await ci(incomplete.apiKey, '--wait', '--junit', junit);
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stdout).toContain('  incomplete redirect scan (The scan is incomplete: sql did not finish on GET /go (url). 6 of 7 modules finished; sql stopped at GET /go.)');
    expect(res.stdout).toMatch(/0 passed, 0 failed, 1 incomplete \(scan\), 0 could not run, 0 not run \(exit 2\)/);
    const errors = parseXml(readFileSync(junit, 'utf8')).filter((e) => e.name === 'error');
    expect(errors.map((e) => e.attributes.type)).toEqual(['incomplete-scan']);
  }, 90_000);

  it('exits 2 with a clear message for a wrong key, an unknown test and an unreachable server', async () => {
    const junit = path.join(dir, 'bad-key.xml');
    const [badKey, unknown, down] = await Promise.all([
      ci('fsk_not-a-real-key-0000000000000000000000000000', '--wait', '--junit', junit),
      ci(passing.apiKey, '--wait', '--test', 'nope'),
      new Promise<CliResult>((resolve) => {
        execFile(process.execPath, [BIN, '--server', 'http://127.0.0.1:1', 'run', '--api-key', passing.apiKey, '--wait'], { timeout: 60_000 }, (err, stdout, stderr) =>
          resolve({ code: Number((err as { code?: number } | null)?.code ?? 0), stdout, stderr }),
        );
      }),
    ]);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/The server refused the API key \(401\).*FULLSTOP_API_KEY/);
    expect(parseXml(readFileSync(junit, 'utf8')).filter((e) => e.name === 'error')).toHaveLength(1);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Test "nope" not found');
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('Cannot reach the Fullstop server at http://127.0.0.1:1');
  }, 90_000);

  it('serves the one-file CI runner, which a CI without this repository runs with plain Node', async () => {
    const res = await fetch(`${server}/ci/fullstop-ci.mjs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const script = path.join(dir, 'fullstop-ci.mjs');
    writeFileSync(script, await res.text());
    const plain = (apiKey: string, ...args: string[]): Promise<CliResult> =>
      new Promise((resolve) => {
        // Outside this repository: no tsx, no node_modules, only Node.
        execFile(process.execPath, [script, ...args], { cwd: dir, timeout: 60_000, env: { PATH: process.env.PATH, FULLSTOP_API_KEY: apiKey, FULLSTOP_SERVER: server, FULLSTOP_POLL_MS: '200' } }, (err, stdout, stderr) =>
          resolve({ code: err ? Number((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
        );
      });
    const junit = path.join(dir, 'script.xml');
    const [ok, failed, broke, refused] = await Promise.all([
      plain(passing.apiKey, '--junit', junit),
      plain(failing.apiKey),
      plain(broken.apiKey),
      plain('fsk_wrong'),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/2 passed, 0 failed, 0 could not run, 0 not run \(exit 0\)/);
    expect(parseXml(readFileSync(junit, 'utf8')).filter((e) => e.name === 'testcase').map((e) => e.attributes.name)).toEqual(['orders api', 'marketing pages']);
    expect(failed.code).toBe(1);
    expect(broke.code).toBe(2);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('The server refused the API key (401)');
  }, 90_000);

  it('gives operators the same verdict with the operator token and --client', async () => {
    const junit = path.join(dir, 'operator.xml');
    const res = await new Promise<CliResult>((resolve) => {
      execFile(
        process.execPath,
        [BIN, '--server', server, '--token', OPERATOR_TOKEN, 'run', '--client', failing.clientId, '--junit', junit],
        { timeout: 60_000, env: { ...process.env, FULLSTOP_API_KEY: '' } },
        (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
      );
    });
    expect(res.code, res.stderr).toBe(1);
    const elements = parseXml(readFileSync(junit, 'utf8'));
    expect(elements.filter((e) => e.name === 'testsuite').map((e) => e.attributes.name)).toEqual(['Fullstop QA']);
    expect(elements.filter((e) => e.name === 'failure')).toHaveLength(1);
  }, 90_000);

  it('exits 2 when the wait ends before the run does, the unfinished tests skipped', async () => {
    const slow = await clientWithSuite(app, { Frontend: [{ name: 'slow page', kind: 'browser', options: { outcome: 'pass', sleepMs: 8000 } }] });
    const junit = path.join(dir, 'slow.xml');
    const res = await ci(slow.apiKey, '--wait', '--timeout', '1', '--junit', junit);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stdout).toContain('the run was still going when the wait ended');
    expect(parseXml(readFileSync(junit, 'utf8')).filter((e) => e.name === 'skipped')).toHaveLength(1);
  }, 90_000);
});

describe('the JUnit file', () => {
  it('escapes hostile names and messages and drops characters XML forbids', () => {
    const xml = runToJunit({
      runId: 'r1',
      startedAt: '2026-01-01T00:00:00.000Z',
      tests: [
        { group: 'G <&> "\'', testName: 'a <script>&amp;\u0000\u0007\u001b]8;;x', status: 'failed', durationMs: 1234, error: 'expected <b>true</b>\u0008 & "more"\nsecond line', totals: null },
        { group: 'G <&> "\'', testName: 'b\uFFFE', status: 'error', durationMs: null, error: ']]> <!-- -->', totals: null },
        { group: 'other', testName: 'c', status: 'queued', durationMs: null, error: null, totals: null },
      ],
    });
    const elements = parseXml(xml);
    const cases = elements.filter((e) => e.name === 'testcase');
    expect(cases.map((e) => e.attributes.name)).toEqual(['a <script>&amp;]8;;x', 'b', 'c']);
    expect(cases[0]!.attributes).toMatchObject({ classname: 'G <&> "\'', time: '1.234' });
    expect(elements.find((e) => e.name === 'failure')?.attributes.message).toBe('expected <b>true</b> & "more"');
    expect(elements.filter((e) => e.name === 'skipped')).toHaveLength(1);
    const forbidden = [...xml].filter((ch) => ch.charCodeAt(0) < 0x20 && !'\t\n\r'.includes(ch));
    expect(forbidden).toEqual([]);
  });
});
