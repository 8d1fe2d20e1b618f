/**
 * wapiti's session database (sqlite, in --store-session): the URLs and forms it found with their parameters, and
 * `attack_log`, one row per URL a module attacked to the end. A module run again with --skip-crawl skips the URLs
 * logged for it, so adding a row leaves a URL out of that module.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { LoggedRequest } from './wapiti-log.ts';

export interface SessionResource {
  pathId: number;
  method: string;
  /** Without its query string. */
  url: string;
  getParams: string[];
  postParams: string[];
  /** Modules that attacked it to the end. */
  attackedBy: string[];
}

async function sessionFile(sessionDir: string): Promise<string | undefined> {
  const names = await readdir(sessionDir).catch(() => [] as string[]);
  const db = names.find((n) => n.endsWith('.db'));
  return db ? path.join(sessionDir, db) : undefined;
}

/** The URLs and forms wapiti crawled (not its payload requests), in its own order. */
export async function readSession(sessionDir: string): Promise<SessionResource[]> {
  const file = await sessionFile(sessionDir);
  if (!file) return [];
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const paths = db.prepare('SELECT path_id, path, method FROM paths WHERE evil = 0 ORDER BY path_id').all() as { path_id: number; path: string; method: string }[];
    const params = db.prepare("SELECT path_id, type, name FROM params WHERE type IN ('GET', 'POST', 'FILE') ORDER BY path_id, param_order").all() as { path_id: number; type: string; name: string }[];
    const log = db.prepare('SELECT path_id, module_name FROM attack_log').all() as { path_id: number; module_name: string }[];
    return paths.map((p) => ({
      pathId: p.path_id,
      method: p.method,
      url: p.path,
      getParams: params.filter((x) => x.path_id === p.path_id && x.type === 'GET').map((x) => x.name),
      postParams: params.filter((x) => x.path_id === p.path_id && x.type !== 'GET').map((x) => x.name),
      attackedBy: [...new Set(log.filter((x) => x.path_id === p.path_id).map((x) => x.module_name))],
    }));
  } finally {
    db.close();
  }
}

const sameNames = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

/** The crawled resource wapiti printed as `request` that `module` has not finished, if one matches. */
export function resourceOf(resources: SessionResource[], request: LoggedRequest, module: string): SessionResource | undefined {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return undefined;
  }
  const bare = `${url.origin}${url.pathname}`;
  const getNames = [...new Set(url.searchParams.keys())];
  const postNames = request.data ? [...new Set(new URLSearchParams(request.data).keys())] : [];
  const open = resources.filter((r) => r.url === bare && (!request.method || r.method === request.method) && !r.attackedBy.includes(module));
  return open.find((r) => sameNames(r.getParams, getNames) && sameNames(r.postParams, postNames)) ?? open[0];
}

/** Logs `pathId` as attacked by `module`: run again, the module leaves it out. */
export async function leaveOut(sessionDir: string, pathId: number, module: string): Promise<boolean> {
  const file = await sessionFile(sessionDir);
  if (!file) return false;
  const db = new DatabaseSync(file);
  try {
    db.prepare('INSERT INTO attack_log (path_id, module_name) VALUES (?, ?)').run(pathId, module);
    return true;
  } finally {
    db.close();
  }
}

/** Forgets what `modules` attacked, except what was left out of them, so a run with them attacks everything again. */
export async function forgetAttacks(sessionDir: string, modules: string[], leftOut: { module: string; pathId: number }[]): Promise<void> {
  const file = await sessionFile(sessionDir);
  if (!file) return;
  const db = new DatabaseSync(file);
  try {
    const forget = db.prepare('DELETE FROM attack_log WHERE module_name = ? AND path_id NOT IN (SELECT value FROM json_each(?))');
    for (const m of modules) forget.run(m, JSON.stringify(leftOut.filter((x) => x.module === m).map((x) => x.pathId)));
  } finally {
    db.close();
  }
}
