import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoginResponse } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { build, type BuildOptions } from '../../src/app.ts';
import type { Env } from '../../src/config/env.ts';
import { openPostgres } from '../../src/db/database.ts';
import { createClient, createUser } from '../../src/features/accounts/service.ts';
import { OPERATOR_TOKEN_FILE } from '../../src/features/operator/token.ts';
import { freshDatabase } from './database.ts';

export { TEST_DATABASE_URL } from './database.ts';

/** `runners` / `runnersModule`: the fake runners of test/engine/fixtures in place of the engine's. */
export interface TestAppOptions extends Pick<BuildOptions, 'runners' | 'runnersModule'> {
  env?: Partial<Env>;
}

/**
 * The real app on a fresh migrated database (PGlite, or PostgreSQL when TEST_DATABASE_URL is set) with its
 * own temporary DATA_DIR. Close it with `app.close()`; the data directory is removed then.
 */
export async function buildTestApp(options: TestAppOptions = {}): Promise<FastifyInstance> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-test-'));
  const database = await freshDatabase();
  const app = await build({
    database,
    logger: false,
    runners: options.runners,
    runnersModule: options.runnersModule,
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: undefined,
      FULLSTOP_DEMO: false,
      ...options.env,
    },
  });
  app.addHook('onClose', async () => rmSync(dataDir, { recursive: true, force: true }));
  await app.ready();
  return app;
}

/**
 * A second API process on the first one's PostgreSQL database, as a deployment with several API processes: its
 * own DATA_DIR, the same server key and operator token; `databaseUrl` reaches the same database another way.
 */
export async function secondApiProcess(
  first: FastifyInstance,
  options: Pick<BuildOptions, 'runners' | 'runnersModule'> & { databaseUrl?: string } = {},
): Promise<FastifyInstance> {
  if (first.database.kind !== 'postgres') throw new Error('PostgreSQL only');
  const { databaseUrl = first.database.url, ...buildOptions } = options;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-test-b-'));
  const app = await build({
    database: openPostgres(databaseUrl, 5),
    logger: false,
    ...buildOptions,
    env: {
      ...first.env,
      DATA_DIR: dataDir,
      DATABASE_URL: undefined,
      FULLSTOP_DEMO: false,
      SERVER_KEY: readFileSync(path.join(first.paths.dataDir, 'server-key'), 'utf8').trim(),
    },
  });
  app.addHook('onClose', async () => rmSync(dataDir, { recursive: true, force: true }));
  await app.ready();
  return app;
}

export interface TestClient {
  clientId: string;
  userId: string;
  apiKey: string;
  email: string;
  password: string;
}

let counter = 0;

/** A client with one user, its team's owner, created directly in the database (fast; no HTTP). */
export async function createTestClient(
  app: FastifyInstance,
  input: { name?: string; website?: string; email?: string; password?: string } = {},
): Promise<TestClient> {
  counter += 1;
  const email = input.email ?? `user${counter}-${Date.now()}@example.test`;
  const password = input.password ?? 'correct horse battery';
  const { clientId, apiKey } = await createClient(app.db, app.keys, {
    name: input.name ?? `Client ${counter}`,
    website: input.website ?? 'https://example.test',
  });
  const { userId } = await createUser(app.db, { email, password, clientId, teamRole: 'owner' });
  return { clientId, userId, apiKey, email, password };
}

export async function createTestOperator(
  app: FastifyInstance,
  input: { email?: string; password?: string } = {},
): Promise<{ userId: string; email: string; password: string }> {
  counter += 1;
  const email = input.email ?? `operator${counter}-${Date.now()}@example.test`;
  const password = input.password ?? 'operator password 1';
  const { userId } = await createUser(app.db, { email, password, clientId: null, role: 'operator' });
  return { userId, email, password };
}

/** Logs in through the real route and returns the spec's login response. */
export async function login(app: FastifyInstance, email: string, password: string, remoteAddress?: string): Promise<LoginResponse> {
  const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, ...(remoteAddress ? { remoteAddress } : {}) });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json<LoginResponse>();
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** The operator token's header: the token the server made at its first start (DATA_DIR/operator-token). */
export function operatorBearer(app: FastifyInstance): { authorization: string } {
  return bearer(readFileSync(path.join(app.paths.dataDir, OPERATOR_TOKEN_FILE), 'utf8').trim());
}

export interface AppWithClient {
  app: FastifyInstance;
  client: TestClient;
  /** The operator token's header. */
  operator: { authorization: string };
}

/**
 * For a describe block: an app (a plain test app unless `buildApp` makes another), closed after the block. Read
 * `app` inside the tests (it is set in beforeAll).
 */
export function useApp(buildApp: () => Promise<FastifyInstance> = buildTestApp): { app: FastifyInstance } {
  const fixture = {} as { app: FastifyInstance };
  beforeAll(async () => {
    fixture.app = await buildApp();
  });
  afterAll(async () => fixture.app?.close());
  return fixture;
}

/** A new client of `app` and its user's access token. */
export async function signedInClient(app: FastifyInstance): Promise<TestClient & { token: string }> {
  const client = await createTestClient(app);
  return { ...client, token: (await login(app, client.email, client.password)).accessToken };
}

/**
 * For a describe block: a fresh app with one client, closed after the block. Read its fields inside the tests
 * (they are set in beforeAll).
 */
export function useAppWithClient(): AppWithClient {
  const fixture = useApp() as AppWithClient;
  beforeAll(async () => {
    fixture.client = await createTestClient(fixture.app);
    fixture.operator = operatorBearer(fixture.app);
  });
  return fixture;
}
