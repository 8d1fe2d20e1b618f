import { opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { type ArtifactStore, DataDirStore } from '../../lib/artifact-store/index.ts';
import type { Paths } from '../../lib/data-dir.ts';
import { runDir, runKey } from '../../lib/run-paths.ts';
import { uploadedAppKey } from '../uploads/index.ts';
import { deleteOldFingerprints } from '../healing/index.ts';
import { type RetentionClient, clientPage, deleteOldRuns, deleteOldUploads, existingRunIds, hasNoBuild } from './repository.ts';

const DAY_MS = 24 * 3600 * 1000;
/** A folder without a row is left alone this long: a run's folder appears only after its row, but be generous. */
const ORPHAN_GRACE_MS = 3600 * 1000;
const CLIENT_PAGE = 100;
const ID_RULE = /^[A-Za-z0-9-]+$/;

export interface SweepResult {
  runs: number;
  uploads: number;
  orphanFolders: number;
}

export interface RetentionDeps {
  db: Db;
  paths: Paths;
  /** Where run folders and builds are kept; the data directory's store when not given. */
  artifacts?: ArtifactStore;
  log: FastifyBaseLogger;
  defaultDays: number;
  /** Rows deleted per transaction. */
  batchSize?: number;
  now?: () => Date;
}

/**
 * Deletes what is older than each client's retention: its runs (rows, then their folders) and its upload
 * records, keeping each test's latest run and the current builds. Rows go first, in batches each audited in its
 * own transaction, so no visible row ever points at a missing folder; a folder left by a crash between the two
 * has no row and is removed by the next sweep. Several processes may sweep at once: rows are claimed FOR UPDATE
 * SKIP LOCKED and deleted with RETURNING, so nothing is deleted or audited twice, and removing a folder
 * another sweep already removed is a no-op.
 */
export class RetentionService {
  #timers: NodeJS.Timeout[] = [];
  #running: Promise<unknown> | null = null;

  private readonly artifacts: ArtifactStore;

  constructor(private readonly deps: RetentionDeps) {
    this.artifacts = deps.artifacts ?? new DataDirStore(deps.paths.storage);
  }

  cutoffFor(client: Pick<RetentionClient, 'retentionDays'>): Date {
    const now = this.deps.now?.() ?? new Date();
    return new Date(now.getTime() - (client.retentionDays ?? this.deps.defaultDays) * DAY_MS);
  }

  async sweep(): Promise<SweepResult> {
    const total: SweepResult = { runs: 0, uploads: 0, orphanFolders: 0 };
    let after = '';
    for (;;) {
      const page = await clientPage(this.deps.db, after, CLIENT_PAGE);
      for (const client of page) {
        const r = await this.sweepClient(client);
        total.runs += r.runs;
        total.uploads += r.uploads;
        total.orphanFolders += r.orphanFolders;
      }
      if (page.length < CLIENT_PAGE) break;
      after = page[page.length - 1]!.id;
    }
    await this.removeStaleIncoming();
    if (total.runs + total.uploads + total.orphanFolders > 0) this.deps.log.info(total, 'retention sweep deleted old runs and builds');
    return total;
  }

  async sweepClient(client: RetentionClient): Promise<SweepResult> {
    const { db, paths } = this.deps;
    const batch = this.deps.batchSize ?? 200;
    const cutoff = this.cutoffFor(client);
    const result: SweepResult = { runs: 0, uploads: 0, orphanFolders: 0 };
    for (;;) {
      const ids = await deleteOldRuns(db, client.id, cutoff, batch);
      for (const id of ids) {
        await this.artifacts.deletePrefix(`${runKey(client.id, id)}/`);
        // With a remote store, what a crashed process left in its own data directory goes too.
        await rm(runDir(paths, client.id, id), { recursive: true, force: true });
      }
      result.runs += ids.length;
      if (ids.length < batch) break;
    }
    for (;;) {
      const n = await deleteOldUploads(db, client, cutoff, batch);
      result.uploads += n;
      if (n < batch) break;
    }
    // Locator fingerprints as old as the runs that left them go with those runs (a later passing run records them again).
    await deleteOldFingerprints(db, client.id, cutoff);
    result.orphanFolders = await this.removeOrphanFolders(client.id);
    await this.removeStaleUploadFiles(client);
    return result;
  }

  /** Run folders whose row is gone (a crash between deleting the rows and the folders), read a batch at a time. */
  private async removeOrphanFolders(clientId: string): Promise<number> {
    const dir = path.join(this.deps.paths.runs, clientId);
    const dirents = await opendir(dir).catch(() => null);
    if (!dirents) return 0;
    const batch = this.deps.batchSize ?? 200;
    let removed = 0;
    let names: string[] = [];
    const flush = async () => {
      const existing = await existingRunIds(this.deps.db, clientId, names);
      for (const name of names) {
        if (existing.has(name)) continue;
        const folder = runDir(this.deps.paths, clientId, name);
        const info = await stat(folder).catch(() => null);
        if (!info || Date.now() - info.mtimeMs < ORPHAN_GRACE_MS) continue;
        // Checked again just before removing: a row that appeared meanwhile keeps its folder.
        if ((await existingRunIds(this.deps.db, clientId, [name])).size > 0) continue;
        await rm(folder, { recursive: true, force: true });
        removed++;
      }
      names = [];
    };
    for await (const entry of dirents) {
      if (!entry.isDirectory() || !ID_RULE.test(entry.name)) continue;
      names.push(entry.name);
      if (names.length >= batch) await flush();
    }
    if (names.length > 0) await flush();
    return removed;
  }

  /** A deleted build's file left by a crash after its record went, after a grace period. */
  private async removeStaleUploadFiles(client: RetentionClient): Promise<void> {
    for (const [platform, current] of [['android', client.androidAppPath], ['ios', client.iosAppPath]] as const) {
      const key = uploadedAppKey(client.id, platform);
      const stored = current === null ? await this.artifacts.stat(key).catch(() => null) : null;
      const old = stored?.lastModified !== undefined && Date.now() - stored.lastModified.getTime() > ORPHAN_GRACE_MS;
      if (old && (await hasNoBuild(this.deps.db, client.id, platform))) await this.artifacts.delete(key);
    }
  }

  /** Scratch files of uploads that never finished (a process killed while it checked one), after a day. */
  private async removeStaleIncoming(): Promise<void> {
    const dirents = await opendir(this.deps.paths.incoming).catch(() => null);
    if (!dirents) return;
    for await (const entry of dirents) {
      const file = path.join(this.deps.paths.incoming, entry.name);
      const info = await stat(file).catch(() => null);
      if (info && Date.now() - info.mtimeMs > DAY_MS) await rm(file, { force: true });
    }
  }

  /** Sweeps every `seconds`, and once soon after start. */
  start(seconds: number): void {
    const tick = () => {
      if (this.#running) return;
      this.#running = this.sweep()
        .catch((err: unknown) => this.deps.log.error({ err }, 'retention sweep failed'))
        .finally(() => {
          this.#running = null;
        });
    };
    this.#timers = [setInterval(tick, seconds * 1000), setTimeout(tick, 5000)];
    for (const t of this.#timers) t.unref();
  }

  async stop(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers = [];
    await this.#running;
  }
}
