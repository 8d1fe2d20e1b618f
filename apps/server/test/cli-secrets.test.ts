import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTestClient } from './helpers/app.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/fullstop.js');
const VALUE = 'cli secret value 9f3a';

describe('fullstop secrets', () => {
  let app: FastifyInstance;
  let server: string;
  /** Runs the CLI with `input` on its standard input; answers its output and exit code. */
  const cli = (args: string[], input = '') =>
    new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
      const child = execFile(process.execPath, [BIN, '--server', server, '--data-dir', app.paths.dataDir, ...args], { timeout: 30_000 }, (err, stdout, stderr) =>
        resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 }),
      );
      child.stdin!.end(input);
    });

  beforeAll(async () => {
    app = await buildTestApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => app?.close());

  it('sets a secret from standard input, lists names without values, deletes it', async () => {
    const c = await createTestClient(app);
    const set = await cli(['secrets', 'set', 'password', '--client', c.clientId], `${VALUE}\n`);
    expect(set.stdout.trim()).toBe('secret "password" set');

    const list = await cli(['secrets', 'list', '--client', c.clientId]);
    expect(list.stdout).toMatch(/^password {2}set \d{4}-\d\d-\d\dT/m);
    expect(list.stdout + list.stderr).not.toContain(VALUE);
    const json = JSON.parse((await cli(['secrets', 'list', '--client', c.clientId, '--json'])).stdout) as { secrets: { name: string }[] };
    expect(json.secrets.map((s) => s.name)).toEqual(['password']);

    expect((await cli(['secrets', 'delete', 'password', '--client', c.clientId])).stdout.trim()).toBe('secret "password" deleted');
    expect((await cli(['secrets', 'list', '--client', c.clientId])).stdout.trim()).toBe('No secrets set.');
  }, 120_000);

  it('refuses an empty value and says why a short one is refused', async () => {
    const c = await createTestClient(app);
    const empty = await cli(['secrets', 'set', 'token', '--client', c.clientId], '');
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toContain('no value on standard input');
    const short = await cli(['secrets', 'set', 'token', '--client', c.clientId], 'abc');
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('value must be at least 4 characters');
  }, 120_000);
});
