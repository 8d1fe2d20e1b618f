import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTestClient } from './helpers/app.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/fullstop.js');

describe('fullstop schedule', () => {
  let app: FastifyInstance;
  let server: string;
  const cli = (args: string[]) =>
    new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
      execFile(process.execPath, [BIN, '--server', server, '--data-dir', app.paths.dataDir, ...args], { timeout: 30_000 }, (err, stdout, stderr) =>
        resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 }),
      );
    });

  beforeAll(async () => {
    app = await buildTestApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => app?.close());

  it('adds, lists, pauses, resumes and deletes a client’s schedule', async () => {
    const c = await createTestClient(app);
    const client = ['--client', c.clientId];
    expect((await cli(['schedule', 'list', ...client])).stdout.trim()).toBe('No schedules.');
    const added = await cli(['schedule', 'add', ...client, '--cron', '0 6 * * 1-5', '--tz', 'Europe/Paris']);
    expect(added.code, added.stderr).toBe(0);
    const id = /schedule (\S+) added/.exec(added.stdout)![1]!;
    const list = (await cli(['schedule', 'list', ...client])).stdout;
    expect(list).toContain(`${id}  0 6 * * 1-5  Europe/Paris  All tests  next `);
    expect((await cli(['schedule', 'pause', id, ...client])).stdout.trim()).toBe(`schedule ${id} paused`);
    expect((await cli(['schedule', 'list', ...client])).stdout).toContain('paused');
    expect((await cli(['schedule', 'resume', id, ...client])).stdout).toContain(`schedule ${id} resumed, next run `);
    expect((await cli(['schedule', 'delete', id, ...client])).stdout.trim()).toBe('schedule deleted');
    expect((await cli(['schedule', 'list', ...client])).stdout.trim()).toBe('No schedules.');
  });

  it('says what is wrong with a bad time zone and exits non-zero', async () => {
    const c = await createTestClient(app);
    const res = await cli(['schedule', 'add', '--client', c.clientId, '--cron', '0 6 * * *', '--tz', 'Moon/Base']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('timezone "Moon/Base" is not a known time zone');
  });
});
