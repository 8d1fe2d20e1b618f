/**
 * The healing hook's files, for Playwright to leave to Node (its `build.external`) rather than compile with Babel:
 * Playwright would do that in every worker of every attempt (the attempt's compilation cache is its own), loading
 * Babel first, before the worker's first test. Measured from source: 0.4-0.9 CPU-s and up to 1.6 s a worker, more
 * than all the fingerprints of a dense suite cost. Babel compiles plain JavaScript outside node_modules too, so the
 * server's build needs it as much.
 *
 * In the server's build this code is in a chunk of its flat bundle (apps/server/dist), which holds the hook and all
 * it loads. From source: the hook's folder, the page-ready wait and the contracts' zod-free limits, which Node 24
 * loads as they are (type stripping: these files hold erasable TypeScript only). A file the hook's graph comes to
 * import outside these still works, compiled by Babel (test/healing.test.ts checks there is none).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function hookFiles(): string[] {
  const here = fileURLToPath(import.meta.url);
  const folder = `${path.dirname(here)}/**`;
  if (!here.endsWith('.ts')) return [folder];
  return [folder, fileURLToPath(new URL('../../../lib/page-ready.ts', import.meta.url)), createRequire(import.meta.url).resolve('@fullstop/contracts/healing-limits')];
}
