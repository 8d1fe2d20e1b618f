import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROCESS_ALIVE_SECONDS, PROCESS_HEARTBEAT_SECONDS, type ProcessIsolation, type ProcessRole } from '@fullstop/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { SERVER_DIR } from '../../lib/server-dir.ts';
import { forgetProcessesSilentFor, registerProcess, removeProcess, touchProcess } from './system-repository.ts';

const VERSION = (JSON.parse(readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8')) as { version: string }).version;
/** A process not heard from for a day is forgotten (it was killed; a clean stop deletes its row at once). */
const FORGET_AFTER_SECONDS = 24 * 3600;

export interface ProcessInfo {
  /** The engine's worker id, so the console can count the attempts this process runs. */
  id: string;
  role: ProcessRole;
  /** Tests it may run at once. */
  workers: number;
  /**
   * How its runners are isolated (the engine's `runnerIsolation`); null when it runs no tests. A function is asked at
   * `start`: a pool's runner users are claimed by then (the engine's onReady comes first).
   */
  isolation: ProcessIsolation | null | (() => ProcessIsolation | null);
}

/**
 * This process's row in server_processes: written at start, refreshed every PROCESS_HEARTBEAT_SECONDS, deleted
 * at a clean stop. A heartbeat that fails (the database restarting) is logged and tried again at the next tick.
 */
export class ProcessRegistry {
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly info: ProcessInfo,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    const { id, role, workers } = this.info;
    const isolation = typeof this.info.isolation === 'function' ? this.info.isolation() : this.info.isolation;
    await registerProcess(this.db, { id, role, workers, isolation, host: os.hostname(), pid: process.pid, version: VERSION });
    // Rows of processes that were killed long ago: whoever starts cleans them up.
    await forgetProcessesSilentFor(this.db, FORGET_AFTER_SECONDS);
    this.#timer = setInterval(() => void this.#beat(), PROCESS_HEARTBEAT_SECONDS * 1000);
    this.#timer.unref();
  }

  async #beat(): Promise<void> {
    try {
      await touchProcess(this.db, this.info.id);
    } catch (err) {
      this.log.warn({ err }, `process heartbeat failed; the console shows this process as stopped after ${PROCESS_ALIVE_SECONDS} s without one`);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await removeProcess(this.db, this.info.id).catch((err: unknown) => this.log.warn({ err }, 'could not remove this process from server_processes'));
  }
}
