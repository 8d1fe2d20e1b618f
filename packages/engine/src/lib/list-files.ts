import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Files under `dir` (recursively), as paths relative to `relativeTo`; an absent folder has none. */
export async function listFiles(dir: string, relativeTo: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(relativeTo, path.join(e.parentPath, e.name)))
    .sort();
}
