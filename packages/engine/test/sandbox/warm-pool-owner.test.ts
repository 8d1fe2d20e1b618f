import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { processTable, sweepOrphanedAttempts } from '../../src/sandbox/index.ts';
import { alive, until as waitUntil } from './fixtures/processes.ts';

const OWNER = fileURLToPath(new URL('./fixtures/pool-owner.ts', import.meta.url));
const root = mkdtempSync(path.join(os.tmpdir(), 'fullstop-pool-owner-'));
const owners: ChildProcess[] = [];

interface Seen {
  runner: number;
  launcher: number;
  runnerTag: string;
  grandchild: number;
  waiting: number;
  waitingTag: string;
}


const until = (what: string, check: () => boolean, ms = 15_000) => waitUntil(what, check, ms);

/** Starts a supervising process with a warm pool, an attempt running and a runner process waiting. */
async function owner(): Promise<{ child: ChildProcess; seen: Seen }> {
  const child = spawn(process.execPath, [OWNER, root], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.on('error', () => {});
  owners.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  await until('the owner to start its attempts', () => out.includes('\n'), 60_000);
  return { child, seen: JSON.parse(out) as Seen };
}

const ofOwner = (pid: number) => processTable().filter((p) => p.tag?.startsWith(`${pid}.`));

afterEach(async () => {
  for (const child of owners.splice(0)) child.kill('SIGKILL');
  await sweepOrphanedAttempts();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A waiting runner process belongs to its supervisor like an attempt's: it never outlives it. */
describe('a warm pool whose supervising process dies', () => {
  it('has its waiting and running runner processes go by themselves, tools included', { timeout: 90_000 }, async () => {
    const { child, seen } = await owner();
    expect(seen.waitingTag).toMatch(new RegExp(`^${child.pid}\\.\\d+\\.warm-[0-9a-f]+$`));
    expect(seen.runnerTag).toMatch(/\.warm-[0-9a-f]+$/);
    expect(seen.waitingTag).not.toBe(seen.runnerTag);
    child.kill('SIGKILL');
    await until('the waiting runner process to exit', () => !alive(seen.waiting));
    await until('the running runner process to exit', () => !alive(seen.runner));
    // The running one took its tool down with it (runner-host.ts, on disconnect).
    await until('its detached tool to be killed', () => !alive(seen.grandchild));
    expect(ofOwner(child.pid!)).toEqual([]);
  });

  it('leaves what could not clean up to the orphan sweep', { timeout: 90_000 }, async () => {
    const { child, seen } = await owner();
    // The supervisor, its launcher and the running runner process killed at once (a machine's OOM killer, kill -9
    // of the whole tree): the detached tool has nobody left to end it.
    for (const pid of [child.pid!, seen.launcher, seen.runner]) process.kill(pid, 'SIGKILL');
    await until('the waiting runner process to exit', () => !alive(seen.waiting));
    // Every process's sweep ends every dead owner's attempts: a server test's beside this file (CI runs files at
    // once) may have ended the tool already. Either way a sweep, not its dead supervisor, ends it.
    const survived = alive(seen.grandchild);
    const swept = await sweepOrphanedAttempts();
    if (survived) expect(swept).toBeGreaterThanOrEqual(1);
    expect(alive(seen.grandchild)).toBe(false);
    expect(ofOwner(child.pid!)).toEqual([]);
  });
});
