import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { listFiles } from '../../lib/list-files.ts';

/**
 * Whether Playwright needs its ES module loader for a suite (decision 0108): files Node runs as ES modules that
 * Playwright compiles, that is `.mts` or `.mjs` files, or any file under a package.json of `"type": "module"` (one
 * of the suite's own, or the nearest above its folder). Playwright registers that loader in each of its processes
 * unless told not to (`PW_DISABLE_TS_ESM`): a thread of module hooks that every later `require` of the process goes
 * through as well (Node 24), about 0.5 CPU-s a process, the runner's and each worker's. A CommonJS suite, the usual
 * (TypeScript specs and no package.json, or one without "type"), needs none of it: Playwright's require hook compiles
 * its TypeScript, and the config (`.mjs`, plain JavaScript) and the healing hook load in Node as they are.
 */
export async function suiteNeedsEsmLoader(suiteDir: string): Promise<boolean> {
  const files = await listFiles(suiteDir, suiteDir);
  if (files.some((f) => /\.m[tj]s$/.test(f))) return true;
  for (const file of files.filter((f) => path.basename(f) === 'package.json')) if (await declaresModule(path.join(suiteDir, file))) return true;
  // The nearest package.json above the suite decides for files under no package.json of their own.
  for (let dir = path.dirname(path.resolve(suiteDir)); ; dir = path.dirname(dir)) {
    const found = await declaresModule(path.join(dir, 'package.json'));
    if (found !== null) return found;
    if (path.dirname(dir) === dir) return false;
  }
}

/** Whether a package.json says `"type": "module"`; null where there is none. One that cannot be read as JSON says no. */
async function declaresModule(file: string): Promise<boolean | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  try {
    return (JSON.parse(text) as { type?: unknown }).type === 'module';
  } catch {
    return false;
  }
}
