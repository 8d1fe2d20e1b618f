import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the server's bundle lives and whether it is older than what it is built from. No dependency of its own:
 * bin/fullstop.js asks this at every start, also where esbuild is not installed (a production image).
 */
export const SERVER_DIR = path.resolve(fileURLToPath(import.meta.url), '../..');
export const ROOT_DIR = path.resolve(SERVER_DIR, '../..');
export const DIST_DIR = path.join(SERVER_DIR, 'dist');
/** Written last by a build that succeeded: a dist without it is half written or from before. */
export const BUILD_STAMP_FILE = 'build.json';

/** What the bundle is made of: the server, the two workspace packages it bundles, the build itself. */
export const SOURCES = [
  path.join(SERVER_DIR, 'src'),
  path.join(ROOT_DIR, 'packages/engine/src'),
  path.join(ROOT_DIR, 'packages/contracts/src'),
  path.join(SERVER_DIR, 'scripts'),
];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(file));
    // Tests are not in the bundle: editing one must not cost the next CLI start a build.
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/** True when there is no complete bundle, or a source file changed after it was built. */
export function distIsStale(): boolean {
  let builtAt: number;
  try {
    builtAt = statSync(path.join(DIST_DIR, BUILD_STAMP_FILE)).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((dir) => newestSource(dir) > builtAt);
}
