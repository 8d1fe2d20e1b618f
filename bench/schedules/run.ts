/**
 * Schedules at scale (figures, never pass/fail; see ../README.md): 1,000 clients, each with a per-minute schedule,
 * on PostgreSQL. One tick (runScheduleTick: what pg-boss's cron job runs once a minute) queues every client's run:
 * its time (target ≤ 1 s) and the database queries it costs, counted at the pg client (every query of this
 * process, pg-boss's included). The baseline, measured in the same run: the same runs queued by a queueRun loop,
 * one client after the other, as a tick without batching would.
 *
 *   npm run bench:schedules      (BENCH_CLIENTS=1000, BENCH_TESTS=3 tests per suite, BENCH_DATABASE_URL)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadEnv } from '../../apps/server/src/config/env.ts';
import { migrateDatabase, openPostgres } from '../../apps/server/src/db/database.ts';
import { clients, clientSchedules, engineSuites } from '../../apps/server/src/db/schema/index.ts';
import { engineConfig } from '../../apps/server/src/features/engine/config.ts';
import { createEngine } from '../../apps/server/src/features/engine/engine-service.ts';
import { queueRun } from '../../apps/server/src/features/runs/queue-runs.ts';
import { runScheduleTick } from '../../apps/server/src/features/schedules/schedule-tick.ts';
import { dataPaths, ensureDataDirs } from '../../apps/server/src/lib/data-dir.ts';
import { loadServerKeys } from '../../apps/server/src/lib/server-keys.ts';
import { scratchDatabase } from '../../apps/server/test/helpers/scratch-database.ts';
// Counts every query of this process (drizzle's pool and pg-boss's alike).
import { pgQueries } from '../pg-queries.ts';
// The server's Fastify declarations (app.db, app.env ...), which the engine's modules refer to.
import type {} from '../../apps/server/src/app.ts';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const TESTS = Number(process.env.BENCH_TESTS ?? 3);

const database = scratchDatabase(PG_URL, 'fullstop_bench_schedules');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-bench-schedules-'));
await database.create();
const db = openPostgres(database.url, 10);
try {
  await migrateDatabase(db);
  const paths = dataPaths(dataDir);
  ensureDataDirs(paths);
  const engine = createEngine({
    db: db.db,
    raw: db.raw,
    paths,
    config: engineConfig(loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir })),
    keys: loadServerKeys(dataDir, undefined),
    log: pino({ level: 'silent' }),
    demoClientId: null,
  });
  const manifest = { version: 1, groups: [{ name: 'Checks', tests: Array.from({ length: TESTS }, (_, i) => ({ name: `check ${i + 1}`, kind: 'api' })) }] };
  const ids = Array.from({ length: CLIENTS }, () => crypto.randomUUID());
  for (let i = 0; i < CLIENTS; i += 500) {
    const part = ids.slice(i, i + 500);
    await db.db.insert(clients).values(part.map((id, j) => ({ id, name: `Client ${i + j}`, website: 'https://example.test' })));
    await db.db.insert(engineSuites).values(part.map((clientId) => ({ clientId, version: 1, dir: dataDir, manifest: manifest as never, fileCount: 1, isCurrent: true })));
    await db.db
      .insert(clientSchedules)
      .values(part.map((clientId) => ({ clientId, cron: '* * * * *', timezone: 'UTC', scopeKind: 'all' as const, lastTickAt: new Date(Date.now() - 120_000) })));
  }
  await engine.deps.boss(); // started before measuring, as in a running server

  console.log(`## One schedule tick: ${CLIENTS} clients × ${TESTS} tests, PostgreSQL`);
  const now = new Date();
  pgQueries.count = 0;
  let started = performance.now();
  const tick = await runScheduleTick(engine.deps, now);
  const tickMs = performance.now() - started;
  const tickQueries = pgQueries.count;
  pgQueries.count = 0;
  const again = await runScheduleTick(engine.deps, now);
  const againQueries = pgQueries.count;
  console.log(`tick           ${tickMs.toFixed(0).padStart(6)} ms  ${String(tickQueries).padStart(6)} queries  ${tick.queued} runs queued (${tick.queued * TESTS} jobs)`);
  console.log(`same tick again                ${String(againQueries).padStart(6)} queries  ${again.queued} runs queued (exactly once)`);

  pgQueries.count = 0;
  started = performance.now();
  for (const clientId of ids) await queueRun(engine.deps, clientId, {}, { trigger: 'schedule', requestedBy: null });
  const loopMs = performance.now() - started;
  const loopQueries = pgQueries.count;
  console.log(`queueRun loop  ${loopMs.toFixed(0).padStart(6)} ms  ${String(loopQueries).padStart(6)} queries  ${CLIENTS} runs queued (baseline)`);
  console.log(`ratio (tick / baseline): time ${(tickMs / loopMs).toFixed(3)}, queries ${(tickQueries / loopQueries).toFixed(4)}; target ≤ 1,000 ms: ${tickMs <= 1000 ? 'met' : 'missed'}`);
  await engine.stop();
} finally {
  await db.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
