import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadEnv } from '../config/env.ts';
import { OPERATOR_TOKEN_FILE } from '../features/operator/index.ts';

export interface ConnectionOptions {
  server?: string;
  token?: string;
  dataDir?: string;
}

export class OperatorApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'OperatorApiError';
  }
}

/**
 * A small client of the running server's operator API, for every CLI command (the CLI never opens the
 * database: the embedded one allows a single process). Token: --token, else OPERATOR_TOKEN, else DATA_DIR/operator-token.
 */
export class OperatorClient {
  constructor(
    readonly server: string,
    private readonly token: string,
  ) {}

  async request<T>(method: string, urlPath: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(new URL(urlPath, this.server), {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (err) {
      throw new OperatorApiError(
        `Cannot reach the Fullstop server at ${this.server} (${(err as Error).cause ?? (err as Error).message}). Is it running? Use --server to point elsewhere.`,
        0,
        null,
      );
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    if (!res.ok) {
      const message = (parsed as { message?: unknown } | null)?.message;
      throw new OperatorApiError(
        `${method} ${urlPath} failed (${res.status}): ${typeof message === 'string' ? message : text || res.statusText}`,
        res.status,
        parsed,
      );
    }
    return parsed as T;
  }

  get<T>(urlPath: string): Promise<T> {
    return this.request<T>('GET', urlPath);
  }

  post<T>(urlPath: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', urlPath, body);
  }
}

export function defaultServer(): string {
  const env = loadEnv();
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT}`;
}

export function connect(options: ConnectionOptions): OperatorClient {
  const server = options.server ?? defaultServer();
  // At scale OPERATOR_TOKEN is a setting every process shares (deploy/fullstop.env), and no process writes the file.
  let token = options.token ?? loadEnv().OPERATOR_TOKEN;
  if (!token) {
    const dataDir = options.dataDir ?? loadEnv().DATA_DIR;
    const file = path.resolve(dataDir, OPERATOR_TOKEN_FILE);
    try {
      token = readFileSync(file, 'utf8').trim();
    } catch {
      throw new OperatorApiError(
        `No operator token: ${file} is missing or unreadable. Start the server once (it creates the token), or pass --token.`,
        0,
        null,
      );
    }
  }
  return new OperatorClient(server, token);
}

/** The operator client for a command, from the global --server / --token / --data-dir options. */
export function clientFor(command: Command): OperatorClient {
  return connect(command.optsWithGlobals<ConnectionOptions>());
}
