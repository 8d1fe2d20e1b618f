import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/app.ts';
import { fakeRunners } from '../engine/fixtures/fake-runners.ts';
import { clientWithSuite, OPERATOR_TOKEN, operator } from '../engine/helpers.ts';
import { bearer, login, type TestClient } from '../helpers/app.ts';
import { freshDatabase } from '../helpers/database.ts';

/**
 * A property-based walk of EVERY operation of the generated OpenAPI document: odd values in path parameters,
 * queries and bodies (NUL, lone surrogates, huge and negative numbers, year-0000 dates, deep and long values,
 * wrong types, %00, unicode), as a client (bearer and x-api-key), as an operator, and with no credential.
 * Whatever comes in, the answer is never 500 or more. FUZZ_RUNS sets the runs per operation and caller,
 * FUZZ_SEED replays a walk.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  params: { name: string; in: 'path' | 'query' }[];
  body: JsonSchema | null;
}
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
}

const ODD_DATES = [
  '0000-01-01T00:00:00Z',
  '0000-00-00T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '9999-12-31T23:59:59Z',
  '1970-01-01T00:00:00Z',
  '2024-02-30T25:61:61Z',
  '2025-01-01T00:00:00+99:99',
];
const ODD_TEXT = [
  '\u0000',
  'a\u0000b',
  '%00',
  '\uD800',
  'x\uDFFFy',
  '\uDBFF\uDBFF',
  '',
  ' ',
  '-1',
  '0',
  '1e400',
  '-9223372036854775809',
  '99999999999999999999999999',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  "' OR '1'='1' --",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '${jndi:ldap://x}',
  '\u202e\u200b\ufeff',
  '💥🧪'.repeat(30),
  'Ω≈ç√∫˜µ≤≥÷',
  '\r\nSet-Cookie: x=1',
  '__proto__',
  'constructor',
  'a'.repeat(5000),
  ...ODD_DATES,
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const plain = fc.string({ maxLength: 30 });
const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_TEXT) },
  { weight: 2, arbitrary: fc.tuple(plain, fc.constantFrom('\u0000', '\uD800', '\uDC00', '%00'), plain).map((p) => p.join('')) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_DATES) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.oneof(fc.constantFrom('a', '\u0000', '%', '/'), loneSurrogate), maxLength: 12 }) },
  { weight: 1, arbitrary: fc.date({ min: new Date(-62198755200000), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString()) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.string({ minLength: 200, maxLength: 3000 }) },
);
const oddNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 2 ** 53, -(2 ** 53), 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.5, 3600.5),
);
const deep = (depth: number, leaf: unknown): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i += 1) v = i % 2 ? [v] : { a: v };
  return v;
};
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: oddString },
  { weight: 2, arbitrary: oddNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(oddString, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(oddString, oddString, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 2000 }).map((d) => deep(d, 'x\u0000')) },
);

/** A value shaped like the schema (so validation passes and deeper code runs) or, often, anything odd. */
function fromSchema(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return oddValue;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  let shaped: fc.Arbitrary<unknown>;
  if (schema.enum) shaped = fc.constantFrom(...schema.enum);
  else if (schema.anyOf?.length) shaped = fc.oneof(...schema.anyOf.map((s) => fromSchema(s, depth + 1)));
  else if (type === 'object' && schema.properties) {
    const props = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, fromSchema(s, depth + 1)]));
    shaped = fc.record(props, { requiredKeys: [] });
  } else if (type === 'array') shaped = fc.array(fromSchema(schema.items, depth + 1), { maxLength: 4 });
  else if (type === 'string') shaped = oddString;
  else if (type === 'integer' || type === 'number') shaped = oddNumber;
  else if (type === 'boolean') shaped = fc.boolean();
  else shaped = oddValue;
  return fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: oddValue });
}

/** Percent-encoding that also takes lone surrogates (as UTF-8 would carry them: invalid bytes). */
function encodeSegment(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return s.replace(/[\uD800-\uDFFF]/g, '\uFFFD').replace(/[^A-Za-z0-9]/g, (c) => (c === '\uFFFD' ? '%ED%A0%80' : encodeURIComponent(c)));
  }
}

/** A path segment: a known id now and then (deeper code), else odd text, escaped or raw. */
function pathValue(known: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...known) },
    { weight: 4, arbitrary: oddString.map((s) => encodeSegment(s.slice(0, 300)).replace(/^$/, '%20')) },
    { weight: 1, arbitrary: fc.constantFrom('%00', '%E0%A4%A', '%', '%%', '%2e%2e', '..', '%2F', '%C0%80', '%ED%A0%80', 'a%00b') },
  );
}

function queryValue(name: string): fc.Arbitrary<string | string[]> {
  // `wait=true` would block for minutes by design; every other value of it is fair game.
  const value = name === 'wait' ? oddString.filter((s) => s !== 'true' && s !== '1') : oddString;
  return fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.array(value, { minLength: 2, maxLength: 3 }) });
}

function operations(app: FastifyInstance): Operation[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, { schema?: JsonSchema }> } }>> };
  const ops: Operation[] = [];
  for (const [p, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      ops.push({
        method: method.toUpperCase() as Operation['method'],
        path: p,
        params: (op.parameters ?? []).filter((x): x is { name: string; in: 'path' | 'query' } => x.in === 'path' || x.in === 'query'),
        body: op.requestBody?.content['application/json']?.schema ?? null,
      });
    }
  }
  return ops;
}

type Caller = 'bearer' | 'api-key' | 'operator' | 'anonymous';

describe('the OpenAPI document, walked with odd inputs', () => {
  let app: FastifyInstance;
  let client: TestClient;
  let dataDir: string;
  const serverErrors: string[] = [];
  const credentials: Record<Caller, Record<string, string>> = { bearer: {}, 'api-key': {}, operator, anonymous: {} };
  const known: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-fuzz-'));
    // The app's own error logs say what a 500 was; they are collected and shown with the failure.
    const logs = new Writable({
      write(chunk: Buffer, _enc, done) {
        const line = JSON.parse(chunk.toString()) as { msg?: string; err?: { message?: string; stack?: string } };
        serverErrors.push(`${line.msg}: ${line.err?.stack?.split('\n').slice(0, 4).join(' | ') ?? ''}`);
        done();
      },
    });
    app = await build({
      database: await freshDatabase(),
      logger: { level: 'error', stream: logs },
      runners: fakeRunners,
      env: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'error',
        DATA_DIR: dataDir,
        DATABASE_URL: undefined,
        FULLSTOP_DEMO: false,
        OPERATOR_TOKEN,
        // The walk sends thousands of wrong logins from one address: the throttle (tested on its own) would
        // otherwise lock the walk's own client out before every caller has had its turn.
        LOGIN_MAX_FAILURES_PER_ACCOUNT: 1_000_000,
        LOGIN_MAX_FAILURES_PER_ADDRESS: 1_000_000,
      },
    });
    await app.ready();
    client = await clientWithSuite(app, { Group: [{ name: 'quick', kind: 'api' }] });
    const queued = await app.inject({ url: '/test/run/quick', headers: { 'x-api-key': client.apiKey } });
    known.push(client.clientId, queued.json<{ runId: string }>().runId, 'quick', 'json', 'html', 'zip', 'xml', 'android', 'ios');
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every operation, whoever calls and whatever is sent, below 500', async () => {
    const ops = operations(app);
    expect(ops.length).toBeGreaterThan(30);
    const failures: string[] = [];
    let requests = 0;
    const statuses = new Map<number, number>();
    const started = Date.now();
    for (const caller of ['bearer', 'api-key', 'operator', 'anonymous'] as const) {
      // Fresh credentials per caller: an earlier request may have replaced the key or ended the session.
      const session = await login(app, client.email, client.password);
      credentials.bearer = bearer(session.accessToken);
      credentials['api-key'] = { 'x-api-key': client.apiKey };
      for (const op of ops) {
        const request = fc.record({
          path: fc.tuple(...op.params.filter((p) => p.in === 'path').map(() => pathValue(known)), fc.constant('')),
          query: fc.record(
            Object.fromEntries(op.params.filter((p) => p.in === 'query').map((p) => [p.name, queryValue(p.name)])),
            { requiredKeys: [] },
          ),
          // The event stream opens (and never ends) without a token: it is always given one here.
          token: op.path === '/test/events' ? oddString.map((s) => s || 'x') : fc.constant(undefined),
          body: op.body
            ? fc.oneof(
                { weight: 4, arbitrary: fromSchema(op.body) },
                { weight: 1, arbitrary: oddValue },
                { weight: 1, arbitrary: fc.constantFrom('{"a":', '[[[[[[[[[[', '\u0000', '"\ud800"', '{"__proto__":{"x":1}}', `${'['.repeat(5000)}${']'.repeat(5000)}`) },
              )
            : fc.constant(undefined),
        });
        await fc.assert(
          fc.asyncProperty(request, async ({ path: segments, query, token, body }) => {
            const names = op.params.filter((p) => p.in === 'path').map((p) => p.name);
            let url = op.path;
            names.forEach((name, i) => (url = url.replace(`{${name}}`, segments[i] ?? 'x')));
            const search = new URLSearchParams();
            for (const [k, v] of Object.entries(query)) for (const one of [v].flat()) search.append(k, one as string);
            if (token !== undefined) search.set('token', token);
            if (op.body && typeof body === 'object' && body && 'wait' in body) (body as { wait: unknown }).wait = false;
            const qs = search.toString();
            const opts: InjectOptions = { method: op.method, url: qs ? `${url}?${qs}` : url, headers: { ...credentials[caller] } };
            if (body !== undefined) {
              opts.payload = typeof body === 'string' ? body : JSON.stringify(body);
              opts.headers = { ...opts.headers, 'content-type': 'application/json' };
            }
            const before = serverErrors.length;
            const res = await app.inject(opts);
            requests += 1;
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            if (op.path.startsWith('/clientProfile/generateAPIKey') && res.statusCode === 200) {
              credentials['api-key'] = { 'x-api-key': res.json<{ apiKey: string }>().apiKey };
              client.apiKey = res.json<{ apiKey: string }>().apiKey;
            }
            if (res.statusCode >= 500) {
              failures.push(`${caller} ${op.method} ${opts.url?.toString().slice(0, 200)} body=${String(opts.payload ?? '').slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)} :: ${serverErrors.slice(before).join(' // ').slice(0, 600)}`);
              return false;
            }
            return true;
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        ).catch((err: unknown) => {
          // A 500 is already listed; anything else (the request itself threw) is listed here.
          const last = failures.at(-1) ?? '';
          if (!last.startsWith(`${caller} ${op.method} `)) failures.push(`${caller} ${op.method} ${op.path}: ${String(err).slice(0, 800)}`);
        });
      }
    }
    const seconds = (Date.now() - started) / 1000;
    console.info(`openapi fuzz: ${ops.length} operations, ${requests} requests in ${seconds.toFixed(1)} s (seed ${SEED}, ${RUNS} runs each); statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    for (const f of failures) console.error(f);
    expect(failures, `seed ${SEED}`).toEqual([]);
  }, 240_000);
});
