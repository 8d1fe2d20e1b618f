import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp } from './app.ts';

/** The fullstop CLI as it is installed. */
export const CLI_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/fullstop.js');

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface ListeningApp {
  app: FastifyInstance;
  /** Its address, http://127.0.0.1:<port>. */
  server: string;
  /** Runs the CLI against the app (its server and data folder), `input` on its standard input: its output and exit code. */
  cli(args: string[], input?: string): Promise<CliResult>;
}

/** For a describe block: a test app listening on a free port, closed after the block. Read `app` inside the tests. */
export function useListeningApp(): ListeningApp {
  const fixture: ListeningApp = {
    app: undefined as unknown as FastifyInstance,
    server: '',
    cli: (args, input = '') =>
      new Promise((resolve) => {
        const child = execFile(process.execPath, [CLI_BIN, '--server', fixture.server, '--data-dir', fixture.app.paths.dataDir, ...args], { timeout: 30_000 }, (err, stdout, stderr) =>
          resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 }),
        );
        child.stdin!.end(input);
      }),
  };
  beforeAll(async () => {
    fixture.app = await buildTestApp();
    await fixture.app.listen({ port: 0, host: '127.0.0.1' });
    fixture.server = `http://127.0.0.1:${(fixture.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => fixture.app?.close());
  return fixture;
}
