import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_FIREFOX_PATH } from '../lib/firefox.ts';
import type { TestDefinition } from '../types.ts';
import { entryFile } from './entry-file.ts';
import { launch } from './launcher-client.ts';
import { ownerAlive, selfIdentity } from './process-table.ts';
import { RUNNER_NICENESS } from './protocol.ts';

/** The making of the template, at most: then it is given up and Firefox starts cold, as before. */
const MAKE_TIMEOUT_MS = 120_000;

interface Template {
  dir: string;
  ready: boolean;
  /** Settles when the making ended, true when the template is whole. */
  made: Promise<boolean>;
}

/** A template's folder in the temporary folder: `fullstop-warm-firefox-<owner pid>.<owner start time>-<random>`. */
const FOLDER_PREFIX = 'fullstop-warm-firefox-';
const OWNED_FOLDER = /^fullstop-warm-firefox-(\d+\.\d+)-[A-Za-z0-9]+$/;

/**
 * Removes the templates of server processes that are gone: one killed with SIGKILL never ran its exit handler and
 * left its template behind (about 40 MB). Each server sweeps before it makes its own; a live owner's is never touched.
 */
export function sweepDeadOwnersTemplates(under = tmpdir()): number {
  let removed = 0;
  for (const name of readdirSync(under)) {
    const owner = OWNED_FOLDER.exec(name)?.[1];
    if (!owner || ownerAlive(owner)) continue;
    try {
      rmSync(path.join(under, name), { recursive: true, force: true });
      removed++;
    } catch {
      // Another user's (a server run as another user): theirs to sweep.
    }
  }
  return removed;
}

/** This process's warm Firefox template (one per server process, lib/warm-firefox.ts); null until first asked for. */
let template: Template | null = null;

/** Whether `test` starts Firefox: a browser test whose engines name it. */
export function startsFirefox(test: Pick<TestDefinition, 'kind' | 'options'>): boolean {
  const engines = (test.options as { engines?: unknown } | undefined)?.engines;
  return test.kind === 'browser' && Array.isArray(engines) && engines.includes('firefox');
}

/** Folders 0755 and files 0644 (the wrapper 0755), owned by this process's user: runners read them, never write. */
function readOnlyForOthers(at: string): void {
  const stat = statSync(at);
  chmodSync(at, stat.isDirectory() || (stat.mode & 0o100) !== 0 ? 0o755 : 0o644);
  if (stat.isDirectory()) for (const name of readdirSync(at)) readOnlyForOthers(path.join(at, name));
}

/**
 * The warm template's folder for runners' environment (WARM_FIREFOX_VAR), once it is made; the first call with
 * `make` starts its making in the background (a process of its own, at the runners' niceness), so the attempt that
 * asks first starts Firefox cold. The template is the server's: made by its own Firefox that opened nothing but about:blank,
 * read-only to the runners' users, and removed when this process exits (after a SIGKILL, by the next server's sweep).
 * Null while it is made, when Firefox is not installed, or when it could not be made (a warning says why, once).
 */
export function warmFirefoxFolder(p: { make: boolean }, firefoxPath = DEFAULT_FIREFOX_PATH): string | null {
  if (template) return template.ready ? template.dir : null;
  if (!p.make || !existsSync(firefoxPath)) return null;
  sweepDeadOwnersTemplates();
  const dir = mkdtempSync(path.join(tmpdir(), `${FOLDER_PREFIX}${selfIdentity()}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  const child = launch({ entry: entryFile('warm-firefox'), args: [dir, firefoxPath], cwd: dir, env: { PATH: process.env.PATH }, execArgv: [], niceness: RUNNER_NICENESS });
  let output = '';
  child.stdout.on('data', (chunk: Buffer | string) => (output = (output + String(chunk)).slice(-2_000)));
  const timer = setTimeout(() => child.kill('SIGTERM'), MAKE_TIMEOUT_MS);
  timer.unref();
  const entry: Template = { dir, ready: false, made: Promise.resolve(false) };
  template = entry;
  entry.made = new Promise<boolean>((resolve) =>
    child.once('exit', (code: number | null) => {
      clearTimeout(timer);
      if (code === 0) {
        readOnlyForOthers(dir);
        entry.ready = true;
      } else {
        remove();
        process.emitWarning(`Firefox starts cold: ${output.trim().split('\n').at(-1) || `its warm template was not made (exit ${code})`}`, 'FullstopEngineWarning');
      }
      resolve(code === 0);
    }),
  );
  return null;
}

/** The template's folder once made (its making started if it was not), for benches and tests; null if it was not. */
export async function warmFirefoxMade(firefoxPath = DEFAULT_FIREFOX_PATH): Promise<string | null> {
  warmFirefoxFolder({ make: true }, firefoxPath);
  return (await template?.made) ? template!.dir : null;
}
